package engine

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/schedplay/schedplay/core/scenario"
	"github.com/schedplay/schedplay/core/scheduler"
)

// A lesson's question asks the learner for a fact before playback shows
// it. The right answer is the run's: Answer reads it from the event or
// cycle the question's expectation finds (Fact), so a lesson whose
// decision moves asks the same question and expects the new answer.

// Answer is the run's answer to a lesson question.
type Answer struct {
	Question string `json:"question"`
	Ask      string `json:"ask"`
	// Nodes answer node (one) and feasible (a set) questions.
	// (empty: no node).
	Nodes []string `json:"nodes"`
	// Pods answer victims questions.
	Pods []string `json:"pods,omitempty"`
	// T answers time questions (seconds from the start).
	T *Duration `json:"t,omitempty"`
	// Seq is the trace event that shows the answer: playback stops before
	// it to ask.
	Seq int `json:"seq"`
	// Why is the engine's reason: the event's reason, or the cycle's
	// deciding criterion or FailedScheduling message.
	Why string `json:"why"`
	// Criterion is the preemption rule that decided, when a cycle did.
	Criterion string `json:"criterion,omitempty"`
}

// Answer answers the lesson's question id from this run.
func (s *Simulation) Answer(les *scenario.Lesson, id string) (Answer, error) {
	q, ok := findQuestion(les, id)
	if !ok {
		return Answer{}, fmt.Errorf("lesson %s has no question %q", les.Name, id)
	}
	f, err := s.Fact(les, q.Fact)
	if err != nil {
		return Answer{}, fmt.Errorf("question %s: %w", id, err)
	}
	a := Answer{Question: q.ID, Ask: q.Ask}
	switch {
	case f.Event != nil:
		e := f.Event
		a.Seq, a.Why = s.cycleStart(e.Seq), e.Reason
		switch q.Ask {
		case "node":
			a.Nodes = []string{e.Node}
		case "victims":
			a.Pods = slices.Clone(e.Victims)
		case "pod":
			a.Pods = []string{e.Pod}
		case "time":
			t := e.T
			a.T = &t
		default:
			return Answer{}, fmt.Errorf("question %s asks for %s, which event %s does not give (ask it of an explain expectation)", id, q.Ask, e.Kind)
		}
		if e.Kind == EvNominated {
			a.Criterion = s.nominationCriterion(e)
			if a.Criterion != "" {
				a.Why += "; decided by: " + a.Criterion
			}
		}
		if a.Ask != "time" && (len(a.Nodes) == 0 || a.Nodes[0] == "") && len(a.Pods) == 0 {
			return Answer{}, fmt.Errorf("question %s: event %s %s has no %s", id, e.Kind, e.Pod, q.Ask)
		}
	case f.Attempt != nil:
		x := f.Attempt.Explanation
		a.Seq, a.Why = s.cycleStart(f.Attempt.Seq), x.Message
		pre := x.Preemption
		if pre != nil {
			a.Criterion = pre.Criterion
			if a.Criterion != "" {
				a.Why = "decided by: " + a.Criterion
			}
		}
		switch q.Ask {
		case "node":
			switch {
			case pre != nil && len(pre.Nominated) > 0:
				a.Nodes = pre.Nominated[:1]
			case len(x.Selected) > 0:
				a.Nodes = x.Selected[:1]
				a.Why = fmt.Sprintf("the highest score among %d feasible nodes", len(feasible(x.Nodes)))
			}
		case "victims":
			if pre != nil && len(pre.Nominated) > 0 {
				a.Pods = slices.Clone(pre.Candidates[pre.Nominated[0]].Victims)
			}
		case "feasible":
			a.Nodes = feasible(x.Nodes)
			if len(a.Nodes) > 0 {
				a.Why = "passes every filter: " + strings.Join(a.Nodes, ", ")
			}
		case "time":
			t := f.Attempt.T
			a.T = &t
		}
		// A cycle may leave the pod nowhere: "no node" is then the answer
		// to a node or feasible question, but a victims question needs a
		// preemption.
		if q.Ask == "victims" && len(a.Pods) == 0 {
			return Answer{}, fmt.Errorf("question %s: %s's cycle gives no %s", id, x.Pod, q.Ask)
		}
	default:
		return Answer{}, fmt.Errorf("question %s: expectation %s matches nothing in the run", id, q.Fact)
	}
	if a.Nodes == nil && (q.Ask == "node" || q.Ask == "feasible") {
		a.Nodes = []string{}
	}
	slices.Sort(a.Pods)
	if q.Ask == "time" && !slices.Contains(q.Options, time.Duration(*a.T)) {
		return Answer{}, fmt.Errorf("question %s: the run's answer %v is not among the options %v", id, time.Duration(*a.T), q.Options)
	}
	return a, nil
}

// cycleStart is where playback stops to ask about event seq: the event
// itself, or for a binding the first of the PreBind events (and the
// volumes they provision) that come before it in the same cycle, since
// they name the chosen node already.
func (s *Simulation) cycleStart(seq int) int {
	e := s.trace[seq]
	if e.Kind != EvScheduled {
		return seq
	}
	start := seq
	for i := seq - 1; i >= 0; i-- {
		p := s.trace[i]
		if p.Kind == EvPreBind && p.Pod == e.Pod {
			start = i
		} else if p.Kind != EvVolume {
			break
		}
	}
	return start
}

// nominationCriterion is the candidate-ordering rule that decided the
// nomination e: the explanation of the cycle that ended with it.
func (s *Simulation) nominationCriterion(e *Event) string {
	for _, n := range s.trace[e.Seq:] {
		if n.Pod != e.Pod || (n.Kind != EvUnschedulable && n.Kind != EvScheduled) {
			continue
		}
		a, err := s.ExplainAt(e.Pod, n.Seq)
		if err != nil || a == nil || a.Explanation.Preemption == nil {
			return ""
		}
		return a.Explanation.Preemption.Criterion
	}
	return ""
}

func feasible(nodes []scheduler.NodeResult) []string {
	out := []string{}
	for _, n := range nodes {
		if n.Feasible {
			out = append(out, n.Name)
		}
	}
	slices.Sort(out)
	return out
}

func findQuestion(les *scenario.Lesson, id string) (scenario.Question, bool) {
	for _, q := range les.Questions {
		if q.ID == id {
			return q, true
		}
	}
	return scenario.Question{}, false
}

// Right says whether the learner's answer matches: given names a node (or
// the set of nodes), the set of victims, or a time ("30s").
func (a Answer) Right(given []string) bool {
	switch a.Ask {
	case "time":
		if len(given) != 1 || a.T == nil {
			return false
		}
		d, err := time.ParseDuration(given[0])
		return err == nil && d == time.Duration(*a.T)
	case "victims", "pod":
		return sameSet(given, a.Pods)
	default:
		return sameSet(given, a.Nodes)
	}
}

// CheckQuestions lists each question of les the run cannot answer.
func (s *Simulation) CheckQuestions(les *scenario.Lesson) []string {
	var fails []string
	for _, q := range les.Questions {
		if _, err := s.Answer(les, q.ID); err != nil {
			fails = append(fails, fmt.Sprintf("line %d: %v", q.Pos.Line, err))
		}
	}
	return fails
}
