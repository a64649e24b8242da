package nodeports

import (
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
)

var _ framework.EnqueueExtensions = (*NodePorts)(nil)

// EventsToRegister: a deleted pod may free a port; any new node may have it
// free (no hint: always Queue). Container ports are immutable, so pod
// updates never matter.
func (pl *NodePorts) EventsToRegister() ([]framework.ClusterEventWithHint, error) {
	return []framework.ClusterEventWithHint{
		{Event: framework.ClusterEvent{Resource: framework.Pod, ActionType: framework.Delete}, QueueingHintFn: pl.isSchedulableAfterPodDeleted},
		{Event: framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Add}},
	}, nil
}

// isSchedulableAfterPodDeleted: only a bound or nominated pod holding one
// of the pod's host ports can free it.
func (pl *NodePorts) isSchedulableAfterPodDeleted(pod *api.Pod, oldObj, newObj any) (framework.QueueingHint, error) {
	deletedPod, _, err := framework.As[*api.Pod](oldObj, nil)
	if err != nil {
		return framework.Queue, err
	}
	if deletedPod.Spec.NodeName == "" && deletedPod.Status.NominatedNodeName == "" {
		return framework.QueueSkip, nil
	}
	ports := framework.GetHostPorts(deletedPod)
	if len(ports) == 0 {
		return framework.QueueSkip, nil
	}
	inUse := make(framework.HostPortInfo, len(ports))
	for _, p := range ports {
		inUse.Add(p.HostIP, string(p.Protocol), p.HostPort)
	}
	if fitsPorts(framework.GetHostPorts(pod), inUse) {
		return framework.QueueSkip, nil
	}
	return framework.Queue, nil
}
