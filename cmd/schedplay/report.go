package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/engine"
	"github.com/schedplay/schedplay/core/scenario"
	"github.com/schedplay/schedplay/core/scheduler"
)

// scoreOrder lists score plugins in default-profile order for columns.
var scoreOrder = []string{"TaintToleration", "NodeAffinity", "NodeResourcesFit", "PodTopologySpread",
	"InterPodAffinity", "DynamicResources", "NodeResourcesBalancedAllocation", "ImageLocality", "VolumeBinding"}

func writeExplainReport(w io.Writer, s *scenario.Scenario, ex *scheduler.Explanation) {
	pods := map[string]*api.Pod{}
	for _, p := range s.Pods {
		pods[p.Key()] = p
	}
	pod := pods[ex.Pod]
	policy := string(api.PreemptLowerPriority)
	if pod.Spec.PreemptionPolicy != nil {
		policy = string(*pod.Spec.PreemptionPolicy)
	}
	class := pod.Spec.PriorityClassName
	if class == "" {
		class = "none"
	}
	fmt.Fprintf(w, "Pod %s  priority %d (class %s, preemptionPolicy %s)\n\n", ex.Pod, pod.PriorityValue(), class, policy)

	fmt.Fprintln(w, "Filter")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, n := range ex.Nodes {
		if n.Feasible {
			fmt.Fprintf(tw, "  %s\tfits\t\n", n.Name)
		} else {
			fmt.Fprintf(tw, "  %s\trejected by %s\t%s\n", n.Name, n.Plugin, strings.Join(n.Reasons, "; "))
		}
	}
	tw.Flush()
	if ex.Skipped != nil {
		writeSkipped(w, ex.Skipped.Filter, "PreFilter returned Skip, so their Filter did not run")
	}

	var used []string
	seen := map[string]bool{}
	for _, n := range ex.Nodes {
		for p := range n.Scores {
			seen[p] = true
		}
	}
	for _, p := range scoreOrder {
		if seen[p] {
			used = append(used, p)
			delete(seen, p)
		}
	}
	for p := range seen {
		used = append(used, p)
	}
	if len(used) > 0 {
		selected := map[string]bool{}
		for _, n := range ex.Selected {
			selected[n] = true
		}
		fmt.Fprintln(w, "\nScore (normalized 0-100, times weight, summed)")
		writeScoreTable(w, ex, used, true, func(n scheduler.NodeResult) map[string]int64 { return n.Scores }, selected)
		fmt.Fprintln(w, "\nRaw scores (as each plugin's Score returned them, before NormalizeScore)")
		writeScoreTable(w, ex, used, false, func(n scheduler.NodeResult) map[string]int64 { return n.Raw }, nil)
	}
	if ex.Skipped != nil {
		writeSkipped(w, ex.Skipped.Score, "PreScore returned Skip, so their Score did not run")
	}

	fmt.Fprintln(w)
	switch s := ex.Search; {
	case ex.NominatedNode != "":
		fmt.Fprintf(w, "Selected: %s (its nominated node passed the filters, so it is taken without scoring)\n", ex.NominatedNode)
	case s != nil:
		// The partial search: the cycle chooses among the nodes it keeps.
		fmt.Fprintf(w, "Selected: %s, the best of the %d feasible nodes the node search keeps (below)", s.Taken, len(s.Found))
		if len(s.Selected) > 1 {
			fmt.Fprintf(w, ", where %d tie at %d", len(s.Selected), s.Score)
		}
		fmt.Fprintf(w, "; over every feasible node the best is %s\n", someNames(ex.Selected, 5))
	case len(ex.Selected) == 1:
		fmt.Fprintf(w, "Selected: %s\n", ex.Selected[0])
	case ex.Tie != nil:
		fmt.Fprintf(w, "Selected: one of %s, a tie at %d: which one kube-scheduler takes depends on the order its parallel filter found them in; this cycle takes %s\n", strings.Join(ex.Tie.Nodes, ", "), ex.Tie.Score, ex.Tie.Taken)
	case len(ex.Selected) > 1:
		fmt.Fprintf(w, "Selected: one of %s (equal totals; which one kube-scheduler takes depends on the order its parallel filter found them in)\n", strings.Join(ex.Selected, ", "))
	default:
		fmt.Fprintf(w, "FailedScheduling: %s\n", ex.Message)
	}
	if s := ex.Search; s != nil {
		pct := fmt.Sprintf("%d%%", s.Percentage)
		if s.Percentage == 0 {
			pct = "adaptive"
		}
		fmt.Fprintf(w, "\nNode search: a real cycle filters from %s until it has %d feasible nodes (percentageOfNodesToScore %s, %d nodes);\n", s.Start, s.Want, pct, s.Nodes)
		fmt.Fprintf(w, "  it evaluates %d (%d feasible)", s.Evaluated, s.Feasible)
		if s.StoppedOn != "" {
			fmt.Fprintf(w, ", stops on the next feasible node %s", s.StoppedOn)
		}
		shown := s.NotEvaluated
		more := ""
		if len(shown) > 10 {
			shown, more = shown[:10], fmt.Sprintf(" and %d more", len(s.NotEvaluated)-10)
		}
		fmt.Fprintf(w, " and never looks at %d: %s%s.\n", len(s.NotEvaluated), strings.Join(shown, ", "), more)
		fmt.Fprintln(w, "  The start moves on every cycle, so which nodes are scored depends on the cycles before.")
		if len(s.CouldTake) > 0 {
			shown, more := s.CouldTake, ""
			if len(shown) > 10 {
				shown, more = shown[:10], fmt.Sprintf(" and %d more", len(s.CouldTake)-10)
			}
			fmt.Fprintf(w, "  With several workers (kube-scheduler's default parallelism) which %d nodes it finds depends on timing;\n", s.Want)
			fmt.Fprintf(w, "  it could take any of %d: %s%s.\n", len(s.CouldTake), strings.Join(shown, ", "), more)
		}
		if ex.NominatedNode == "" {
			fmt.Fprintf(w, "  The cycle scores only the %d it keeps (the scores above are over every feasible node) and takes %s.\n", len(s.Found), s.Taken)
			var missed []string
			for _, n := range ex.Selected {
				if !slices.Contains(s.Found, n) {
					missed = append(missed, n)
				}
			}
			if len(missed) > 0 {
				fmt.Fprintf(w, "  Best over every feasible node but not kept: %s.\n", someNames(missed, 5))
			}
		}
	}
	if ex.Signature != "" {
		fmt.Fprintln(w, "\nBatching: the pod can be signed. A pod with the same signature in the next cycle that no longer fits")
		fmt.Fprintln(w, "  on the node this pod takes would take the next node of this ranking without a search.")
	}
	if p := ex.Preemption; p != nil {
		fmt.Fprintln(w, "\nPreemption (dry run over every node)")
		if len(p.Candidates) == 0 {
			fmt.Fprintln(w, "  no node becomes feasible by removing lower-priority pods")
		}
		names := make([]string, 0, len(p.Candidates))
		for n := range p.Candidates {
			names = append(names, n)
		}
		sort.Strings(names)
		tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, n := range names {
			c := p.Candidates[n]
			var vs []string
			for _, v := range c.Victims {
				if vp := pods[v]; vp != nil {
					vs = append(vs, fmt.Sprintf("%s (priority %d)", v, vp.PriorityValue()))
				} else {
					vs = append(vs, v)
				}
			}
			fmt.Fprintf(tw, "  %s\t%d PDB violation(s)\tvictims: %s\n", n, c.PDBViolations, strings.Join(vs, ", "))
		}
		tw.Flush()
		if len(p.Nominated) > 0 {
			fmt.Fprintf(w, "  Nominated: %s", strings.Join(p.Nominated, " or "))
			if p.Criterion != "" {
				fmt.Fprintf(w, " (decided by: %s)", p.Criterion)
			}
			fmt.Fprintln(w)
		}
	}
}

