package noderesources

import (
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
)

var _ framework.EnqueueExtensions = (*Fit)(nil)

// EventsToRegister: a deleted or scaled-down pod may free resources, a new
// node or more allocatable may offer them. (InPlacePodVerticalScaling is GA,
// so scale-downs count; with queueing hints there is no preCheck, so node
// label and taint updates are not needed. DeviceClass events, for
// DRA-backed extended resources, never happen in a scenario.)
func (pl *Fit) EventsToRegister() ([]framework.ClusterEventWithHint, error) {
	return []framework.ClusterEventWithHint{
		{Event: framework.ClusterEvent{Resource: framework.Pod, ActionType: framework.Delete | framework.UpdatePodScaleDown}, QueueingHintFn: pl.isSchedulableAfterPodEvent},
		{Event: framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Add | framework.UpdateNodeAllocatable}, QueueingHintFn: pl.isSchedulableAfterNodeChange},
	}, nil
}

// isSchedulableAfterPodEvent: deleting a bound or nominated pod may free
// room; a scale-down helps the pod itself, or frees a resource it asks for.
func (pl *Fit) isSchedulableAfterPodEvent(pod *api.Pod, oldObj, newObj any) (framework.QueueingHint, error) {
	originalPod, modifiedPod, err := framework.As[*api.Pod](oldObj, newObj)
	if err != nil {
		return framework.Queue, err
	}
	if modifiedPod == nil {
		if originalPod.Spec.NodeName == "" && originalPod.Status.NominatedNodeName == "" {
			return framework.QueueSkip, nil
		}
		return framework.Queue, nil
	}
	if !isSchedulableAfterPodScaleDown(pod, originalPod, modifiedPod) {
		return framework.QueueSkip, nil
	}
	return framework.Queue, nil
}

func isSchedulableAfterPodScaleDown(targetPod, originalPod, modifiedPod *api.Pod) bool {
	if modifiedPod.UID == targetPod.UID {
		return true
	}
	if modifiedPod.Spec.NodeName == "" {
		return false
	}
	before, after := &framework.Resource{}, &framework.Resource{}
	before.AddRequests(api.PodRequests(originalPod, api.PodRequestsOptions{}))
	after.AddRequests(api.PodRequests(modifiedPod, api.PodRequestsOptions{}))
	for name, v := range api.PodRequests(targetPod, api.PodRequestsOptions{}) {
		if v == 0 {
			continue
		}
		switch name {
		case api.ResourceCPU:
			if before.MilliCPU > after.MilliCPU {
				return true
			}
		case api.ResourceMemory:
			if before.Memory > after.Memory {
				return true
			}
		case api.ResourceEphemeralStorage:
			if before.EphemeralStorage > after.EphemeralStorage {
				return true
			}
		default:
			if framework.IsScalarResourceName(name) && before.ScalarResources[name] > after.ScalarResources[name] {
				return true
			}
		}
	}
	return false
}

// isSchedulableAfterNodeChange: the empty node must fit the pod, and an
// update must have raised the pod count or a resource the pod requests.
func (pl *Fit) isSchedulableAfterNodeChange(pod *api.Pod, oldObj, newObj any) (framework.QueueingHint, error) {
	originalNode, modifiedNode, err := framework.As[*api.Node](oldObj, newObj)
	if err != nil {
		return framework.Queue, err
	}
	if !isFit(pod, modifiedNode) {
		return framework.QueueSkip, nil
	}
	if originalNode == nil {
		return framework.Queue, nil
	}
	if !haveAnyRequestedResourcesIncreased(pod, originalNode, modifiedNode) {
		return framework.QueueSkip, nil
	}
	return framework.Queue, nil
}

// isFit checks the pod against the node with nothing on it.
func isFit(pod *api.Pod, node *api.Node) bool {
	if node == nil {
		return false
	}
	ni := framework.NewNodeInfo()
	ni.SetNode(node)
	return len(Fits(pod, ni)) == 0
}

func haveAnyRequestedResourcesIncreased(pod *api.Pod, originalNode, modifiedNode *api.Node) bool {
	req := computePodResourceRequest(pod)
	before, after := framework.NewResource(originalNode.Status.Allocatable), framework.NewResource(modifiedNode.Status.Allocatable)
	if after.AllowedPodNumber > before.AllowedPodNumber {
		return true
	}
	if req.MilliCPU == 0 && req.Memory == 0 && req.EphemeralStorage == 0 && len(req.ScalarResources) == 0 {
		return false
	}
	if req.MilliCPU > 0 && after.MilliCPU > before.MilliCPU ||
		req.Memory > 0 && after.Memory > before.Memory ||
		req.EphemeralStorage > 0 && after.EphemeralStorage > before.EphemeralStorage {
		return true
	}
	for name, v := range req.ScalarResources {
		if v != 0 && after.ScalarResources[name] > before.ScalarResources[name] {
			return true
		}
	}
	return false
}
