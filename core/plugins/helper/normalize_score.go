// Package helper holds small functions several plugins share, as upstream's
// framework/plugins/helper.
package helper

import "github.com/schedplay/schedplay/core/framework"

// DefaultNormalizeScore scales non-negative scores from [0, max] to
// [0, maxPriority] with integer division; reverse subtracts the result from
// maxPriority. When every score is 0 they stay 0, or all become maxPriority
// when reversed.
func DefaultNormalizeScore(maxPriority int64, reverse bool, scores framework.NodeScoreList) *framework.Status {
	var maxCount int64
	for i := range scores {
		if scores[i].Score > maxCount {
			maxCount = scores[i].Score
		}
	}
	if maxCount == 0 {
		if reverse {
			for i := range scores {
				scores[i].Score = maxPriority
			}
		}
		return nil
	}
	for i := range scores {
		s := maxPriority * scores[i].Score / maxCount
		if reverse {
			s = maxPriority - s
		}
		scores[i].Score = s
	}
	return nil
}
