package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/schedplay/schedplay/core/scenario"
	"github.com/schedplay/schedplay/core/scheduler"
)

// A lesson's claims are checked against the run, never against constants:
// each expectation is a query (an event match, a pod, a scheduling cycle)
// whose answer the run gives, compared with what the lesson states. A
// question that asks the learner for the same thing takes its right answer
// from Fact, i.e. from the run.

// Fact is the run's answer to one expectation: the event it matched, or
// the scheduling cycle it explains.
type Fact struct {
	// Event is the first matching trace event (nil when none matched).
	Event *Event
	// Attempt is the explained cycle (explain expectations).
	Attempt *Attempt
}

// Fact answers the lesson's expectation named id (an events or explain
// entry's id) from this run. An event is found by its subject alone (kind
// and pod, or kind and node for an event without pod): its node, victims,
// ties, time and reason are the answers, which the run gives whatever the
// lesson claims. A cycle is found as the expectation says (pod, on).
func (s *Simulation) Fact(les *scenario.Lesson, id string) (Fact, error) {
	for _, m := range les.Expect.Events {
		if m.ID == id {
			if i := FirstMatch(s.trace, subjectOf(m)); i >= 0 {
				return Fact{Event: &s.trace[i]}, nil
			}
			return Fact{}, nil
		}
	}
	for _, x := range les.Expect.Explain {
		if x.ID == id {
			a, err := s.explainFor(x)
			return Fact{Attempt: a}, err
		}
	}
	return Fact{}, fmt.Errorf("lesson %s has no expectation with id %q", les.Name, id)
}

// CheckLesson lists every claim of captions and exp that the run does not
// bear out, each prefixed with its line in the lesson.
func (s *Simulation) CheckLesson(captions []scenario.Caption, exp scenario.LessonExpect) []string {
	return checkRun(s.trace, s.Result(), s.explainFor, captions, exp)
}

// checkRun is CheckLesson over a trace, a final state and a way to explain
// a cycle.
func checkRun(trace []Event, res *Result, explain func(scenario.ExplainExpect) (*Attempt, error), captions []scenario.Caption, exp scenario.LessonExpect) []string {
	var fails []string
	failf := func(p scenario.Pos, format string, args ...any) {
		fails = append(fails, fmt.Sprintf("line %d: ", p.Line)+fmt.Sprintf(format, args...))
	}
	end := time.Duration(0)
	if len(trace) > 0 {
		end = time.Duration(trace[len(trace)-1].T)
	}
	for i, c := range captions {
		switch {
		case c.On != nil && FirstMatch(trace, *c.On) < 0:
			failf(c.Pos, "caption %d waits for %s, which never happens", i, c.On)
		case c.At != nil && *c.At > end:
			failf(c.Pos, "caption %d is at %v, after the last event (%v)", i, *c.At, end)
		}
	}
	pods := map[string]PodResult{}
	for _, p := range res.Pods {
		pods[p.Namespace+"/"+p.Name] = p
	}
	for _, want := range exp.Pods {
		got, ok := pods[want.Pod]
		switch {
		case !ok:
			failf(want.Pos, "expected pod %s does not exist at the end", want.Pod)
		case want.Phase != "" && string(got.Phase) != want.Phase:
			failf(want.Pos, "pod %s ends %s, the lesson says %s", want.Pod, got.Phase, want.Phase)
		case want.Node != "" && got.Node != want.Node:
			failf(want.Pos, "pod %s ends on node %q, the lesson says %s", want.Pod, got.Node, want.Node)
		case want.NominatedNode != "" && got.NominatedNode != want.NominatedNode:
			failf(want.Pos, "pod %s ends nominated to %q, the lesson says %s", want.Pod, got.NominatedNode, want.NominatedNode)
		case want.Reason != "" && got.Reason != want.Reason:
			failf(want.Pos, "pod %s ends with reason %q, the lesson says %s", want.Pod, got.Reason, want.Reason)
		case want.Priority != nil && got.Priority != *want.Priority:
			failf(want.Pos, "pod %s has priority %d, the lesson says %d", want.Pod, got.Priority, *want.Priority)
		case want.PreemptionPolicy != "" && got.PreemptionPolicy != want.PreemptionPolicy:
			failf(want.Pos, "pod %s has preemptionPolicy %s, the lesson says %s", want.Pod, got.PreemptionPolicy, want.PreemptionPolicy)
		}
	}
	for _, m := range exp.Events {
		i := FirstMatch(trace, m)
		switch {
		case m.Absent && i >= 0:
			failf(m.Pos, "no %s was expected, but event %d is one: %s", m, i, trace[i].Reason)
		case !m.Absent && i < 0:
			failf(m.Pos, "expected event %s never happens%s", m, nearMiss(trace, m))
		}
	}
	for _, x := range exp.Explain {
		a, err := explain(x)
		if err != nil {
			failf(x.Pos, "%v", err)
			continue
		}
		for _, msg := range checkExplanation(x, a.Explanation) {
			failf(x.Pos, "%s's cycle at %v: %s", x.Pod, a.T, msg)
		}
	}
	return fails
}

