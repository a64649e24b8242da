package volumerestrictions

import (
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
)

var _ framework.EnqueueExtensions = (*VolumeRestrictions)(nil)

// EventsToRegister: a deleted pod may release a volume, any new node may
// help (no hint), a PVC created may let the access-mode check run.
func (pl *VolumeRestrictions) EventsToRegister() ([]framework.ClusterEventWithHint, error) {
	return []framework.ClusterEventWithHint{
		{Event: framework.ClusterEvent{Resource: framework.Pod, ActionType: framework.Delete}, QueueingHintFn: pl.isSchedulableAfterPodDeleted},
		{Event: framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Add}},
		{Event: framework.ClusterEvent{Resource: framework.PersistentVolumeClaim, ActionType: framework.Add}},
	}, nil
}

// isSchedulableAfterPodDeleted is upstream's: a deleted pod of the same
// namespace that used one of the pod's claims (by name; upstream does not
// fetch the claim to check its access mode) may let it fit.
func (pl *VolumeRestrictions) isSchedulableAfterPodDeleted(pod *api.Pod, oldObj, newObj any) (framework.QueueingHint, error) {
	deletedPod, _, err := framework.As[*api.Pod](oldObj, newObj)
	if err != nil {
		return framework.Queue, err
	}
	if deletedPod.Namespace != pod.Namespace {
		return framework.QueueSkip, nil
	}
	claims := map[string]bool{}
	for i := range pod.Spec.Volumes {
		if c := pod.Spec.Volumes[i].PersistentVolumeClaim; c != nil {
			claims[c.ClaimName] = true
		}
	}
	for i := range deletedPod.Spec.Volumes {
		if c := deletedPod.Spec.Volumes[i].PersistentVolumeClaim; c != nil && claims[c.ClaimName] {
			return framework.Queue, nil
		}
	}
	return framework.QueueSkip, nil
}
