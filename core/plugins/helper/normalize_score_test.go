package helper

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/framework"
)

func TestDefaultNormalizeScore(t *testing.T) {
	tests := []struct {
		name    string
		reverse bool
		scores  []int64
		want    []int64
	}{
		{name: "scaled to the maximum", scores: []int64{1, 2, 3, 4}, want: []int64{25, 50, 75, 100}},
		{name: "reversed", reverse: true, scores: []int64{1, 2, 3, 4}, want: []int64{75, 50, 25, 0}},
		{name: "integer division truncates", scores: []int64{1000, 10, 20, 30}, want: []int64{100, 1, 2, 3}},
		{name: "reversed truncation", reverse: true, scores: []int64{1000, 10, 20, 30}, want: []int64{0, 99, 98, 97}},
		{name: "all equal become max", scores: []int64{1, 1, 1, 1}, want: []int64{100, 100, 100, 100}},
		{name: "small ones drop to zero", scores: []int64{1000, 1, 1, 1}, want: []int64{100, 0, 0, 0}},
		{name: "reversed with a zero", reverse: true, scores: []int64{0, 1, 1, 1}, want: []int64{100, 0, 0, 0}},
		{name: "all zero stay zero", scores: []int64{0, 0, 0, 0}, want: []int64{0, 0, 0, 0}},
		{name: "all zero reversed become max", reverse: true, scores: []int64{0, 0, 0, 0}, want: []int64{100, 100, 100, 100}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var scores, want framework.NodeScoreList
			for _, s := range tt.scores {
				scores = append(scores, framework.NodeScore{Score: s})
			}
			for _, s := range tt.want {
				want = append(want, framework.NodeScore{Score: s})
			}
			if st := DefaultNormalizeScore(framework.MaxNodeScore, tt.reverse, scores); !st.IsSuccess() {
				t.Fatalf("unexpected status %v", st)
			}
			if diff := cmp.Diff(want, scores); diff != "" {
				t.Errorf("scores (-want +got):\n%s", diff)
			}
		})
	}
}
