package engine

import (
	"fmt"
	"time"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/eviction"
	"github.com/schedplay/schedplay/core/scenario"
)

// evictionPressureTransitionPeriod is how long the kubelet keeps reporting
// a pressure condition after the signal falls below its threshold.
const evictionPressureTransitionPeriod = 5 * time.Minute

// pressureState is one node's active pressure.
type pressureState struct {
	p     *scenario.Pressure
	stats eviction.Stats
	// evicting is the pod being killed; the next eviction waits for it.
	evicting string
	relief   bool
}

// startPressure raises a node's eviction signal and starts evicting.
func (s *Simulation) startPressure(p *scenario.Pressure) {
	if _, err := s.snap.Get(p.Node); err != nil {
		s.actionFailed("no node %s to put under pressure", p.Node)
		return
	}
	stats := eviction.Stats{}
	for k, q := range p.Usage {
		stats[k] = q.Value()
	}
	s.pressure[p.Node] = &pressureState{p: p, stats: stats}
	taint := eviction.PressureTaint(p.Resource)
	s.updateNode(p.Node, func(n *api.Node) string {
		for _, t := range n.Spec.Taints {
			if t.Key == taint.Key {
				return ""
			}
		}
		n.Spec.Taints = append(n.Spec.Taints, taint)
		return fmt.Sprintf("%s pressure (%s threshold): the node reports the condition and gets the %s:NoSchedule taint", p.Resource, p.Threshold, taint.Key)
	})
	s.evictStep(p.Node)
}

// evictStep is one pass of the kubelet's eviction manager on a node: while
// the pods use more than the limit, evict the first-ranked pod, then wait
// for it to be gone before looking again.
func (s *Simulation) evictStep(node string) {
	ps := s.pressure[node]
	if ps == nil || ps.relief {
		return
	}
	if ps.evicting != "" {
		if sp := s.pods[ps.evicting]; sp != nil && !sp.gone() {
			return
		}
		ps.evicting = ""
	}
	var active []*api.Pod
	var used int64
	for _, k := range s.order {
		sp := s.pods[k]
		if sp.phase != PhaseRunning || sp.pod.Spec.NodeName != node {
			continue
		}
		used += ps.stats[k]
		if !sp.terminating {
			active = append(active, sp.pod)
		}
	}
	p := ps.p
	if used <= p.Limit.Value() || len(active) == 0 {
		ps.relief = true
		s.emit(Event{Kind: EvPressure, Node: node, Reason: fmt.Sprintf("%s use %d is within the limit %d: the pressure condition clears after %v", p.Resource, used, p.Limit.Value(), evictionPressureTransitionPeriod)})
		s.addTimer(s.now.Add(evictionPressureTransitionPeriod), timerRelief, node, false)
		return
	}
	ranked := eviction.Rank(active, ps.stats, p.Resource)
	victim := s.pods[ranked[0].Key()]
	override := eviction.GracePeriodOverride(victim.pod, p.Threshold == scenario.ThresholdHard, p.MaxPodGracePeriod)
	before := *victim.pod
	victim.pod.Status.Conditions = append(append([]api.PodCondition(nil), victim.pod.Status.Conditions...), eviction.Condition(p.Resource))
	s.podUpdated(&before, victim.pod)
	ps.evicting = victim.pod.Key()
	s.terminate(victim, EvEvicted, fmt.Sprintf("node-pressure eviction on %s (%s use %d > limit %d, %s threshold), ranked 1st of %d: %s",
		node, p.Resource, used, p.Limit.Value(), p.Threshold, len(active), eviction.Why(victim.pod, ps.stats, p.Resource)), nil, &override)
}

// relieve removes the pressure taint once the transition period is over.
func (s *Simulation) relieve(node string) {
	ps := s.pressure[node]
	if ps == nil {
		return
	}
	delete(s.pressure, node)
	taint := eviction.PressureTaint(ps.p.Resource)
	s.updateNode(node, func(n *api.Node) string {
		for i, t := range n.Spec.Taints {
			if t.Key == taint.Key {
				n.Spec.Taints = append(n.Spec.Taints[:i:i], n.Spec.Taints[i+1:]...)
				return fmt.Sprintf("%s pressure condition cleared: the %s taint is removed", ps.p.Resource, taint.Key)
			}
		}
		return ""
	})
}