// subjectOf keeps what finds an event (kind and pod, or kind and node for
// an event without pod) and drops what a lesson claims about it.
func subjectOf(m scenario.EventMatch) scenario.EventMatch {
	subject := scenario.EventMatch{Kind: m.Kind, Pod: m.Pod}
	if m.Pod == "" {
		subject.Node = m.Node
	}
	return subject
}

// nearMiss shows the event the lesson was about, as the run has it, when
// only a claim about it failed.
func nearMiss(trace []Event, m scenario.EventMatch) string {
	if i := FirstMatch(trace, subjectOf(m)); i >= 0 {
		e := trace[i]
		return fmt.Sprintf(" (the run has %s %s @ %s at %v, victims %v, ties %v)", e.Kind, e.Pod, e.Node, e.T, e.Victims, e.Ties)
	}
	return ""
}

// FirstMatch is the index of the first trace event m matches, or -1.
func FirstMatch(trace []Event, m scenario.EventMatch) int {
	for i, e := range trace {
		if e.Kind == m.Kind && (m.Pod == "" || e.Pod == m.Pod) && (m.Node == "" || e.Node == m.Node) &&
			strings.Contains(e.Reason, m.Reason) && (m.At == nil || time.Duration(e.T) == *m.At) &&
			(m.Victims == nil || sameSet(e.Victims, m.Victims)) && (m.Ties == nil || sameSet(e.Ties, m.Ties)) {
			return i
		}
	}
	return -1
}

// explainFor explains the pod's cycle that ends at or after the first
// event x.On matches (its first cycle without On).
func (s *Simulation) explainFor(x scenario.ExplainExpect) (*Attempt, error) {
	from := 0
	if x.On != nil {
		if from = FirstMatch(s.trace, *x.On); from < 0 {
			return nil, fmt.Errorf("explain of %s waits for %s, which never happens", x.Pod, x.On)
		}
	}
	for _, e := range s.trace[from:] {
		if e.Pod == x.Pod && (e.Kind == EvScheduled || e.Kind == EvUnschedulable) {
			a, err := s.ExplainAt(x.Pod, e.Seq)
			if err == nil && a == nil {
				err = fmt.Errorf("no cycle of %s to explain", x.Pod)
			}
			return a, err
		}
	}
	return nil, fmt.Errorf("%s has no scheduling cycle after event %d", x.Pod, from)
}

// checkScores compares a node's expected scores of one kind (what:
// "" normalized, "raw ", "weighted ") with the explained ones.
func checkScores(fails []string, node, what string, want, got map[string]int64) []string {
	for _, plugin := range sortedKeys(nil, want) {
		if g, ok := got[plugin]; !ok || g != want[plugin] {
			fails = append(fails, fmt.Sprintf("node %s's %s %sscore is %s, the lesson says %d", node, plugin, what, scoreText(g, ok), want[plugin]))
		}
	}
	return fails
}

