package nodevolumelimits

import (
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
)

var _ framework.EnqueueExtensions = (*CSILimits)(nil)

// EventsToRegister as upstream. Of these only pod deletion can happen in a
// scenario; CSINode, PVC and VolumeAttachment objects do not exist here.
func (pl *CSILimits) EventsToRegister() ([]framework.ClusterEventWithHint, error) {
	return []framework.ClusterEventWithHint{
		{Event: framework.ClusterEvent{Resource: framework.CSINode, ActionType: framework.Add}},
		{Event: framework.ClusterEvent{Resource: framework.CSINode, ActionType: framework.Update}},
		{Event: framework.ClusterEvent{Resource: framework.Pod, ActionType: framework.Delete}, QueueingHintFn: pl.isSchedulableAfterPodDeleted},
		{Event: framework.ClusterEvent{Resource: framework.PersistentVolumeClaim, ActionType: framework.Add}},
		{Event: framework.ClusterEvent{Resource: framework.VolumeAttachment, ActionType: framework.Delete}},
	}, nil
}

// isSchedulableAfterPodDeleted: only a bound or nominated pod with a CSI
// volume frees an attachment slot; scenario pods have no volumes.
func (pl *CSILimits) isSchedulableAfterPodDeleted(pod *api.Pod, oldObj, newObj any) (framework.QueueingHint, error) {
	if _, _, err := framework.As[*api.Pod](oldObj, newObj); err != nil {
		return framework.Queue, err
	}
	return framework.QueueSkip, nil
}
