package engine

import (
	"fmt"
	"sort"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
)

// actuation is a preemption DefaultPreemption decided on and handed to the
// simulation through its Handle.
type actuation struct {
	node    string
	victims *framework.Victims
}

var _ framework.PreemptionExecutor = (*Simulation)(nil)

// ActuatePodPreemption takes a preemption from DefaultPreemption's
// evaluator (upstream: Executor.actuatePodPreemption). The simulation
// carries it out once PostFilter has returned (see preempt), as upstream's
// asynchronous preemption (prepareCandidateAsync, on by default in v1.36)
// does its API calls after the cycle: lower-priority nominations on the
// node are cleared, then the victims are deleted, the last one alone. So
// a dry run (explain) that runs PostFilter changes nothing.
func (s *Simulation) ActuatePodPreemption(targetNode string, victims *framework.Victims, _ *api.Pod, _ string) *framework.Status {
	s.actuation = &actuation{node: targetNode, victims: victims}
	return nil
}

// preempt carries out the preemption DefaultPreemption handed to
// ActuatePodPreemption: lower-priority pods nominated to the node lose
// their nomination, the preemptor is nominated, victims get the
// DisruptionTarget condition and a graceful delete.
func (s *Simulation) preempt(preemptor *simPod, runner *profileRunner, a *actuation) {
	s.queue.SetPreempting(true)
	defer s.queue.SetPreempting(false)
	node := a.node
	var victims []string
	for _, v := range a.victims.Pods {
		victims = append(victims, v.Key())
	}
	for _, k := range sortedNominees(s.nominated[node]) {
		sp := s.pods[k]
		if sp.pod.PriorityValue() < preemptor.pod.PriorityValue() && k != preemptor.pod.Key() {
			s.nominate(sp, "")
			s.emit(Event{Kind: EvNominationCleared, Pod: k, Node: node, Reason: fmt.Sprintf("a higher-priority pod %s was nominated to %s", preemptor.pod.Key(), node)})
		}
	}
	s.nominate(preemptor, node)
	s.emit(Event{Kind: EvNominated, Pod: preemptor.pod.Key(), Node: node, Victims: victims,
		Reason: fmt.Sprintf("preemption chose %s: %d victim(s), %d PDB violation(s)", node, len(victims), a.victims.NumPDBViolations)})
	var actionable []*simPod
	for _, v := range a.victims.Pods {
		if vp := s.pods[v.Key()]; vp != nil && vp.phase == PhaseRunning && !vp.terminating {
			actionable = append(actionable, vp)
		}
	}
	for i, vp := range actionable {
		p := vp.pod
		before := *p
		p.Status.Conditions = append(append([]api.PodCondition(nil), p.Status.Conditions...), api.PodCondition{
			Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: api.PodReasonPreempt,
			Message: runner.fwk.ProfileName() + ": preempting to accommodate a higher priority pod",
		})
		s.podUpdated(&before, p)
		s.requeue(assignedPodUpdate, &before, p)
		if i == len(actionable)-1 {
			// Upstream deletes the last victim on its own and stops holding
			// the preemptor once that deletion has started, so the last
			// victim's deletion may requeue the preemptor.
			s.queue.SetPreempting(false)
		}
		s.terminate(vp, EvPreempted, fmt.Sprintf("preempted by %s on %s", preemptor.pod.Key(), node), nil, nil)
	}
}

func sortedNominees(list []*framework.PodInfo) []string {
	out := make([]string, 0, len(list))
	for _, pi := range list {
		out = append(out, pi.Pod.Key())
	}
	sort.Strings(out)
	return out
}