// shortPlugin abbreviates long plugin names for column headers.
// writeScoreTable writes one row per feasible node of the plugins' scores
// that of picks; with totals, the headers carry the weights and the rows
// the totals, marking the selected nodes.
func writeScoreTable(w io.Writer, ex *scheduler.Explanation, used []string, totals bool, of func(scheduler.NodeResult) map[string]int64, selected map[string]bool) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "  node\t")
	for _, p := range used {
		if totals {
			fmt.Fprintf(tw, "%s x%d\t", shortPlugin(p), ex.Weights[p])
		} else {
			fmt.Fprintf(tw, "%s\t", shortPlugin(p))
		}
	}
	if totals {
		fmt.Fprint(tw, "total\t")
	}
	fmt.Fprint(tw, "\n")
	for _, n := range ex.Nodes {
		if !n.Feasible {
			continue
		}
		fmt.Fprintf(tw, "  %s\t", n.Name)
		scores := of(n)
		for _, p := range used {
			fmt.Fprintf(tw, "%d\t", scores[p])
		}
		if totals {
			mark := ""
			if selected[n.Name] {
				mark = "  <- best"
			}
			fmt.Fprintf(tw, "%d\t%s", *n.Total, mark)
		}
		fmt.Fprint(tw, "\n")
	}
	tw.Flush()
}

// writeSkipped names the plugins that did nothing for the pod at one
// extension point, folded into one line.
func writeSkipped(w io.Writer, plugins []string, why string) {
	if len(plugins) == 0 {
		return
	}
	noun := "plugins"
	if len(plugins) == 1 {
		noun = "plugin"
	}
	fmt.Fprintf(w, "  %d %s did nothing for this pod (%s): %s\n", len(plugins), noun, why, strings.Join(plugins, ", "))
}

func shortPlugin(p string) string {
	switch p {
	case "NodeResourcesBalancedAllocation":
		return "BalancedAllocation"
	case "NodeResourcesFit":
		return "ResourcesFit"
	}
	return p
}

// writeTimeline writes the trace's text form, then every pod's end state.
func writeTimeline(w io.Writer, sim *engine.Simulation) error {
	if err := engine.WriteTraceText(w, sim.Trace()); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nFinal state")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, p := range sim.Result().Pods {
		extra := ""
		if p.NominatedNode != "" {
			extra = "nominated to " + p.NominatedNode
		}
		fmt.Fprintf(tw, "  %s/%s\t%s\t%s\t%s\n", p.Namespace, p.Name, p.Phase, p.Node, extra)
	}
	return tw.Flush()
}

// someNames lists at most max names, then how many more there are.
func someNames(names []string, max int) string {
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:max], ", "), len(names)-max)
}
