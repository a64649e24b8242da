package nodevolumelimits

import (
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
)

var _ framework.EnqueueExtensions = (*CSILimits)(nil)

// EventsToRegister as upstream. VolumeAttachment objects do not exist
// in a scenario, so that event never fires.
func (pl *CSILimits) EventsToRegister() ([]framework.ClusterEventWithHint, error) {
	return []framework.ClusterEventWithHint{
		{Event: framework.ClusterEvent{Resource: framework.CSINode, ActionType: framework.Add}},
		{Event: framework.ClusterEvent{Resource: framework.CSINode, ActionType: framework.Update}},
		{Event: framework.ClusterEvent{Resource: framework.Pod, ActionType: framework.Delete}, QueueingHintFn: pl.isSchedulableAfterPodDeleted},
		{Event: framework.ClusterEvent{Resource: framework.PersistentVolumeClaim, ActionType: framework.Add}},
		{Event: framework.ClusterEvent{Resource: framework.VolumeAttachment, ActionType: framework.Delete}},
	}, nil
}

// isSchedulableAfterPodDeleted is upstream's: only a bound or nominated
// pod with a claim frees an attachment slot.
func (pl *CSILimits) isSchedulableAfterPodDeleted(pod *api.Pod, oldObj, newObj any) (framework.QueueingHint, error) {
	deletedPod, _, err := framework.As[*api.Pod](oldObj, newObj)
	if err != nil {
		return framework.Queue, err
	}
	if len(deletedPod.Spec.Volumes) == 0 {
		return framework.QueueSkip, nil
	}
	if deletedPod.Spec.NodeName == "" && deletedPod.Status.NominatedNodeName == "" {
		return framework.QueueSkip, nil
	}
	for i := range deletedPod.Spec.Volumes {
		if deletedPod.Spec.Volumes[i].PersistentVolumeClaim != nil {
			return framework.Queue, nil
		}
	}
	return framework.QueueSkip, nil
}
