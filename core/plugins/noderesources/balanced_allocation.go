package noderesources

import (
	"fmt"
	"math"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/plugins/names"
)

// BalancedAllocationName is NodeResourcesBalancedAllocation's name.
const BalancedAllocationName = names.NodeResourcesBalancedAllocation

const balancedAllocationPreScoreStateKey framework.StateKey = "PreScore" + BalancedAllocationName

// BalancedAllocation favours nodes whose resource usage the pod evens out.
type BalancedAllocation struct {
	resourceAllocationScorer
	skip framework.SkipStatus // handed out for every Skip
}

var (
	_ framework.PreScorePlugin   = (*BalancedAllocation)(nil)
	_ framework.ScorePlugin      = (*BalancedAllocation)(nil)
	_ framework.BatchScorePlugin = (*BalancedAllocation)(nil)
)

// NewBalancedAllocation builds the plugin from
// *config.NodeResourcesBalancedAllocationArgs (defaulted).
func NewBalancedAllocation(args any, _ framework.Handle) (framework.Plugin, error) {
	a, ok := args.(*config.NodeResourcesBalancedAllocationArgs)
	if !ok {
		return nil, fmt.Errorf("want args to be of type NodeResourcesBalancedAllocationArgs, got %T", args)
	}
	if err := ValidateNodeResourcesBalancedAllocationArgs(a); err != nil {
		return nil, err
	}
	pl := &BalancedAllocation{resourceAllocationScorer: resourceAllocationScorer{
		name:                    BalancedAllocationName,
		useRequested:            true,
		enablePodLevelResources: true,
		scorer:                  balancedResourceScorer,
		kind:                    kindBalanced,
		resources:               a.Resources,
	}}
	pl.classify()
	return pl, nil
}

// Name returns the plugin's name.
func (pl *BalancedAllocation) Name() string { return BalancedAllocationName }

type balancedAllocationPreScoreState struct {
	podRequests []int64
}

// Clone shares the state: nothing changes it after PreScore.
func (s *balancedAllocationPreScoreState) Clone() framework.StateData { return s }

// PreScore records the pod's plain requests (no non-zero defaults) and skips
// scoring for a pod that requests none of the configured resources.
func (pl *BalancedAllocation) PreScore(state *framework.CycleState, pod *api.Pod, _ []*framework.NodeInfo) *framework.Status {
	podRequests := pl.calculatePodResourceRequestList(pod)
	if isBestEffort(podRequests) {
		return pl.skip.Get()
	}
	state.Write(balancedAllocationPreScoreStateKey, &balancedAllocationPreScoreState{podRequests: podRequests})
	return nil
}

// Score rates how balanced the node's usage is with the pod, relative to
// without it.
func (pl *BalancedAllocation) Score(state *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) (int64, *framework.Status) {
	s, ok := readState(state, balancedAllocationPreScoreStateKey).(*balancedAllocationPreScoreState)
	if !ok {
		s = &balancedAllocationPreScoreState{podRequests: pl.calculatePodResourceRequestList(pod)}
		if isBestEffort(s.podRequests) {
			return 0, nil
		}
	}
	return pl.score(nodeInfo, s.podRequests)
}

// ScoreNodes is Score for every node, reading the state once.
func (pl *BalancedAllocation) ScoreNodes(state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo, scores framework.NodeScoreList) *framework.Status {
	s, ok := readState(state, balancedAllocationPreScoreStateKey).(*balancedAllocationPreScoreState)
	if !ok {
		s = &balancedAllocationPreScoreState{podRequests: pl.calculatePodResourceRequestList(pod)}
		if isBestEffort(s.podRequests) {
			for i := range nodes {
				scores[i].Score = 0
			}
			return nil
		}
	}
	return pl.scoreNodes(nodes, s.podRequests, scores)
}

// ScoreExtensions returns nil: scores are already in 0..MaxNodeScore.
func (pl *BalancedAllocation) ScoreExtensions() framework.ScoreExtensions { return nil }

func isBestEffort(podRequests []int64) bool {
	for _, r := range podRequests {
		if r != 0 {
			return false
		}
	}
	return true
}

// balancedResourceScorer centres on 50 and moves by half the change in
// balance the pod brings: 50 + (50 + withPod - withoutPod)/2, in integers.
// A node the pod leaves as balanced as before scores 75.
func balancedResourceScorer(requested, allocated, allocatable []int64) int64 {
	withPod := balancedResourceScore(requested, allocatable)
	withoutPod := balancedResourceScore(allocated, allocatable)
	return framework.MaxNodeScore/2 + (framework.MaxNodeScore/2+withPod-withoutPod)/2
}

// balancedResourceScore is (1 - std) * 100 truncated, where std is the
// population standard deviation of requested/allocatable over the resources
// the node has, each fraction capped at 1.
func balancedResourceScore(requested, allocatable []int64) int64 {
	// Room for the usual few resources on the stack; more spill to the heap.
	var buf [maxStackResources]float64
	fractions := buf[:0]
	var total float64
	for i := range requested {
		if allocatable[i] == 0 {
			continue
		}
		f := capOne(float64(requested[i]) / float64(allocatable[i]))
		total += f
		fractions = append(fractions, f)
	}
	std := 0.0
	switch {
	case len(fractions) == 2:
		// Upstream's shortcut for two resources: |a-b|/2.
		std = math.Abs((fractions[0] - fractions[1]) / 2)
	case len(fractions) > 2:
		mean := total / float64(len(fractions))
		var sum float64
		for _, f := range fractions {
			sum += (f - mean) * (f - mean)
		}
		std = math.Sqrt(sum / float64(len(fractions)))
	}
	return int64((1 - std) * float64(framework.MaxNodeScore))
}

// balancedResourceScore2 is balancedResourceScore over two resources.
func balancedResourceScore2(req0, alloc0, req1, alloc1 int64) int64 {
	std := 0.0
	if alloc0 != 0 && alloc1 != 0 {
		f0 := capOne(float64(req0) / float64(alloc0))
		f1 := capOne(float64(req1) / float64(alloc1))
		std = math.Abs((f0 - f1) / 2)
	}
	return int64((1 - std) * float64(framework.MaxNodeScore))
}

// capOne is min(f, 1) (upstream's math.Min) as a comparison: the builtin
// on floats is a runtime call in WebAssembly. It agrees on every input the
// scorer gives it, NaN included (NaN > 1 is false, so NaN comes back), and
// -0 stays -0 as with min.
func capOne(f float64) float64 {
	if f > 1 {
		return 1
	}
	return f
}

// SignPod: scores depend on the pod's effective request (upstream
// BalancedAllocation.SignPod; DRA extended resources cannot be expressed).
func (pl *BalancedAllocation) SignPod(pod *api.Pod) ([]framework.SignFragment, *framework.Status) {
	return []framework.SignFragment{{Key: framework.ResourcesSignerName, Value: computePodResourceRequest(pod).Resource}}, nil
}
