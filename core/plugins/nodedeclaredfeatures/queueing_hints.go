package nodedeclaredfeatures

import (
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
)

var _ framework.EnqueueExtensions = (*NodeDeclaredFeatures)(nil)

// EventsToRegister: a node added or changing its declared features, or the
// pod's own update changing the features it needs (NodeDeclaredFeatures is
// beta and on in v1.36).
func (pl *NodeDeclaredFeatures) EventsToRegister() ([]framework.ClusterEventWithHint, error) {
	return []framework.ClusterEventWithHint{
		{Event: framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Add | framework.UpdateNodeDeclaredFeature}, QueueingHintFn: pl.isSchedulableAfterNodeChange},
		{Event: framework.ClusterEvent{Resource: framework.Pod, ActionType: framework.Update}, QueueingHintFn: pl.isSchedulableAfterPodUpdate},
	}, nil
}

// isSchedulableAfterPodUpdate: only the pod itself, and only if the
// features it needs changed. Scenario pods need none, before or after.
func (pl *NodeDeclaredFeatures) isSchedulableAfterPodUpdate(pod *api.Pod, oldObj, newObj any) (framework.QueueingHint, error) {
	_, newPod, err := framework.As[*api.Pod](oldObj, newObj)
	if err != nil {
		return framework.Queue, err
	}
	if pod.UID != newPod.UID {
		return framework.QueueSkip, nil
	}
	return framework.QueueSkip, nil
}

// isSchedulableAfterNodeChange: a node added, or one whose declared features
// changed. Scenario nodes declare none, so an update never changes them.
func (pl *NodeDeclaredFeatures) isSchedulableAfterNodeChange(pod *api.Pod, oldObj, newObj any) (framework.QueueingHint, error) {
	oldNode, _, err := framework.As[*api.Node](oldObj, newObj)
	if err != nil {
		return framework.Queue, err
	}
	if oldNode != nil {
		return framework.QueueSkip, nil
	}
	return framework.Queue, nil
}
