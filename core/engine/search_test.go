package engine

import (
	"fmt"
	"os"
	"slices"
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
			// Every node found ties: the heap takes the first one found.
			if got.Taken != got.Start || len(got.Found) != int(got.Want) || len(got.Selected) != len(got.Found) {
				t.Errorf("takes %s of %d found (%d tied), want %s of %d, all tied", got.Taken, len(got.Found), len(got.Selected), got.Start, got.Want)
			}
			g := *got
			g.NotEvaluated, g.CouldTake, g.Found, g.Selected, g.Score, g.Taken = nil, nil, nil, nil, 0, ""
			if diff := cmp.Diff(tt.want, &g); diff != "" {
				t.Errorf("Search (-want +got):\n%s", diff)
			}
		})
	}
}

// Explain's search says what the real cycle takes: the best of the nodes
// its search keeps, scored among themselves, which is the node SchedulePod
// binds the pod to from the same start, while Explain's own Selected stays
// the best over every feasible node.
func TestExplainSearchTakesWhatTheCycleTakes(t *testing.T) {
	// 200 nodes: 0-149 have 4 cpu, 150-199 have 16 (emptier after the
	// 2-cpu pod, so they score higher); the search from node-000 keeps
	// the first 100 feasible ones and never reaches the big nodes.
	cpu := func(i int) string {
		if i >= 150 {
			return "16"
		}
		return "4"
	}
	// From node-000 the search keeps node-000 to node-099 and misses every
	// big node; that search stops on node-100, where the next one starts
	// and keeps node-100 to node-199, the big nodes among them.
	for _, start := range []int{0, 100} {
		t.Run(fmt.Sprintf("from %d", start), func(t *testing.T) {
			pod, c, fwk := cpuCluster(t, 200, cpu)
			ex, err := scheduler.Explain(fwk, pod, c.Snapshot, scheduler.Search{Start: start})
			if err != nil {
				t.Fatal(err)
			}
			s := ex.Search
			if s == nil {
				t.Fatal("Search is missing")
			}
			for _, n := range ex.Selected {
				if n < "node-150" {
					t.Errorf("Selected %v: want only big nodes, the best over every feasible node", ex.Selected)
				}
			}
			sched := &scheduler.Scheduler{Framework: fwk}
			if start > 0 {
				if _, err := sched.SchedulePod(scheduler.Cycle{}, framework.NewCycleState(), pod, c.Snapshot); err != nil {
					t.Fatal(err)
				}
			}
			if got := sched.Search().Start; got != start {
				t.Fatalf("the cycle starts at %d, want %d", got, start)
			}
			res, err := sched.SchedulePod(scheduler.Cycle{}, framework.NewCycleState(), pod, c.Snapshot)
			if err != nil {
				t.Fatal(err)
			}
			if s.Taken != res.SuggestedHost || s.Score != res.TopScore || len(s.Found) != res.FeasibleNodes {
				t.Errorf("search takes %s (total %d, %d found), the cycle %s (total %d, %d found)",
					s.Taken, s.Score, len(s.Found), res.SuggestedHost, res.TopScore, res.FeasibleNodes)
			}
			first, last := fmt.Sprintf("node-%03d", start), fmt.Sprintf("node-%03d", start+99)
			if len(s.Found) != 100 || s.Found[0] != first || s.Found[99] != last {
				t.Errorf("found %d nodes, %s to %s; want %s to %s", len(s.Found), s.Found[0], s.Found[len(s.Found)-1], first, last)
			}
			big := s.Taken >= "node-150"
			if big != (start == 100) {
				t.Errorf("from %d the cycle takes %s", start, s.Taken)
			}
			for _, n := range s.Selected {
				if n < first || n > last {
					t.Errorf("search selects %s, which it did not keep", n)
				}
			}
		})
	}
}

// searchCluster builds n 4-cpu nodes, those small reports as 1-cpu ones,
// and a 2-cpu pod that fits only the big nodes.
func searchCluster(t *testing.T, n int, small func(i int) bool) (*api.Pod, *ClusterAt, *runtime.Framework) {
	return cpuCluster(t, n, func(i int) string {
		if small(i) {
			return "1"
		}
		return "4"
	})
}

// cpuCluster builds n nodes with cpu(i) cpus each and a 2-cpu pod.
func cpuCluster(t *testing.T, n int, cpu func(i int) string) (*api.Pod, *ClusterAt, *runtime.Framework) {
	t.Helper()
	sc := &scenario.Scenario{Config: config.Default(), T0: scenario.DefaultT0}
	for i := range n {
		cpu := cpu(i)
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

// In a run, the explanation of each cycle (replayed at its own start
// index) takes the node the cycle bound the pod to, where the best over
// every feasible node can be elsewhere: web-1 of the example goes to
// node-050 while node-110, which its search never reaches, scores best.
func TestExplainedCyclesTakeTheBoundNode(t *testing.T) {
	src, err := os.ReadFile("../../examples/partial-node-search.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Load("partial-node-search.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	sim, err := Simulate(sc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	missed := 0
	for _, e := range sim.Trace() {
		if e.Kind != EvScheduled {
			continue
		}
		a, err := sim.ExplainAt(e.Pod, e.Seq)
		if err != nil {
			t.Fatal(err)
		}
		s := a.Explanation.Search
		if s == nil {
			t.Fatalf("%s: no partial search explained", e.Pod)
		}
		if s.Taken != e.Node {
			t.Errorf("%s: explain's search takes %s, the run bound it to %s", e.Pod, s.Taken, e.Node)
		}
		if !slices.Contains(a.Explanation.Selected, e.Node) {
			missed++
		}
	}
	if missed == 0 {
		t.Error("every pod went to the best node over all: the example no longer shows a node the search misses")
	}
}
