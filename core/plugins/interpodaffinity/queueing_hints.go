package interpodaffinity

import (
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
)

var _ framework.EnqueueExtensions = (*InterPodAffinity)(nil)

// EventsToRegister: a pod added (may satisfy affinity), relabelled or
// deleted (may stop violating anti-affinity), and nodes added or
// relabelled (topology keys).
func (pl *InterPodAffinity) EventsToRegister() ([]framework.ClusterEventWithHint, error) {
	return []framework.ClusterEventWithHint{
		{Event: framework.ClusterEvent{Resource: framework.Pod, ActionType: framework.Add | framework.UpdatePodLabel | framework.Delete}, QueueingHintFn: pl.isSchedulableAfterPodChange},
		{Event: framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Add | framework.UpdateNodeLabel}, QueueingHintFn: pl.isSchedulableAfterNodeChange},
	}, nil
}

// requiredTerms compiles pod's required (anti-)affinity terms as upstream's
// GetAffinityTerms: namespaceSelectors are not resolved, so they match the
// empty namespace label set only.
func requiredTerms(pod *api.Pod) (affinity, anti []framework.AffinityTerm, err error) {
	pi := framework.NewPodInfo(pod)
	return pi.RequiredAffinityTerms, pi.RequiredAntiAffinityTerms, pi.ParseError
}

// podMatchesAllTerms reports whether pod matches every term (none: false),
// without namespace labels.
func podMatchesAllTerms(terms []framework.AffinityTerm, pod *api.Pod) bool {
	if len(terms) == 0 {
		return false
	}
	for i := range terms {
		if !terms[i].Matches(pod, nil) {
			return false
		}
	}
	return true
}

// isSchedulableAfterPodChange: the pod's own relabelling; a bound or
// nominated pod added that matches all affinity terms, updated to match
// them or to stop matching all anti-affinity terms, or deleted while
// matching the anti-affinity terms (or while its own anti-affinity
// selected the pod).
func (pl *InterPodAffinity) isSchedulableAfterPodChange(pod *api.Pod, oldObj, newObj any) (framework.QueueingHint, error) {
	originalPod, modifiedPod, err := framework.As[*api.Pod](oldObj, newObj)
	if err != nil {
		return framework.Queue, err
	}
	if modifiedPod != nil && originalPod != nil && pod.UID == modifiedPod.UID {
		return framework.Queue, nil
	}
	// Binding or nominating a pod arrives as Add/Delete, so unscheduled,
	// unnominated pods never matter.
	if modifiedPod != nil && modifiedPod.Spec.NodeName == "" && modifiedPod.Status.NominatedNodeName == "" ||
		originalPod != nil && originalPod.Spec.NodeName == "" && originalPod.Status.NominatedNodeName == "" {
		return framework.QueueSkip, nil
	}
	terms, antiTerms, err := requiredTerms(pod)
	if err != nil {
		return framework.Queue, err
	}
	if modifiedPod != nil && originalPod != nil {
		if !podMatchesAllTerms(terms, originalPod) && podMatchesAllTerms(terms, modifiedPod) {
			return framework.Queue, nil
		}
		if podMatchesAllTerms(antiTerms, originalPod) && !podMatchesAllTerms(antiTerms, modifiedPod) {
			return framework.Queue, nil
		}
		return framework.QueueSkip, nil
	}
	if modifiedPod != nil {
		if podMatchesAllTerms(terms, modifiedPod) {
			return framework.Queue, nil
		}
		return framework.QueueSkip, nil
	}
	if podMatchesAllTerms(antiTerms, originalPod) {
		return framework.Queue, nil
	}
	_, deletedAnti, err := requiredTerms(originalPod)
	if err != nil {
		return framework.Queue, err
	}
	if podMatchesAllTerms(deletedAnti, pod) {
		return framework.Queue, nil
	}
	return framework.QueueSkip, nil
}

// isSchedulableAfterNodeChange: for affinity, a node added with a term's
// topology key, or updated to gain it or change its value; for
// anti-affinity, any node added, or one updated to lose a term's key or
// change its value.
func (pl *InterPodAffinity) isSchedulableAfterNodeChange(pod *api.Pod, oldObj, newObj any) (framework.QueueingHint, error) {
	originalNode, modifiedNode, err := framework.As[*api.Node](oldObj, newObj)
	if err != nil {
		return framework.Queue, err
	}
	terms, antiTerms, err := requiredTerms(pod)
	if err != nil {
		return framework.Queue, err
	}
	for _, t := range terms {
		if originalNode == nil {
			if _, ok := modifiedNode.Labels[t.TopologyKey]; ok {
				return framework.Queue, nil
			}
			continue
		}
		ov, oHas := originalNode.Labels[t.TopologyKey]
		mv, mHas := modifiedNode.Labels[t.TopologyKey]
		if !oHas && mHas || oHas && mHas && ov != mv {
			return framework.Queue, nil
		}
	}
	for _, t := range antiTerms {
		if originalNode == nil {
			return framework.Queue, nil
		}
		ov, oHas := originalNode.Labels[t.TopologyKey]
		mv, mHas := modifiedNode.Labels[t.TopologyKey]
		if oHas && !mHas || oHas && mHas && ov != mv {
			return framework.Queue, nil
		}
	}
	return framework.QueueSkip, nil
}
