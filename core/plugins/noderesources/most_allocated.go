package noderesources

import (
	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
)

// mostResourceScorer favours fuller nodes (bin packing): per resource
// requested*100/capacity, weighted and averaged.
func mostResourceScorer(resources []config.ResourceSpec) func(requested, allocated, allocatable []int64) int64 {
	return weightedScorer(resources, mostRequestedScore)
}

// mostRequestedScore caps an overcommitted resource at full.
func mostRequestedScore(requested, capacity int64) int64 {
	if capacity == 0 {
		return 0
	}
	requested = min(requested, capacity)
	return mulDiv(requested, framework.MaxNodeScore, capacity)
}
