package dynamicresources

import (
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
)

var _ framework.EnqueueExtensions = (*DynamicResources)(nil)

// EventsToRegister as upstream (DynamicResourceAllocation is GA). Only the
// node events can happen in a scenario; claims, slices and classes do not
// exist here.
func (pl *DynamicResources) EventsToRegister() ([]framework.ClusterEventWithHint, error) {
	return []framework.ClusterEventWithHint{
		{Event: framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Add | framework.UpdateNodeLabel | framework.UpdateNodeAllocatable}},
		{Event: framework.ClusterEvent{Resource: framework.ResourceClaim, ActionType: framework.Add | framework.Update}},
		{Event: framework.ClusterEvent{Resource: framework.Pod, ActionType: framework.UpdatePodGeneratedResourceClaim}, QueueingHintFn: pl.isSchedulableAfterPodChange},
		{Event: framework.ClusterEvent{Resource: framework.DeviceClass, ActionType: framework.Add | framework.Update}},
		{Event: framework.ClusterEvent{Resource: framework.ResourceSlice, ActionType: framework.Add | framework.Update}},
	}, nil
}

// isSchedulableAfterPodChange: only the pod's own generated claims
// appearing can help; a pod without claims has every claim it needs.
func (pl *DynamicResources) isSchedulableAfterPodChange(pod *api.Pod, _, newObj any) (framework.QueueingHint, error) {
	_, modifiedPod, err := framework.As[*api.Pod](nil, newObj)
	if err != nil {
		return framework.Queue, err
	}
	if pod.UID != modifiedPod.UID {
		return framework.QueueSkip, nil
	}
	return framework.Queue, nil
}
