package nodeunschedulable

import (
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
)

var _ framework.EnqueueExtensions = (*NodeUnschedulable)(nil)

// EventsToRegister: a schedulable node added, a node uncordoned (which
// arrives as UpdateNodeTaint), or the pod tolerating the unschedulable taint.
func (pl *NodeUnschedulable) EventsToRegister() ([]framework.ClusterEventWithHint, error) {
	return []framework.ClusterEventWithHint{
		{Event: framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Add | framework.UpdateNodeTaint}, QueueingHintFn: pl.isSchedulableAfterNodeChange},
		{Event: framework.ClusterEvent{Resource: framework.Pod, ActionType: framework.UpdatePodToleration}, QueueingHintFn: pl.isSchedulableAfterPodTolerationChange},
	}, nil
}

// isSchedulableAfterPodTolerationChange: the pod itself now tolerates
// node.kubernetes.io/unschedulable:NoSchedule.
func (pl *NodeUnschedulable) isSchedulableAfterPodTolerationChange(pod *api.Pod, oldObj, newObj any) (framework.QueueingHint, error) {
	_, modifiedPod, err := framework.As[*api.Pod](oldObj, newObj)
	if err != nil {
		return framework.Queue, err
	}
	if pod.UID != modifiedPod.UID {
		return framework.QueueSkip, nil
	}
	if api.TolerationsTolerateTaint(modifiedPod.Spec.Tolerations, &api.Taint{Key: TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule}) {
		return framework.Queue, nil
	}
	return framework.QueueSkip, nil
}

// isSchedulableAfterNodeChange: a node turned schedulable, or a schedulable node added.
func (pl *NodeUnschedulable) isSchedulableAfterNodeChange(pod *api.Pod, oldObj, newObj any) (framework.QueueingHint, error) {
	originalNode, modifiedNode, err := framework.As[*api.Node](oldObj, newObj)
	if err != nil {
		return framework.Queue, err
	}
	if originalNode != nil && originalNode.Spec.Unschedulable && !modifiedNode.Spec.Unschedulable ||
		originalNode == nil && !modifiedNode.Spec.Unschedulable {
		return framework.Queue, nil
	}
	return framework.QueueSkip, nil
}
