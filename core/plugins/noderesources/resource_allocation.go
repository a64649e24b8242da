package noderesources

import (
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
	"math"
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
	// classes[i] says where resources[i] is read from; set by classify, so
	// that scoring a node does not compare resource names.
	classes []resourceClass
	// twoFixed: exactly two resources, each held in a Resource field (cpu,
	// memory or ephemeral storage), as in the default configuration; such
	// nodes are scored on locals, without the lists.
	twoFixed bool
	// memo holds, per node position in its snapshot (NodeInfo.Index), the
	// last twoFixed score scoreNodes computed and the figures it came from;
	// see twoFixedMemo.
	memo []twoFixedMemo
}

// twoFixedMemo is one node's last twoFixed score and every figure it was
// computed from: the node's allocatable and in-use amount of both
// resources and the pod's request. A twoFixed score is a function of
// these six numbers alone (the scorer's kind and weights are fixed), so a
// memo whose figures all equal the node's and the pod's gives the score
// the arithmetic would, whatever changed in between (pods bound or
// removed, a node replaced, a rebuilt snapshot reusing positions, a clone)
// and without trusting that every writer moved NodeInfo.Generation.
// Consecutive cycles score the same nodes for pods with the same requests
// (replicas), and a node that got no pod in between is scored again for
// the price of these comparisons: in WebAssembly the arithmetic's calls
// and divisions cost several times more than natively.
type twoFixedMemo struct {
	alloc0, used0, alloc1, used1, req0, req1 int64
	score                                    int64
	set                                      bool
}

// resourceClass is where a scored resource's figures live in a NodeInfo.
type resourceClass uint8

const (
	// classOther is read from the scalar maps, like a non-scalar name no
	// Resource field holds (it finds nothing there).
	classOther resourceClass = iota
	classCPU
	classMemory
	classEphemeralStorage
	// classScalar is read from the scalar maps and counts only when the
	// pod requests it.
	classScalar
)

// classify fills r.classes from r.resources; constructors call it once.
func (r *resourceAllocationScorer) classify() {
	r.classes = make([]resourceClass, len(r.resources))
	for i, res := range r.resources {
		switch name := api.ResourceName(res.Name); {
		case name == api.ResourceCPU:
			r.classes[i] = classCPU
		case name == api.ResourceMemory:
			r.classes[i] = classMemory
		case name == api.ResourceEphemeralStorage:
			r.classes[i] = classEphemeralStorage
		case framework.IsScalarResourceName(name):
			r.classes[i] = classScalar
		default:
			r.classes[i] = classOther
		}
	}
	fixed := func(c resourceClass) bool { return c == classCPU || c == classMemory || c == classEphemeralStorage }
	r.twoFixed = len(r.classes) == 2 && fixed(r.classes[0]) && fixed(r.classes[1])
}

// fixedFigures returns a node's allocatable and in-use amount of a resource
// of class cpu, memory or ephemeral storage, as
// calculateNodeAllocatableRequest reads them.
func (r *resourceAllocationScorer) fixedFigures(nodeInfo *framework.NodeInfo, class resourceClass) (allocatable, inUse int64) {
	switch class {
	case classCPU:
		if r.useRequested {
			return nodeInfo.Allocatable.MilliCPU, nodeInfo.Requested.MilliCPU
		}
		return nodeInfo.Allocatable.MilliCPU, nodeInfo.NonZeroRequested.MilliCPU
	case classMemory:
		if r.useRequested {
			return nodeInfo.Allocatable.Memory, nodeInfo.Requested.Memory
		}
		return nodeInfo.Allocatable.Memory, nodeInfo.NonZeroRequested.Memory
	default:
		return nodeInfo.Allocatable.EphemeralStorage, nodeInfo.Requested.EphemeralStorage
	}
}

// twoFixedScore is builtinScore for r.twoFixed on locals. It does the same
// arithmetic in the same order as the list-based scorers, so the result is
// the same to the bit.
func (r *resourceAllocationScorer) twoFixedScore(nodeInfo *framework.NodeInfo, podRequests []int64) int64 {
	alloc0, used0 := r.fixedFigures(nodeInfo, r.classes[0])
	alloc1, used1 := r.fixedFigures(nodeInfo, r.classes[1])
	return r.twoFixedScoreOf(alloc0, used0, alloc1, used1, podRequests[0], podRequests[1])
}

