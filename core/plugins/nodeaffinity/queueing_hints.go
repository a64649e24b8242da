package nodeaffinity

import (
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/labels"
)

var _ framework.EnqueueExtensions = (*NodeAffinity)(nil)

// EventsToRegister: only node additions and label changes can make a node
// match.
func (pl *NodeAffinity) EventsToRegister() ([]framework.ClusterEventWithHint, error) {
	return []framework.ClusterEventWithHint{
		{Event: framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Add | framework.UpdateNodeLabel}, QueueingHintFn: pl.isSchedulableAfterNodeChange},
	}, nil
}

// isSchedulableAfterNodeChange: the node must match addedAffinity and the
// pod's required node affinity (nodeSelector included), and an updated
// node must not have matched before.
func (pl *NodeAffinity) isSchedulableAfterNodeChange(pod *api.Pod, oldObj, newObj any) (framework.QueueingHint, error) {
	originalNode, modifiedNode, err := framework.As[*api.Node](oldObj, newObj)
	if err != nil {
		return framework.Queue, err
	}
	if pl.addedNodeSelector != nil && !pl.addedNodeSelector.Match(modifiedNode) {
		return framework.QueueSkip, nil
	}
	required := labels.GetRequiredNodeAffinity(pod)
	if !required.Match(modifiedNode) {
		return framework.QueueSkip, nil
	}
	if originalNode == nil {
		return framework.Queue, nil
	}
	if required.Match(originalNode) {
		return framework.QueueSkip, nil
	}
	return framework.Queue, nil
}
