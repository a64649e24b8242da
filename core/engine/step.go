package engine

import (
	"fmt"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/scheduler"
)

// Step runs the simulation until at least maxEvents more trace events exist
// or nothing more can happen, whichever comes first, so that a caller (the
// browser) can spread a long run over many frames. It reports done when the
// run is over; an error (the event budget) also ends it.
func (s *Simulation) Step(maxEvents int) (done bool, err error) {
	target := len(s.trace) + max(maxEvents, 1)
	for len(s.trace) < target {
		if done, err := s.advance(); done || err != nil {
			return true, err
		}
	}
	return false, nil
}

// Done reports whether the run is over.
func (s *Simulation) Done() bool { return s.finished }

// Attempt is one scheduling cycle of a pod, seen again: the explanation of
// that cycle against the cluster as it was then, and the trace event that
// ended it.
type Attempt struct {
	// Seq is the event (Scheduled or Unschedulable) that ended the cycle.
	Seq    int      `json:"seq"`
	T      Duration `json:"t"`
	Number int      `json:"number"`
	// Of is how many cycles the pod had by the event asked about.
	Of int `json:"of"`
	// Before is the last event before the cycle began: the cycle saw the
	// cluster StateAt(Before) shows (-1: as loaded).
	Before      int                    `json:"before"`
	Explanation *scheduler.Explanation `json:"explanation"`
}

// Attempts lists the events that ended pod key's scheduling cycles up to
// event seq, in order.
func (s *Simulation) Attempts(key string, seq int) []int {
	var out []int
	for _, e := range s.trace {
		if e.Seq > seq {
			break
		}
		if e.Pod == key && (e.Kind == EvScheduled || e.Kind == EvUnschedulable) {
			out = append(out, e.Seq)
		}
	}
	return out
}

// ExplainAt explains the last scheduling cycle of pod key that ended at or
// before event seq; it returns nil when the pod had no cycle by then.
func (s *Simulation) ExplainAt(key string, seq int) (*Attempt, error) {
	return s.ExplainAttempt(key, seq, 0)
}

// ExplainAttempt explains cycle number (1-based; 0: the last) of pod key
// among those that ended at or before event seq. It replays the scenario
// from the start on a fresh simulation (same options, so the same trace)
// and stops just before that cycle, which leaves the cluster, the
// nominations and the PDBs exactly as the cycle saw them. It returns nil
// when the pod had no such cycle by then.
func (s *Simulation) ExplainAttempt(key string, seq, number int) (*Attempt, error) {
	ends := s.Attempts(key, seq)
	if number == 0 {
		number = len(ends)
	}
	if number < 1 || number > len(ends) {
		return nil, nil
	}
	a := &Attempt{Seq: ends[number-1], Number: number, Of: len(ends)}
	a.T = s.trace[a.Seq].T
	replay, err := NewSimulation(s.sc, s.opts)
	if err != nil {
		return nil, fmt.Errorf("replaying for %s: %w", key, err)
	}
	seen := 0
	var explainErr error
	replay.beforeCycle = func(p *api.Pod, r *profileRunner) bool {
		if p.Key() != key {
			return false
		}
		if seen++; seen < a.Number {
			return false
		}
		a.Before = len(replay.trace) - 1
		// Explain works on a copy: the cycle that would follow must not see
		// anything it changed (it changes nothing, but the pod is shared).
		pod := *p
		a.Explanation, explainErr = scheduler.Explain(r.fwk, &pod, replay.snap, r.sched.Search())
		return true
	}
	if err := replay.Run(); err != nil {
		return nil, fmt.Errorf("replaying for %s: %w", key, err)
	}
	if explainErr != nil {
		return nil, fmt.Errorf("explaining %s: %w", key, explainErr)
	}
	if a.Explanation == nil {
		return nil, fmt.Errorf("replaying for %s: cycle %d never came (the replay diverged)", key, a.Number)
	}
	if tie, e := a.Explanation.Tie, s.trace[a.Seq]; tie != nil && e.Kind == EvScheduled {
		tie.Taken = e.Node // the run's cycle, whose node order may differ from Explain's
	}
	return a, nil
}

// PodObject returns the simulation's pod (its latest version: spec and
// requests never change, labels and status may), or nil.
func (s *Simulation) PodObject(key string) *api.Pod {
	if sp := s.pods[key]; sp != nil {
		return sp.pod
	}
	return nil
}

// NodeObject returns a node the simulation knows, including nodes its
// timeline adds, or nil.
func (s *Simulation) NodeObject(name string) *api.Node {
	for _, n := range s.nodes {
		if n.Name == name {
			return n
		}
	}
	return nil
}
