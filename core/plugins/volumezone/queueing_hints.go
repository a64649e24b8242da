package volumezone

import "github.com/schedplay/schedplay/core/framework"

var _ framework.EnqueueExtensions = (*VolumeZone)(nil)

// EventsToRegister as upstream, without upstream's queueing hints: every
// registered event retries the pod.
func (pl *VolumeZone) EventsToRegister() ([]framework.ClusterEventWithHint, error) {
	return []framework.ClusterEventWithHint{
		{Event: framework.ClusterEvent{Resource: framework.StorageClass, ActionType: framework.Add}},
		{Event: framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Add | framework.UpdateNodeLabel}},
		{Event: framework.ClusterEvent{Resource: framework.PersistentVolumeClaim, ActionType: framework.Add | framework.Update}},
		{Event: framework.ClusterEvent{Resource: framework.PersistentVolume, ActionType: framework.Add | framework.Update}},
	}, nil
}
