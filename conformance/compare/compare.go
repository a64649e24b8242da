// Package compare compares the contract JSON of schedplay ("ours") with the upstream
// harness's, area by area, and keeps the counts and minimal differences.
package compare

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/schedplay/schedplay/conformance/contract"
)

// Areas in report order.
var Areas = []string{"input", "filter", "score", "selection", "message", "preemption", "final"}

// Diff is one minimal difference.
type Diff struct {
	File     string `json:"file"`
	Pod      string `json:"pod,omitempty"`
	Node     string `json:"node,omitempty"`
	Area     string `json:"area"`
	Field    string `json:"field"`
	Ours     string `json:"ours"`
	Upstream string `json:"upstream"`
	// Reason is set when an allowlist entry explains the difference.
	Reason string `json:"reason,omitempty"`
}

func (d Diff) String() string {
	where := d.File
	if d.Pod != "" {
		where += " pod " + d.Pod
	}
	if d.Node != "" {
		where += " node " + d.Node
	}
	s := fmt.Sprintf("%s [%s] %s: ours %s, upstream %s", where, d.Area, d.Field, d.Ours, d.Upstream)
	if d.Reason != "" {
		s += " (known: " + d.Reason + ")"
	}
	return s
}

// FieldControllers is the field of the one final-state difference reported for a
// scenario in which schedplay's workload controllers created pods.
const FieldControllers = "workload controllers"

// FieldTimeline is the field of the one final-state difference reported for a scenario
// with a Timeline whose actions changed the outcome.
const FieldTimeline = "timeline"

// AllowEntry explains known differences. Empty fields and "*" match anything; File is
// matched as a path.Match pattern against the scenario's base name, Field as a
// prefix-or-pattern, Upstream/Ours as substrings.
type AllowEntry struct {
	Area     string `json:"area"`
	File     string `json:"file,omitempty"`
	Field    string `json:"field,omitempty"`
	Ours     string `json:"oursContains,omitempty"`
	Upstream string `json:"upstreamContains,omitempty"`
	Reason   string `json:"reason"`
}

// LoadAllowlist reads a JSON array of AllowEntry; a missing file is an empty list.
func LoadAllowlist(file string) ([]AllowEntry, error) {
	b, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []AllowEntry
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return out, nil
}

func match(pattern, s string) bool {
	if pattern == "" || pattern == "*" {
		return true
	}
	ok, _ := path.Match(pattern, s)
	return ok || strings.HasPrefix(s, pattern)
}

func (a AllowEntry) matches(d Diff) bool {
	return (a.Area == "" || a.Area == "*" || a.Area == d.Area) &&
		match(a.File, d.File) && match(a.Field, d.Field) &&
		strings.Contains(d.Ours, a.Ours) && strings.Contains(d.Upstream, a.Upstream)
}

type counts struct{ agree, disagree, explained, ambiguous int }

// Report accumulates results. Each (file, pod, area) is one check.
type Report struct {
	allow    []AllowEntry
	counts   map[string]*counts
	diffs    []Diff
	failures []string
	notes    []string
	// pending per-check state
	checkDiff map[string]bool
}

// NewReport starts an empty report.
func NewReport(allow []AllowEntry) *Report {
	r := &Report{allow: allow, counts: map[string]*counts{}, checkDiff: map[string]bool{}}
	for _, a := range Areas {
		r.counts[a] = &counts{}
	}
	return r
}

func (r *Report) c(area string) *counts {
	if r.counts[area] == nil {
		r.counts[area] = &counts{}
	}
	return r.counts[area]
}

// Agree records an agreeing check.
func (r *Report) Agree(file, pod, area string) { r.c(area).agree++ }

// Ambiguous records checks skipped because upstream's result is not determined.
func (r *Report) Ambiguous(file, pod string, areas ...string) {
	for _, a := range areas {
		r.c(a).ambiguous++
	}
}

// Note records why a scenario was ambiguous (printed after the table).
func (r *Report) Note(file, pod, why string) {
	where := file
	if pod != "" {
		where += " pod " + pod
	}
	r.notes = append(r.notes, where+": "+why)
}

