package schedulinggates

import (
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
)

var _ framework.EnqueueExtensions = (*SchedulingGates)(nil)

// EventsToRegister: the pod losing its last scheduling gate.
func (pl *SchedulingGates) EventsToRegister() ([]framework.ClusterEventWithHint, error) {
	return []framework.ClusterEventWithHint{
		{Event: framework.ClusterEvent{Resource: framework.Pod, ActionType: framework.UpdatePodSchedulingGatesEliminated}, QueueingHintFn: pl.isSchedulableAfterUpdatePodSchedulingGatesEliminated},
	}, nil
}

func (pl *SchedulingGates) isSchedulableAfterUpdatePodSchedulingGatesEliminated(pod *api.Pod, oldObj, newObj any) (framework.QueueingHint, error) {
	_, modifiedPod, err := framework.As[*api.Pod](oldObj, newObj)
	if err != nil {
		return framework.Queue, err
	}
	if modifiedPod.UID != pod.UID {
		return framework.QueueSkip, nil
	}
	return framework.Queue, nil
}
