package volumerestrictions

import (
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
)

var _ framework.EnqueueExtensions = (*VolumeRestrictions)(nil)

// EventsToRegister: a deleted pod may release a volume, any new node may
// help (no hint), a PVC created may let the access-mode check run.
// Scenarios hold no PVCs, so the PVC event never fires here.
func (pl *VolumeRestrictions) EventsToRegister() ([]framework.ClusterEventWithHint, error) {
	return []framework.ClusterEventWithHint{
		{Event: framework.ClusterEvent{Resource: framework.Pod, ActionType: framework.Delete}, QueueingHintFn: pl.isSchedulableAfterPodDeleted},
		{Event: framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Add}},
		{Event: framework.ClusterEvent{Resource: framework.PersistentVolumeClaim, ActionType: framework.Add}},
	}, nil
}

// isSchedulableAfterPodDeleted: only a pod in the same namespace sharing a
// conflicting volume or a PVC could help. Scenario pods carry no volumes,
// so no deletion can.
func (pl *VolumeRestrictions) isSchedulableAfterPodDeleted(pod *api.Pod, oldObj, newObj any) (framework.QueueingHint, error) {
	deletedPod, _, err := framework.As[*api.Pod](oldObj, newObj)
	if err != nil {
		return framework.Queue, err
	}
	if deletedPod.Namespace != pod.Namespace {
		return framework.QueueSkip, nil
	}
	return framework.QueueSkip, nil
}
