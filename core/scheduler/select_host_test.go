package scheduler

import (
	"container/heap"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
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

// tiedNodes names the first MaxTiedNames tied nodes by name, in order,
// and counts them all; a node that wins outright has none.
func TestTiedNodes(t *testing.T) {
	var nodes []*framework.NodeInfo
	var totals []int64
	for i := 19; i >= 0; i-- { // names arrive in reverse order
		n := &api.Node{}
		n.Name = fmt.Sprintf("node-%02d", i)
		ni := framework.NewNodeInfo()
		ni.SetNode(n)
		nodes = append(nodes, ni)
		totals = append(totals, int64(10+i%2)) // the odd nodes score 11
	}
	names, count := tiedNodes(nodes, totals, 11)
	want := []string{"node-01", "node-03", "node-05", "node-07", "node-09", "node-11", "node-13", "node-15"}
	if count != 10 || fmt.Sprint(names) != fmt.Sprint(want) {
		t.Errorf("tiedNodes = %v, %d; want %v, 10", names, count, want)
	}
	totals[0] = 12 // node-19 alone on top
	if names, count := tiedNodes(nodes, totals, 12); names != nil || count != 1 {
		t.Errorf("a single top node: tiedNodes = %v, %d; want nil, 1", names, count)
	}
}

// tiedNodes orders a snapshot's nodes by their name ranks: the names it
// gives are those of sorting the tied names, whatever order the nodes
// come in (here the snapshot's, round robin over zones).
func TestTiedNodesInSnapshot(t *testing.T) {
	var list []*api.Node
	for i := 0; i < 60; i++ {
		n := &api.Node{}
		n.Name = fmt.Sprintf("n-%d", (i*37)%60) // not in name order, names of two lengths
		n.Labels = map[string]string{api.LabelTopologyZone: fmt.Sprintf("z%d", i%3)}
		list = append(list, n)
	}
	nodes := framework.NewSnapshot(nil, list).List()
	for _, top := range []int64{0, 1, 2} {
		totals := make([]int64, len(nodes))
		wantCount := 0
		for i, ni := range nodes {
			totals[i] = int64(len(ni.Node().Name)+i) % 3
			if totals[i] == top {
				wantCount++
			}
		}
		names, count := tiedNodes(nodes, totals, top)
		want := tiedByName(nodes, totals, top)
		if count != wantCount || fmt.Sprint(names) != fmt.Sprint(want) || len(want) != MaxTiedNames {
			t.Errorf("top %d: tiedNodes = %v, %d; want %v, %d", top, names, count, want, wantCount)
		}
	}
}

// A tied node outside the snapshot (no name rank) among ranked ones: the
// names come from sorting, and count every tied node.
func TestTiedNodesMixedRanks(t *testing.T) {
	var list []*api.Node
	for i := 0; i < 12; i++ {
		n := &api.Node{}
		n.Name = fmt.Sprintf("n-%02d", 11-i)
		list = append(list, n)
	}
	nodes := framework.NewSnapshot(nil, list).List()
	outside := framework.NewNodeInfo()
	outside.SetNode(&api.Node{ObjectMeta: api.ObjectMeta{Name: "n-00a"}})
	nodes = append(nodes, outside)
	totals := make([]int64, len(nodes))
	names, count := tiedNodes(nodes, totals, 0)
	want := []string{"n-00", "n-00a", "n-01", "n-02", "n-03", "n-04", "n-05", "n-06"}
	if count != len(nodes) || fmt.Sprint(names) != fmt.Sprint(want) {
		t.Errorf("tiedNodes = %v, %d; want %v, %d", names, count, want, len(nodes))
	}
}