// twoFixedScoreOf is twoFixedScore from a node's allocatable and in-use
// amounts of the two resources (as fixedFigures returns them) and the
// pod's requests.
func (r *resourceAllocationScorer) twoFixedScoreOf(alloc0, used0, alloc1, used1, podReq0, podReq1 int64) int64 {
	if alloc0 == 0 {
		used0 = 0 // calculateNodeAllocatableRequest leaves the resource at zeros
	}
	if alloc1 == 0 {
		used1 = 0
	}
	req0, req1 := used0+podReq0, used1+podReq1
	// The per-resource scorers are called directly (not through a func
	// value) so that they inline; both score a zero capacity 0, and
	// weightedScore2 leaves such a resource out.
	switch r.kind {
	case kindLeastAllocated:
		return r.weightedScore2(alloc0 != 0, leastRequestedScore(req0, alloc0), alloc1 != 0, leastRequestedScore(req1, alloc1))
	case kindMostAllocated:
		return r.weightedScore2(alloc0 != 0, mostRequestedScore(req0, alloc0), alloc1 != 0, mostRequestedScore(req1, alloc1))
	default:
		withPod := balancedResourceScore2(req0, alloc0, req1, alloc1)
		withoutPod := balancedResourceScore2(used0, alloc0, used1, alloc1)
		return framework.MaxNodeScore/2 + (framework.MaxNodeScore/2+withPod-withoutPod)/2
	}
}

// weightedScore2 is weightedScore over two resources, given whether the
// node has each and its score.
func (r *resourceAllocationScorer) weightedScore2(has0 bool, score0 int64, has1 bool, score1 int64) int64 {
	var nodeScore, weightSum int64
	if has0 {
		w := r.resources[0].Weight
		nodeScore += score0 * w
		weightSum += w
	}
	if has1 {
		w := r.resources[1].Weight
		nodeScore += score1 * w
		weightSum += w
	}
	if weightSum == 0 {
		return 0
	}
	return quo(nodeScore, weightSum)
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
	if r.kind != kindOther && r.twoFixed {
		return r.twoFixedScore(nodeInfo, podRequests), nil
	}
	if r.kind != kindOther && n <= maxStackResources {
		return r.builtinScore(nodeInfo, podRequests), nil
	}
	requested, allocated, allocatable := make([]int64, n), make([]int64, n), make([]int64, n)
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
	return r.scorer(requested, allocated, allocatable), nil
}

// scoreNodes is score for every node, written to scores: the batch path of
// Fit's and BalancedAllocation's ScoreNodes.
func (r *resourceAllocationScorer) scoreNodes(nodes []*framework.NodeInfo, podRequests []int64, scores framework.NodeScoreList) *framework.Status {
	if r.kind != kindOther && r.twoFixed {
		r.memoScoreNodes(nodes, podRequests[0], podRequests[1], scores)
		return nil
	}
	if r.kind != kindOther && len(r.resources) > 0 && len(r.resources) <= maxStackResources {
		for i, ni := range nodes {
			scores[i].Score = r.builtinScore(ni, podRequests)
		}
		return nil
	}
	for i, ni := range nodes {
		s, st := r.score(ni, podRequests)
		if !st.IsSuccess() {
			return st
		}
		scores[i].Score = s
	}
	return nil
}

// memoScoreNodes is twoFixedScore for every node, taking the score from
// the node's memo when the figures it was computed from are the node's
// and the pod's now (twoFixedMemo), and otherwise computing and keeping
// it. A node outside a snapshot (Index -1) is computed every time.
func (r *resourceAllocationScorer) memoScoreNodes(nodes []*framework.NodeInfo, req0, req1 int64, scores framework.NodeScoreList) {
	class0, class1 := r.classes[0], r.classes[1]
	for i, ni := range nodes {
		alloc0, used0 := r.fixedFigures(ni, class0)
		alloc1, used1 := r.fixedFigures(ni, class1)
		k := ni.Index()
		if k < 0 {
			scores[i].Score = r.twoFixedScoreOf(alloc0, used0, alloc1, used1, req0, req1)
			continue
		}
		if k >= len(r.memo) {
			// Doubling: the first cycles meet the positions nearly in order.
			r.memo = append(r.memo, make([]twoFixedMemo, max(k+1, 2*len(r.memo))-len(r.memo))...)
		}
		m := &r.memo[k]
		if m.set && m.alloc0 == alloc0 && m.used0 == used0 && m.alloc1 == alloc1 && m.used1 == used1 && m.req0 == req0 && m.req1 == req1 {
			scores[i].Score = m.score
			continue
		}
		s := r.twoFixedScoreOf(alloc0, used0, alloc1, used1, req0, req1)
		*m = twoFixedMemo{alloc0: alloc0, used0: used0, alloc1: alloc1, used1: used1, req0: req0, req1: req1, score: s, set: true}
		scores[i].Score = s
	}
}

