package noderesources

import (
	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
)

// leastResourceScorer favours nodes with more room left: per resource
// (capacity-requested)*100/capacity, weighted and averaged.
func leastResourceScorer(resources []config.ResourceSpec) func(requested, allocated, allocatable []int64) int64 {
	return weightedScorer(resources, leastRequestedScore)
}

// leastRequestedScore is 0 for an overcommitted resource.
func leastRequestedScore(requested, capacity int64) int64 {
	if capacity == 0 || requested > capacity {
		return 0
	}
	return (capacity - requested) * framework.MaxNodeScore / capacity
}
