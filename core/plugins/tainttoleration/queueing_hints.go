package tainttoleration

import (
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
)

var _ framework.EnqueueExtensions = (*TaintToleration)(nil)

// EventsToRegister: a node added or with changed taints, or the pod itself
// gaining a toleration.
func (pl *TaintToleration) EventsToRegister() ([]framework.ClusterEventWithHint, error) {
	return []framework.ClusterEventWithHint{
		{Event: framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Add | framework.UpdateNodeTaint}, QueueingHintFn: pl.isSchedulableAfterNodeChange},
		{Event: framework.ClusterEvent{Resource: framework.Pod, ActionType: framework.UpdatePodToleration}, QueueingHintFn: pl.isSchedulableAfterPodTolerationChange},
	}, nil
}

// isSchedulableAfterNodeChange: Queue only when the node goes from having
// an untolerated NoSchedule/NoExecute taint (an added node counts as
// having had one) to having none.
func (pl *TaintToleration) isSchedulableAfterNodeChange(pod *api.Pod, oldObj, newObj any) (framework.QueueingHint, error) {
	originalNode, modifiedNode, err := framework.As[*api.Node](oldObj, newObj)
	if err != nil {
		return framework.Queue, err
	}
	wasUntolerated := true
	if originalNode != nil {
		_, wasUntolerated = api.FindMatchingUntoleratedTaint(originalNode.Spec.Taints, pod.Spec.Tolerations, doNotScheduleTaint)
	}
	_, isUntolerated := api.FindMatchingUntoleratedTaint(modifiedNode.Spec.Taints, pod.Spec.Tolerations, doNotScheduleTaint)
	if wasUntolerated && !isUntolerated {
		return framework.Queue, nil
	}
	return framework.QueueSkip, nil
}

// isSchedulableAfterPodTolerationChange: only the pod's own new toleration helps.
func (pl *TaintToleration) isSchedulableAfterPodTolerationChange(pod *api.Pod, oldObj, newObj any) (framework.QueueingHint, error) {
	_, modifiedPod, err := framework.As[*api.Pod](oldObj, newObj)
	if err != nil {
		return framework.Queue, err
	}
	if pod.UID == modifiedPod.UID {
		return framework.Queue, nil
	}
	return framework.QueueSkip, nil
}
