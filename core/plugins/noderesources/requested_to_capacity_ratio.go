package noderesources

import (
	"math"

	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/plugins/helper"
)

const (
	maxUtilization = 100
	// maxCustomPriorityScore is the top of a shape point's score range.
	maxCustomPriorityScore = 10
)

// requestedToCapacityRatioScorer maps each resource's utilization percent
// through the configured shape, whose 0..10 scores are scaled to 0..100.
func requestedToCapacityRatioScorer(resources []config.ResourceSpec, shape []config.UtilizationShapePoint) func(requested, allocated, allocatable []int64) int64 {
	points := make(helper.FunctionShape, 0, len(shape))
	for _, p := range shape {
		points = append(points, helper.FunctionShapePoint{
			Utilization: int64(p.Utilization),
			Score:       int64(p.Score) * (framework.MaxNodeScore / maxCustomPriorityScore),
		})
	}
	raw := helper.BuildBrokenLinearFunction(points)
	resourceScore := func(requested, capacity int64) int64 {
		if capacity == 0 || requested > capacity {
			return raw(maxUtilization)
		}
		return raw(mulDiv(requested, maxUtilization, capacity))
	}
	return func(requested, _, allocatable []int64) int64 {
		var nodeScore, weightSum int64
		for i := range requested {
			if allocatable[i] == 0 {
				continue
			}
			// Unlike the other strategies, a resource scoring 0 drops out of
			// the average entirely, weight included.
			if s := resourceScore(requested[i], allocatable[i]); s > 0 {
				nodeScore += s * resources[i].Weight
				weightSum += resources[i].Weight
			}
		}
		if weightSum == 0 {
			return 0
		}
		return int64(math.Round(float64(nodeScore) / float64(weightSum)))
	}
}