// builtinScore scores with a built-in scorer (r.kind != kindOther) and at
// most maxStackResources resources. Scoring runs for every feasible node, so
// its three lists stay on the stack.
func (r *resourceAllocationScorer) builtinScore(nodeInfo *framework.NodeInfo, podRequests []int64) int64 {
	n := len(r.resources)
	var buf [3 * maxStackResources]int64
	requested, allocated, allocatable := buf[:n:n], buf[n:2*n:2*n], buf[2*n:3*n:3*n]
	r.calculateNodeAllocatableRequest(nodeInfo, podRequests, requested, allocated, allocatable)
	switch r.kind {
	case kindLeastAllocated:
		return weightedScore(r.resources, requested, allocatable, leastRequestedScore)
	case kindMostAllocated:
		return weightedScore(r.resources, requested, allocatable, mostRequestedScore)
	default:
		return balancedResourceScorer(requested, allocated, allocatable)
	}
}

// calculateNodeAllocatableRequest fills the three lists (zeroed, one entry
// per resource), leaving a resource at zeros (so scorers skip it) when the
// node has none of it, or when it is a scalar resource the pod does not
// request. Only cpu and memory read the non-zero figures (unless
// useRequested); ephemeral storage and scalar resources always read
// Requested.
func (r *resourceAllocationScorer) calculateNodeAllocatableRequest(nodeInfo *framework.NodeInfo, podRequests, requested, allocated, allocatable []int64) {
	inUse := &nodeInfo.NonZeroRequested
	if r.useRequested {
		inUse = &nodeInfo.Requested
	}
	for i, class := range r.classes {
		var nodeAllocatable, nodeAllocated int64
		switch class {
		case classCPU:
			nodeAllocatable, nodeAllocated = nodeInfo.Allocatable.MilliCPU, inUse.MilliCPU
		case classMemory:
			nodeAllocatable, nodeAllocated = nodeInfo.Allocatable.Memory, inUse.Memory
		case classEphemeralStorage:
			nodeAllocatable, nodeAllocated = nodeInfo.Allocatable.EphemeralStorage, nodeInfo.Requested.EphemeralStorage
		default:
			if class == classScalar && podRequests[i] == 0 {
				continue
			}
			name := api.ResourceName(r.resources[i].Name)
			alloc, ok := nodeInfo.Allocatable.ScalarResources[name]
			if !ok {
				continue
			}
			nodeAllocatable, nodeAllocated = alloc, nodeInfo.Requested.ScalarResources[name]
		}
		if nodeAllocatable == 0 {
			continue
		}
		allocatable[i] = nodeAllocatable
		allocated[i] = nodeAllocated
		requested[i] = nodeAllocated + podRequests[i]
		if requested[i] < nodeAllocated {
			requested[i] = math.MaxInt64 // saturated, as the node's own sums (framework.NodeInfo)
		}
	}
}

// podRequestOptions are the options the scorer sums the pod's requests
// with.
func (r *resourceAllocationScorer) podRequestOptions(pod *api.Pod) api.PodRequestsOptions {
	opts := api.PodRequestsOptions{SkipPodLevelResources: !r.enablePodLevelResources}
	// The stand-ins change nothing when every container names cpu and
	// memory, and building them costs a map per call.
	if !r.useRequested && !api.ContainersRequestCPUAndMemory(pod) {
		opts.NonMissingContainerRequests = api.ResourceList{
			api.ResourceCPU:    api.NewMilliQuantity(framework.DefaultMilliCPURequest),
			api.ResourceMemory: api.NewQuantity(framework.DefaultMemoryRequest),
		}
	}
	return opts
}

// calculatePodResourceRequestList is the pod's request for each scored
// resource. The requests are summed once for all of them: PodRequests
// walks every container and does exact arithmetic.
func (r *resourceAllocationScorer) calculatePodResourceRequestList(pod *api.Pod) []int64 {
	out := make([]int64, len(r.resources))
	api.VisitPodRequests(pod, r.podRequestOptions(pod), func(name api.ResourceName, v int64) {
		for i := range r.resources {
			if api.ResourceName(r.resources[i].Name) == name {
				out[i] = v
			}
		}
	})
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
