package noderesources

import (
	"slices"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
)

// resourceAllocationScorer scores a node from, per configured resource,
// what the node would have requested with the pod, what it has without it,
// and its allocatable.
type resourceAllocationScorer struct {
	name string
	// useRequested reads NodeInfo.Requested and the pod's plain requests;
	// otherwise cpu and memory use NonZeroRequested and the 100m/200Mi
	// stand-ins for absent container requests.
	useRequested bool
	// enablePodLevelResources honours spec.resources for the incoming pod.
	enablePodLevelResources bool
	scorer                  func(requested, allocated, allocatable []int64) int64
	// kind names the built-in scorer, which score calls directly so that
	// the per-node lists can stay on the stack; kindOther calls scorer.
	kind      scorerKind
	resources []config.ResourceSpec
}

type scorerKind int

const (
	kindOther scorerKind = iota
	kindLeastAllocated
	kindMostAllocated
	kindBalanced
)

// maxStackResources is how many scored resources fit the on-stack lists.
const maxStackResources = 8

func (r *resourceAllocationScorer) score(nodeInfo *framework.NodeInfo, podRequests []int64) (int64, *framework.Status) {
	n := len(r.resources)
	if n == 0 {
		return 0, framework.NewStatus(framework.Error, "resources not found")
	}
	// Scoring runs for every feasible node: keep its three lists off the heap.
	var buf [3 * maxStackResources]int64
	var requested, allocated, allocatable []int64
	if n <= maxStackResources {
		requested, allocated, allocatable = buf[:n:n], buf[n:2*n:2*n], buf[2*n:3*n:3*n]
	} else {
		requested, allocated, allocatable = make([]int64, n), make([]int64, n), make([]int64, n)
	}
	r.calculateNodeAllocatableRequest(nodeInfo, podRequests, requested, allocated, allocatable)
	switch r.kind {
	case kindLeastAllocated:
		return weightedScore(r.resources, requested, allocatable, leastRequestedScore), nil
	case kindMostAllocated:
		return weightedScore(r.resources, requested, allocatable, mostRequestedScore), nil
	case kindBalanced:
		return balancedResourceScorer(requested, allocated, allocatable), nil
	}
	// An arbitrary scorer may keep what it is given.
	return r.scorer(slices.Clone(requested), slices.Clone(allocated), slices.Clone(allocatable)), nil
}

// calculateNodeAllocatableRequest fills the three lists (zeroed, one entry
// per resource), leaving a resource at zeros (so scorers skip it) when the
// node has none of it, or when it is a scalar resource the pod does not
// request.
func (r *resourceAllocationScorer) calculateNodeAllocatableRequest(nodeInfo *framework.NodeInfo, podRequests, requested, allocated, allocatable []int64) {
	for i := range r.resources {
		name := api.ResourceName(r.resources[i].Name)
		if podRequests[i] == 0 && framework.IsScalarResourceName(name) {
			continue
		}
		nodeAllocatable, nodeAllocated := r.calculateResourceAllocatableRequest(nodeInfo, name)
		if nodeAllocatable == 0 {
			continue
		}
		allocatable[i] = nodeAllocatable
		allocated[i] = nodeAllocated
		requested[i] = nodeAllocated + podRequests[i]
	}
}

// calculateResourceAllocatableRequest returns the node's allocatable and
// in-use amount of one resource. Only cpu and memory have non-zero figures;
// ephemeral storage and scalar resources always read Requested.
func (r *resourceAllocationScorer) calculateResourceAllocatableRequest(nodeInfo *framework.NodeInfo, name api.ResourceName) (int64, int64) {
	requested := nodeInfo.NonZeroRequested
	if r.useRequested {
		requested = nodeInfo.Requested
	}
	switch name {
	case api.ResourceCPU:
		return nodeInfo.Allocatable.MilliCPU, requested.MilliCPU
	case api.ResourceMemory:
		return nodeInfo.Allocatable.Memory, requested.Memory
	case api.ResourceEphemeralStorage:
		return nodeInfo.Allocatable.EphemeralStorage, nodeInfo.Requested.EphemeralStorage
	}
	if alloc, ok := nodeInfo.Allocatable.ScalarResources[name]; ok {
		return alloc, nodeInfo.Requested.ScalarResources[name]
	}
	return 0, 0
}

// podRequests are the pod's requests as the scorer sees them.
func (r *resourceAllocationScorer) podRequests(pod *api.Pod) api.Requests {
	opts := api.PodRequestsOptions{SkipPodLevelResources: !r.enablePodLevelResources}
	if !r.useRequested {
		opts.NonMissingContainerRequests = api.ResourceList{
			api.ResourceCPU:    api.NewMilliQuantity(framework.DefaultMilliCPURequest),
			api.ResourceMemory: api.NewQuantity(framework.DefaultMemoryRequest),
		}
	}
	return api.PodRequests(pod, opts)
}

// calculatePodResourceRequestList is the pod's request for each scored
// resource. The requests are summed once for all of them: PodRequests
// walks every container and does exact arithmetic.
func (r *resourceAllocationScorer) calculatePodResourceRequestList(pod *api.Pod) []int64 {
	reqs := r.podRequests(pod)
	out := make([]int64, len(r.resources))
	for i := range r.resources {
		out[i] = reqs[api.ResourceName(r.resources[i].Name)]
	}
	return out
}

// readState returns the state under key, or nil when absent.
func readState(state *framework.CycleState, key framework.StateKey) framework.StateData {
	c, err := state.Read(key)
	if err != nil {
		return nil
	}
	return c
}

// weightedScorer averages per-resource scores by weight over the resources
// the node has, truncating (LeastAllocated and MostAllocated).
func weightedScorer(resources []config.ResourceSpec, perResource func(requested, capacity int64) int64) func(requested, allocated, allocatable []int64) int64 {
	return func(requested, _, allocatable []int64) int64 {
		return weightedScore(resources, requested, allocatable, perResource)
	}
}

func weightedScore(resources []config.ResourceSpec, requested, allocatable []int64, perResource func(requested, capacity int64) int64) int64 {
	var nodeScore, weightSum int64
	for i := range requested {
		if allocatable[i] == 0 {
			continue
		}
		w := resources[i].Weight
		nodeScore += perResource(requested[i], allocatable[i]) * w
		weightSum += w
	}
	if weightSum == 0 {
		return 0
	}
	return nodeScore / weightSum
}
