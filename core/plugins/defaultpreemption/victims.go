package defaultpreemption

import (
	"sort"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/labels"
	"github.com/schedplay/schedplay/core/preemption"
)

// MsgNoVictims rejects a node without lower-priority pods.
const MsgNoVictims = "No preemption victims found for incoming pod"

// SelectVictimsOnNode finds the fewest pods to evict from nodeInfo (a copy)
// so pod fits: remove every lower-priority pod, check the pod fits, then
// put pods back one by one, PDB-protected ones first and the most
// important first in each group, keeping each that still leaves room.
func (pl *DefaultPreemption) SelectVictimsOnNode(state *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo, pdbs []*api.PodDisruptionBudget) ([]*api.Pod, int, *framework.Status) {
	removePod := func(pi *framework.PodInfo) *framework.Status {
		if err := nodeInfo.RemovePod(pi.Pod); err != nil {
			return framework.AsStatus(err)
		}
		if s := pl.fh.RunPreFilterExtensionRemovePod(state, pod, pi, nodeInfo); !s.IsSuccess() {
			return framework.AsStatus(s.AsError())
		}
		return nil
	}
	addPod := func(pi *framework.PodInfo) *framework.Status {
		nodeInfo.AddPodInfo(pi)
		if s := pl.fh.RunPreFilterExtensionAddPod(state, pod, pi, nodeInfo); !s.IsSuccess() {
			return framework.AsStatus(s.AsError())
		}
		return nil
	}

	var potentialVictims []*framework.PodInfo
	for _, pi := range nodeInfo.Pods {
		if isPreemptionAllowed(pi, pod) {
			potentialVictims = append(potentialVictims, pi)
		}
	}
	for _, pi := range potentialVictims {
		if s := removePod(pi); s != nil {
			return nil, 0, s
		}
	}
	if len(potentialVictims) == 0 {
		return nil, 0, framework.NewStatus(framework.UnschedulableAndUnresolvable, MsgNoVictims)
	}
	// Upstream does not try to satisfy pod affinity to a victim: if the pod
	// does not fit with every victim gone, the node is out.
	if s := pl.fh.RunFilterPluginsWithNominatedPods(state, pod, nodeInfo); !s.IsSuccess() {
		return nil, 0, s
	}

	// sort.Slice, as upstream, so pods that compare equal end up in the
	// same order as there.
	sort.Slice(potentialVictims, func(i, j int) bool {
		return preemption.MoreImportantPod(potentialVictims[i].Pod, potentialVictims[j].Pod)
	})
	violating, nonViolating := filterPodsWithPDBViolation(potentialVictims, pdbs)

	var victims []*framework.PodInfo
	reprieve := func(pi *framework.PodInfo) (bool, *framework.Status) {
		if s := addPod(pi); s != nil {
			return false, s
		}
		fits := pl.fh.RunFilterPluginsWithNominatedPods(state, pod, nodeInfo).IsSuccess()
		if !fits {
			if s := removePod(pi); s != nil {
				return false, s
			}
			victims = append(victims, pi)
		}
		return fits, nil
	}
	numViolating := 0
	for _, pi := range violating {
		fits, s := reprieve(pi)
		if s != nil {
			return nil, 0, s
		}
		if !fits {
			numViolating++
		}
	}
	for _, pi := range nonViolating {
		if _, s := reprieve(pi); s != nil {
			return nil, 0, s
		}
	}
	// Two groups were appended one after the other; restore one order.
	if len(violating) != 0 && len(nonViolating) != 0 {
		sort.Slice(victims, func(i, j int) bool { return preemption.MoreImportantPod(victims[i].Pod, victims[j].Pod) })
	}
	out := make([]*api.Pod, 0, len(victims))
	for _, pi := range victims {
		out = append(out, pi.Pod)
	}
	return out, numViolating, framework.NewStatus(framework.Success)
}

// PodEligibleToPreemptOthers refuses a pod whose preemptionPolicy is Never,
// and a pod whose earlier preemption is still under way: a lower-priority
// pod on its nominated node is terminating because the scheduler preempted
// it. If the nominated node itself is now UnschedulableAndUnresolvable,
// waiting is pointless and the pod may preempt again.
func (pl *DefaultPreemption) PodEligibleToPreemptOthers(pod *api.Pod, nominatedNodeStatus *framework.Status) (bool, string) {
	if pod.Spec.PreemptionPolicy != nil && *pod.Spec.PreemptionPolicy == api.PreemptNever {
		return false, MsgPreemptionPolicyNever
	}
	nom := pod.Status.NominatedNodeName
	if nom == "" {
		return true, ""
	}
	if nominatedNodeStatus.Code() == framework.UnschedulableAndUnresolvable {
		return true, ""
	}
	if ni, err := pl.fh.SnapshotSharedLister().NodeInfos().Get(nom); err == nil && ni != nil {
		for _, pi := range ni.Pods {
			if isPreemptionAllowed(pi, pod) && podTerminatingByPreemption(pi.Pod) {
				return false, MsgTerminatingOnNominated
			}
		}
	}
	return true, ""
}

// isPreemptionAllowed: only strictly lower-priority pods may be victims.
func isPreemptionAllowed(victim *framework.PodInfo, preemptor *api.Pod) bool {
	return victim.Pod.PriorityValue() < preemptor.PriorityValue()
}

// podTerminatingByPreemption reports a deleting pod whose (first)
// DisruptionTarget condition says the scheduler preempted it.
func podTerminatingByPreemption(p *api.Pod) bool {
	if p.DeletionTimestamp == nil {
		return false
	}
	for _, c := range p.Status.Conditions {
		if c.Type == api.DisruptionTarget {
			return c.Status == api.ConditionTrue && c.Reason == api.PodReasonPreempt
		}
	}
	return false
}

// filterPodsWithPDBViolation splits pods, keeping their order, into those
// whose eviction would exceed a PDB's DisruptionsAllowed (counting the
// earlier pods of the list against the budget) and the rest. Here, unlike
// in the disruption controller, a PDB with an empty selector matches
// nothing, and pods the API server already counted (DisruptedPods) are
// not charged again.
func filterPodsWithPDBViolation(pods []*framework.PodInfo, pdbs []*api.PodDisruptionBudget) (violating, nonViolating []*framework.PodInfo) {
	allowed := make([]int32, len(pdbs))
	selectors := make([]labels.Selector, len(pdbs))
	for i, pdb := range pdbs {
		allowed[i] = pdb.Status.DisruptionsAllowed
		// An invalid selector matches no pod.
		if sel, err := labels.LabelSelectorAsSelector(pdb.Spec.Selector); err == nil {
			selectors[i] = sel
		}
	}
	for _, pi := range pods {
		p := pi.Pod
		violated := false
		// A pod without labels matches no PDB.
		if len(p.Labels) != 0 {
			for i, pdb := range pdbs {
				if pdb.Namespace != p.Namespace || selectors[i] == nil {
					continue
				}
				if selectors[i].Empty() || !selectors[i].Matches(p.Labels) {
					continue
				}
				if _, ok := pdb.Status.DisruptedPods[p.Name]; ok {
					continue
				}
				allowed[i]--
				if allowed[i] < 0 {
					violated = true
				}
			}
		}
		if violated {
			violating = append(violating, pi)
		} else {
			nonViolating = append(nonViolating, pi)
		}
	}
	return violating, nonViolating
}
