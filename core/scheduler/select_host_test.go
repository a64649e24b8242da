package scheduler

import (
	"container/heap"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedplay/schedplay/core/framework/runtime"
)

// recordHeap is the heap of whole score records SelectHost used to build;
// the index heap must pick the same node among equal totals.
type recordHeap []runtime.NodePluginScores

func (h recordHeap) Len() int           { return len(h) }
func (h recordHeap) Less(i, j int) bool { return h[i].TotalScore > h[j].TotalScore }
func (h recordHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *recordHeap) Push(x any)        { *h = append(*h, x.(runtime.NodePluginScores)) }
func (h *recordHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func TestSelectHostMatchesRecordHeap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var shared nodeScoreHeap // reused across cases of different sizes
	for _, tc := range []struct {
		name     string
		n        int
		distinct int64
	}{
		{name: "one node", n: 1, distinct: 1},
		{name: "all tied", n: 37, distinct: 1},
		{name: "few totals", n: 100, distinct: 3},
		{name: "many totals", n: 500, distinct: 50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for round := 0; round < 50; round++ {
				scores := make([]runtime.NodePluginScores, tc.n)
				for i := range scores {
					scores[i] = runtime.NodePluginScores{Name: fmt.Sprintf("node-%d", i), TotalScore: rng.Int64N(tc.distinct)}
				}
				h := recordHeap(append([]runtime.NodePluginScores(nil), scores...))
				heap.Init(&h)
				want := heap.Pop(&h).(runtime.NodePluginScores).Name
				if got := SelectHost(scores); got != want {
					t.Fatalf("round %d: SelectHost = %s, want %s", round, got, want)
				}
				// The scheduler's reused heap storage must not change the pick.
				totals := make([]int64, len(scores))
				for i := range scores {
					totals[i] = scores[i].TotalScore
				}
				if got := scores[selectHostIndex(totals, &shared)].Name; got != want {
					t.Fatalf("round %d: selectHost with reused storage = %s, want %s", round, got, want)
				}
			}
		})
	}
}
