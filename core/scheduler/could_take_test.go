package scheduler

import (
	"slices"
	"testing"

	"github.com/schedplay/schedplay/core/framework/runtime"
)

// A node can be the choice of a search that finds want feasible nodes
// when at most feasible-want nodes score above it.
func TestCouldTake(t *testing.T) {
	list := func(totals ...int64) []runtime.NodePluginScores {
		var out []runtime.NodePluginScores
		for i, tot := range totals {
			out = append(out, runtime.NodePluginScores{Name: string(rune('a' + i)), TotalScore: tot})
		}
		return out
	}
	tests := []struct {
		name   string
		totals []int64
		want   int
		out    []string
	}{
		{"every feasible node is found", []int64{5, 9, 1}, 3, nil},
		{"one left out: all but the lowest", []int64{5, 9, 1}, 2, []string{"a", "b"}},
		{"only one found: any node", []int64{5, 9, 1}, 1, []string{"a", "b", "c"}},
		{"equal totals at the floor all count", []int64{7, 9, 7, 1, 9}, 3, []string{"a", "b", "c", "e"}},
		{"two of five found: the best four", []int64{7, 9, 7, 1, 9}, 2, []string{"a", "b", "c", "e"}},
		{"four of five found: the best two", []int64{7, 9, 7, 1, 9}, 4, []string{"b", "e"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := couldTake(list(tt.totals...), tt.want); !slices.Equal(got, tt.out) {
				t.Errorf("couldTake = %v, want %v", got, tt.out)
			}
		})
	}
}