// Fail records a run that could not be compared (ours or upstream failed).
func (r *Report) Fail(file, pod, msg string) {
	where := file
	if pod != "" {
		where += " pod " + pod
	}
	r.failures = append(r.failures, where+": "+msg)
}

// Diff records a single disagreeing check with one difference.
func (r *Report) Diff(d Diff) { r.Check(d.Area, []Diff{d}) }

// Check records one check of an area with its differences (none = agreement).
func (r *Report) Check(area string, diffs []Diff) {
	if len(diffs) == 0 {
		r.c(area).agree++
		return
	}
	all := true
	for i := range diffs {
		for _, a := range r.allow {
			if a.matches(diffs[i]) {
				diffs[i].Reason = a.Reason
				break
			}
		}
		if diffs[i].Reason == "" {
			all = false
		}
	}
	if all {
		r.c(area).explained++
	} else {
		r.c(area).disagree++
	}
	r.diffs = append(r.diffs, diffs...)
}

// Unexplained is the number of disagreeing checks and failed runs.
func (r *Report) Unexplained() int {
	n := len(r.failures)
	for _, c := range r.counts {
		n += c.disagree
	}
	return n
}

// Print writes the per-area table and the first maxDiffs unexplained differences.
func (r *Report) Print(w io.Writer, maxDiffs int) {
	fmt.Fprintf(w, "%-11s %7s %9s %10s %10s\n", "area", "agree", "disagree", "explained", "ambiguous")
	var areas []string
	areas = append(areas, Areas...)
	for a := range r.counts {
		if !contains(areas, a) {
			areas = append(areas, a)
		}
	}
	for _, a := range areas {
		c := r.counts[a]
		fmt.Fprintf(w, "%-11s %7d %9d %10d %10d\n", a, c.agree, c.disagree, c.explained, c.ambiguous)
	}
	if len(r.failures) > 0 {
		fmt.Fprintf(w, "%d runs failed:\n", len(r.failures))
		for i, f := range r.failures {
			if i >= maxDiffs {
				fmt.Fprintf(w, "  ... %d more\n", len(r.failures)-maxDiffs)
				break
			}
			fmt.Fprintln(w, "  "+f)
		}
	}
	if len(r.notes) > 0 {
		fmt.Fprintf(w, "ambiguous (upstream chooses at random):\n")
		for i, n := range r.notes {
			if i >= maxDiffs {
				fmt.Fprintf(w, "  ... %d more\n", len(r.notes)-maxDiffs)
				break
			}
			fmt.Fprintln(w, "  "+n)
		}
	}
	var un []Diff
	for _, d := range r.diffs {
		if d.Reason == "" {
			un = append(un, d)
		}
	}
	if len(un) > 0 {
		fmt.Fprintf(w, "%d unexplained differences, first %d:\n", len(un), min(maxDiffs, len(un)))
		for i, d := range un {
			if i >= maxDiffs {
				break
			}
			fmt.Fprintln(w, "  "+d.String())
		}
	}
	if total := len(r.diffs) - len(un); total > 0 {
		fmt.Fprintf(w, "%d differences explained by the allowlist\n", total)
	}
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

func q(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func sortedCopy(s []string) []string {
	out := append([]string{}, s...)
	sort.Strings(out)
	return out
}

func sameSet(a, b []string) bool { return q(sortedCopy(a)) == q(sortedCopy(b)) }

// Explain compares one explain result. nominatedNode is the pod's status.nominatedNodeName.
func Explain(r *Report, file, pod, nominatedNode string, ours, up *contract.Explain) {
	d := func(area, node, field string, o, u any) Diff {
		return Diff{File: file, Pod: pod, Node: node, Area: area, Field: field, Ours: q(o), Upstream: q(u)}
	}
	on := map[string]contract.NodeResult{}
	for _, n := range ours.Nodes {
		on[n.Name] = n
	}

	// filter: every node's feasibility, rejecting plugin and reasons.
	var fd []Diff
	feasibleSame := true
	for _, un := range up.Nodes {
		o, ok := on[un.Name]
		if !ok {
			fd = append(fd, d("filter", un.Name, "present", false, true))
			feasibleSame = false
			continue
		}
		if o.Feasible != un.Feasible {
			fd = append(fd, d("filter", un.Name, "feasible", o.Feasible, un.Feasible))
			feasibleSame = false
			continue
		}
		if !un.Feasible {
			if o.Plugin != un.Plugin {
				fd = append(fd, d("filter", un.Name, "plugin", o.Plugin, un.Plugin))
			}
			if !sameSet(o.Reasons, un.Reasons) {
				fd = append(fd, d("filter", un.Name, "reasons", sortedCopy(o.Reasons), sortedCopy(un.Reasons)))
			}
		}
	}
	if len(ours.Nodes) != len(up.Nodes) {
		fd = append(fd, d("filter", "", "node count", len(ours.Nodes), len(up.Nodes)))
	}
	// The skip sets, when upstream's side reports them (stored answers
	// may predate them): nil and empty are the same.
	var oursSkipped contract.Skipped
	if ours.Skipped != nil {
		oursSkipped = *ours.Skipped
	}
	if up.Skipped != nil && q(sortedCopy(oursSkipped.Filter)) != q(sortedCopy(up.Skipped.Filter)) {
		fd = append(fd, d("filter", "", "skipped.filter", oursSkipped.Filter, up.Skipped.Filter))
	}
	r.Check("filter", fd)

	// score: only meaningful when both agree on the feasible set.
	if feasibleSame && nominatedNode != "" && len(up.Selected) == 1 && up.Selected[0] == nominatedNode {
		// The nominated node passes the filters: upstream takes it unscored.
		r.Ambiguous(file, pod, "score")
	} else if feasibleSame {
		var sd []Diff
		for _, un := range up.Nodes {
			if !un.Feasible {
				continue
			}
			o := on[un.Name]
			plugins := map[string]bool{}
			for p := range un.Scores {
				plugins[p] = true
			}
			for p := range o.Scores {
				plugins[p] = true
			}
			var names []string
			for p := range plugins {
				names = append(names, p)
			}
			sort.Strings(names)
			for _, p := range names {
				if o.Scores[p] != un.Scores[p] {
					sd = append(sd, d("score", un.Name, "scores."+p, o.Scores[p], un.Scores[p]))
				}
				if un.Weighted != nil && o.Weighted[p] != un.Weighted[p] {
					sd = append(sd, d("score", un.Name, "weighted."+p, o.Weighted[p], un.Weighted[p]))
				}
			}
			if un.Total != nil && (o.Total == nil || *o.Total != *un.Total) {
				var ot any
				if o.Total != nil {
					ot = *o.Total
				}
				sd = append(sd, d("score", un.Name, "total", ot, *un.Total))
			}
		}
		if up.Skipped != nil && q(sortedCopy(oursSkipped.Score)) != q(sortedCopy(up.Skipped.Score)) {
			sd = append(sd, d("score", "", "skipped.score", oursSkipped.Score, up.Skipped.Score))
		}
		r.Check("score", sd)
	} else {
		r.Ambiguous(file, pod, "score") // not comparable: filter already differs
	}

	// selection: the set of nodes with the top total (or the nominated node).
	if sameSet(ours.Selected, up.Selected) {
		r.Check("selection", nil)
	} else {
		r.Check("selection", []Diff{d("selection", "", "selected", sortedCopy(ours.Selected), sortedCopy(up.Selected))})
	}

	// message
	if ours.Message == up.Message {
		r.Check("message", nil)
	} else {
		r.Check("message", []Diff{d("message", "", "message", ours.Message, up.Message)})
	}

	// preemption
	var pd []Diff
	switch {
	case ours.Preemption == nil && up.Preemption == nil:
	case ours.Preemption == nil || up.Preemption == nil:
		pd = append(pd, d("preemption", "", "preemption", ours.Preemption != nil, up.Preemption != nil))
	default:
		op, upp := ours.Preemption, up.Preemption
		var cn []string
		seen := map[string]bool{}
		for n := range upp.Candidates {
			cn = append(cn, n)
			seen[n] = true
		}
		for n := range op.Candidates {
			if !seen[n] {
				cn = append(cn, n)
			}
		}
		sort.Strings(cn)
		for _, n := range cn {
			oc, ok1 := op.Candidates[n]
			uc, ok2 := upp.Candidates[n]
			if ok1 != ok2 {
				pd = append(pd, d("preemption", n, "candidate", ok1, ok2))
				continue
			}
			if !sameSet(oc.Victims, uc.Victims) {
				pd = append(pd, d("preemption", n, "victims", sortedCopy(oc.Victims), sortedCopy(uc.Victims)))
			}
			if oc.PDBViolations != uc.PDBViolations {
				pd = append(pd, d("preemption", n, "pdbViolations", oc.PDBViolations, uc.PDBViolations))
			}
		}
		if !sameSet(op.Nominated, upp.Nominated) {
			pd = append(pd, d("preemption", "", "nominated", sortedCopy(op.Nominated), sortedCopy(upp.Nominated)))
		}
	}
	r.Check("preemption", pd)
}

// Simulate compares the final states.
// Simulate compares final states. timeline says the scenario has a schedplay Timeline
// document (actions the harness does not perform): any difference then is reported as
// one FieldTimeline difference.
func Simulate(r *Report, file string, ours, up *contract.Simulate, timeline bool) {
	op := map[string]contract.SimPod{}
	for _, p := range ours.Pods {
		op[p.Namespace+"/"+p.Name] = p
	}
	// Pods ours has and upstream does not were made by schedplay's workload controllers;
	// the harness runs none (DIVERGENCES.md D1), so the two runs are not comparable.
	inUp := map[string]bool{}
	for _, u := range up.Pods {
		inUp[u.Namespace+"/"+u.Name] = true
	}
	var created []string
	for _, p := range ours.Pods {
		if k := p.Namespace + "/" + p.Name; !inUp[k] {
			created = append(created, k)
		}
	}
	if len(created) > 0 {
		r.Check("final", []Diff{{File: file, Area: "final", Field: FieldControllers,
			Ours: "created " + strings.Join(created, ", "), Upstream: "no workload controllers run"}})
		return
	}
	var fd []Diff
	for _, u := range up.Pods {
		k := u.Namespace + "/" + u.Name
		o, ok := op[k]
		if !ok {
			fd = append(fd, Diff{File: file, Pod: k, Area: "final", Field: "present", Ours: "false", Upstream: "true"})
			continue
		}
		if o.Phase != u.Phase {
			fd = append(fd, Diff{File: file, Pod: k, Area: "final", Field: "phase", Ours: o.Phase, Upstream: u.Phase})
		}
		if o.Node != u.Node {
			fd = append(fd, Diff{File: file, Pod: k, Area: "final", Field: "node", Ours: q(o.Node), Upstream: q(u.Node)})
		}
		if o.NominatedNode != u.NominatedNode {
			fd = append(fd, Diff{File: file, Pod: k, Area: "final", Field: "nominatedNode", Ours: q(o.NominatedNode), Upstream: q(u.NominatedNode)})
		}
	}
	if len(ours.Pods) != len(up.Pods) {
		fd = append(fd, Diff{File: file, Area: "final", Field: "pod count", Ours: fmt.Sprint(len(ours.Pods)), Upstream: fmt.Sprint(len(up.Pods))})
	}
	if timeline && len(fd) > 0 {
		fd = []Diff{{File: file, Area: "final", Field: FieldTimeline,
			Ours: fmt.Sprintf("%d difference(s), first: %s %s", len(fd), fd[0].Pod, fd[0].Field), Upstream: "timeline actions not performed"}}
	}
	r.Check("final", fd)
}
