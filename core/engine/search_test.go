package engine

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/framework/runtime"
	"github.com/schedplay/schedplay/core/internal/st"
	"github.com/schedplay/schedplay/core/scenario"
	"github.com/schedplay/schedplay/core/scheduler"
)

// The partial node search (at least 100 nodes) stops on the feasible node
// after the ones it wants and does not keep it: the nodes rejected before
// that node were processed and move the next cycle's start, as upstream's
// findNodesThatPassFilters run with one worker.
func TestPartialSearchStopRule(t *testing.T) {
	type cycle struct{ start, evaluated, feasible int }
	tests := []struct {
		name       string
		nodes      int
		small      func(i int) bool // nodes too small for the pod
		percentage int32
		cycles     []cycle
	}{
		{
			name: "rejections after the 100th feasible node count as processed",
			// 0-99 fit, 100-109 do not, 110-199 fit: the 101st feasible
			// node is node-110, so the next search starts there.
			nodes: 200, small: func(i int) bool { return i >= 100 && i < 110 }, percentage: 50,
			cycles: []cycle{{0, 110, 100}, {110, 100, 100}, {10, 110, 100}},
		},
		{
			name:  "the search wraps and stops before the start when every node fits",
			nodes: 150, small: func(int) bool { return false }, percentage: 0,
			cycles: []cycle{{0, 100, 100}, {100, 100, 100}, {50, 100, 100}},
		},
		{
			name: "no further feasible node: every node is processed",
			// adaptive at 120 nodes wants 100; only 100 fit, the rest are rejected.
			nodes: 120, small: func(i int) bool { return i%6 == 5 }, percentage: 0,
			cycles: []cycle{{0, 120, 100}, {0, 120, 100}},
		},
		{
			name:  "at 100% the search is complete",
			nodes: 101, small: func(i int) bool { return i == 3 }, percentage: 100,
			cycles: []cycle{{0, 101, 100}, {0, 101, 100}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod, c, fwk := searchCluster(t, tt.nodes, tt.small)
			s := &scheduler.Scheduler{Framework: fwk, PercentageOfNodesToScore: tt.percentage}
			for i, want := range tt.cycles {
				res, err := s.SchedulePod(scheduler.Cycle{}, framework.NewCycleState(), pod, c.Snapshot)
				if err != nil {
					t.Fatalf("cycle %d: %v", i, err)
				}
				got := cycle{res.SearchStart, res.EvaluatedNodes, res.FeasibleNodes}
				if got != want {
					t.Errorf("cycle %d: (start, evaluated, feasible) = %v, want %v", i, got, want)
				}
			}
		})
	}
}

// Explain filters every node and reports the part of the cluster a real
// cycle's search would cover from a given start.
func TestExplainSearch(t *testing.T) {
	tests := []struct {
		name              string
		nodes             int
		start             int
		want              *scheduler.SearchExplanation // NotEvaluated checked by length and first node
		notEvaluated      int
		firstNotEvaluated string
	}{
		{name: "from the first node", nodes: 200, start: 0,
			want:         &scheduler.SearchExplanation{Nodes: 200, Want: 100, Start: "node-000", Evaluated: 110, Feasible: 100, StoppedOn: "node-110"},
			notEvaluated: 89, firstNotEvaluated: "node-111"},
		{name: "from where the last cycle stopped", nodes: 200, start: 110,
			want:         &scheduler.SearchExplanation{Nodes: 200, Want: 100, Start: "node-110", Evaluated: 100, Feasible: 100, StoppedOn: "node-010"},
			notEvaluated: 99, firstNotEvaluated: "node-011"},
		{name: "under 100 nodes every node is searched", nodes: 99, start: 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod, c, fwk := searchCluster(t, tt.nodes, func(i int) bool { return i >= 100 && i < 110 })
			ex, err := scheduler.Explain(fwk, pod, c.Snapshot, scheduler.Search{Start: tt.start})
			if err != nil {
				t.Fatal(err)
			}
			got := ex.Search
			if tt.want == nil {
				if got != nil {
					t.Fatalf("Search = %+v, want none", got)
				}
				return
			}
			if got == nil {
				t.Fatal("Search is missing")
			}
			if len(got.NotEvaluated) != tt.notEvaluated || got.NotEvaluated[0] != tt.firstNotEvaluated {
				t.Errorf("not evaluated: %d starting %s, want %d starting %s", len(got.NotEvaluated), got.NotEvaluated[0], tt.notEvaluated, tt.firstNotEvaluated)
			}
			// Every feasible node is empty and scores the same: any of
			// them could be the best of the ones a parallel search finds.
			if len(got.CouldTake) != tt.nodes-10 {
				t.Errorf("could take %d nodes, want every feasible one (%d)", len(got.CouldTake), tt.nodes-10)
			}
			g := *got
			g.NotEvaluated, g.CouldTake = nil, nil
			if diff := cmp.Diff(tt.want, &g); diff != "" {
				t.Errorf("Search (-want +got):\n%s", diff)
			}
		})
	}
}

// searchCluster builds n 4-cpu nodes, those small reports as 1-cpu ones,
// and a 2-cpu pod that fits only the big nodes.
func searchCluster(t *testing.T, n int, small func(i int) bool) (*api.Pod, *ClusterAt, *runtime.Framework) {
	t.Helper()
	sc := &scenario.Scenario{Config: config.Default(), T0: scenario.DefaultT0}
	for i := range n {
		cpu := "4"
		if small(i) {
			cpu = "1"
		}
		sc.Nodes = append(sc.Nodes, st.MakeNode().Name(fmt.Sprintf("node-%03d", i)).
			Capacity(map[string]string{"cpu": cpu, "memory": "8Gi", "pods": "110"}).Obj())
	}
	c := BuildCluster(sc, nil)
	fwk, err := NewFramework(&sc.Config.Profiles[0], c)
	if err != nil {
		t.Fatal(err)
	}
	return st.MakePod().Name("p").Req(map[string]string{"cpu": "2"}).Obj(), c, fwk
}
