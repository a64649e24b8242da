package volumebinding

import (
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
)

// PreScore skips: upstream scores only with the StorageCapacityScoring
// feature (alpha, off in v1.36), and without it the scorer is nil.
func (pl *VolumeBinding) PreScore(state *framework.CycleState, _ *api.Pod, _ []*framework.NodeInfo) *framework.Status {
	return pl.skip.Get()
}

// Score is 0: without StorageCapacityScoring there is no scorer.
func (pl *VolumeBinding) Score(_ *framework.CycleState, _ *api.Pod, _ *framework.NodeInfo) (int64, *framework.Status) {
	return 0, nil
}

// ScoreExtensions returns nil, as upstream.
func (pl *VolumeBinding) ScoreExtensions() framework.ScoreExtensions { return nil }