func checkExplanation(x scenario.ExplainExpect, ex *scheduler.Explanation) []string {
	var fails []string
	if x.Selected != nil && !sameSet(ex.Selected, x.Selected) {
		fails = append(fails, fmt.Sprintf("selected %v, the lesson says %v", ex.Selected, x.Selected))
	}
	if x.Message != "" && !strings.Contains(ex.Message, x.Message) {
		fails = append(fails, fmt.Sprintf("the message is %q, the lesson quotes %q", ex.Message, x.Message))
	}
	for _, ne := range x.Nodes {
		i := slices.IndexFunc(ex.Nodes, func(r scheduler.NodeResult) bool { return r.Name == ne.Name })
		if i < 0 {
			fails = append(fails, fmt.Sprintf("no node %s", ne.Name))
			continue
		}
		r := ex.Nodes[i]
		switch {
		case ne.Feasible != nil && r.Feasible != *ne.Feasible:
			fails = append(fails, fmt.Sprintf("node %s feasible = %v, the lesson says %v (%s: %v)", ne.Name, r.Feasible, *ne.Feasible, r.Plugin, r.Reasons))
		case ne.Plugin != "" && r.Plugin != ne.Plugin:
			fails = append(fails, fmt.Sprintf("node %s is rejected by %q %v, the lesson says %s", ne.Name, r.Plugin, r.Reasons, ne.Plugin))
		case ne.Reason != "" && !slices.ContainsFunc(r.Reasons, func(s string) bool { return strings.Contains(s, ne.Reason) }):
			fails = append(fails, fmt.Sprintf("node %s's reasons are %q, the lesson says %q", ne.Name, r.Reasons, ne.Reason))
		case ne.Total != nil && (r.Total == nil || *r.Total != *ne.Total):
			fails = append(fails, fmt.Sprintf("node %s's total score is %s, the lesson says %d", ne.Name, totalText(r.Total), *ne.Total))
		}
		fails = checkScores(fails, ne.Name, "", ne.Scores, r.Scores)
		fails = checkScores(fails, ne.Name, "raw ", ne.Raw, r.Raw)
		fails = checkScores(fails, ne.Name, "weighted ", ne.Weighted, r.Weighted)
	}
	p := ex.Preemption
	if x.Criterion != "" || x.Candidates != nil || x.Nominated != nil || x.Victims != nil {
		if p == nil {
			return append(fails, "no preemption dry run (a node fits, or the pod may not preempt)")
		}
	}
	if x.Criterion != "" && p.Criterion != x.Criterion {
		fails = append(fails, fmt.Sprintf("decided by %q, the lesson says %q", p.Criterion, x.Criterion))
	}
	if x.Candidates != nil {
		var got []string
		for n := range p.Candidates {
			got = append(got, n)
		}
		if !sameSet(got, x.Candidates) {
			sort.Strings(got)
			fails = append(fails, fmt.Sprintf("preemption candidates %v, the lesson says %v", got, x.Candidates))
		}
	}
	if x.Nominated != nil && !sameSet(p.Nominated, x.Nominated) {
		fails = append(fails, fmt.Sprintf("best candidates %v, the lesson says %v", p.Nominated, x.Nominated))
	}
	for node, want := range x.Victims {
		c, ok := p.Candidates[node]
		if !ok || !sameSet(c.Victims, want) {
			fails = append(fails, fmt.Sprintf("victims on %s are %v, the lesson says %v", node, c.Victims, want))
		}
	}
	return fails
}

func totalText(t *int64) string {
	if t == nil {
		return "none (not scored)"
	}
	return fmt.Sprint(*t)
}

func scoreText(v int64, ok bool) string {
	if !ok {
		return "none (not scored by it)"
	}
	return fmt.Sprint(v)
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	x, y := slices.Clone(a), slices.Clone(b)
	sort.Strings(x)
	sort.Strings(y)
	return slices.Equal(x, y)
}
