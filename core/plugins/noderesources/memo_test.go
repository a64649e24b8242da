package noderesources

import (
	"fmt"
	"testing"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

// memoScorers are the twoFixed scorers whose ScoreNodes goes through the
// memo: the default LeastAllocated and BalancedAllocation, MostAllocated,
// and a pair read from Requested and ephemeral storage.
func memoScorers(t *testing.T) map[string]*resourceAllocationScorer {
	t.Helper()
	out := map[string]*resourceAllocationScorer{
		"balanced":         &newBalanced(t, nil).resourceAllocationScorer,
		"balanced storage": &newBalanced(t, specs("ephemeral-storage", 1, "memory", 1)).resourceAllocationScorer,
	}
	for name, s := range map[string]*config.ScoringStrategy{
		"least":         {Type: config.LeastAllocated, Resources: specs("cpu", 1, "memory", 1)},
		"most weighted": {Type: config.MostAllocated, Resources: specs("cpu", 5, "ephemeral-storage", 2)},
	} {
		a := defaultFitArgs()
		a.ScoringStrategy = s
		out["fit "+name] = newFit(t, a).resourceAllocationScorer
	}
	for name, r := range out {
		if !r.twoFixed || r.kind == kindOther {
			t.Fatalf("%s does not score on the memo path", name)
		}
	}
	return out
}

// memoMismatches scores nodes through the memo (scoreNodes) and without
// it (twoFixedScore) and describes every node where the two differ.
func memoMismatches(r *resourceAllocationScorer, nodes []*framework.NodeInfo, req []int64) []string {
	got := make(framework.NodeScoreList, len(nodes))
	if st := r.scoreNodes(nodes, req, got); st != nil {
		return []string{st.Message()}
	}
	var out []string
	for i, ni := range nodes {
		if want := r.twoFixedScore(ni, req); got[i].Score != want {
			out = append(out, fmt.Sprintf("%s (position %d): memo path %d, arithmetic %d", ni.Node().Name, ni.Index(), got[i].Score, want))
		}
	}
	return out
}

func memoNode(name string, cpu, mem, storage string) *api.Node {
	return st.MakeNode().Name(name).Capacity(res{"cpu": cpu, "memory": mem, "ephemeral-storage": storage}).Obj()
}

func memoPod(name, node string, r res) *api.Pod {
	return st.MakePod().Name(name).Node(node).Req(r).Obj()
}

// TestTwoFixedMemoFollowsEveryChange scores a snapshot's nodes, changes
// something a score depends on, and scores again: the memo path must give
// what the arithmetic gives for every node after every change, including
// changes that leave NodeInfo.Generation where a cache keyed by it would
// have found it (a clone, a rebuilt snapshot, a field written directly).
func TestTwoFixedMemoFollowsEveryChange(t *testing.T) {
	small := res{"cpu": "100m", "memory": "500Mi", "ephemeral-storage": "1Gi"}
	large := res{"cpu": "3", "memory": "6Gi", "ephemeral-storage": "20Gi"}
	nodes := func() []*api.Node {
		return []*api.Node{
			memoNode("n0", "4", "8Gi", "100Gi"), memoNode("n1", "32", "64Gi", "50Gi"),
			memoNode("n2", "2", "4Gi", "0"), memoNode("n3", "8", "2Gi", "10Gi"),
		}
	}
	type world struct {
		snap  *framework.Snapshot
		nodes []*framework.NodeInfo // scored, normally snap.List()
		req   res                   // the incoming pod's requests
	}
	cases := []struct {
		name   string
		change func(t *testing.T, w *world)
	}{
		{"nothing changed", func(*testing.T, *world) {}},
		{"a pod bound", func(t *testing.T, w *world) {
			must(t, w.snap.AddPod(memoPod("p1", "n1", large)))
		}},
		{"a pod bound and another removed: the same figures two generations on", func(t *testing.T, w *world) {
			must(t, w.snap.AddPod(memoPod("p2", "n0", small)))
			must(t, w.snap.RemovePod(memoPod("p0", "n0", small)))
		}},
		{"a bound pod's requests updated", func(t *testing.T, w *world) {
			must(t, w.snap.UpdatePod(memoPod("p0", "n0", small), memoPod("p0", "n0", large)))
		}},
		{"a node replaced with more allocatable", func(t *testing.T, w *world) {
			ni, err := w.snap.Get("n3")
			must(t, err)
			ni.SetNode(memoNode("n3", "16", "32Gi", "10Gi"))
		}},
		{"the incoming pod asks for more", func(_ *testing.T, w *world) { w.req = large }},
		{"the incoming pod asks for cpu only", func(_ *testing.T, w *world) { w.req = res{"cpu": "1"} }},
		{"a rebuilt snapshot reusing the positions", func(_ *testing.T, w *world) {
			w.snap = framework.NewSnapshot([]*api.Pod{memoPod("q", "n2", large), memoPod("q2", "n0", large)}, nodes())
			w.nodes = w.snap.List()
		}},
		{"a clone with a pod removed (same position, same generation step)", func(t *testing.T, w *world) {
			ni, err := w.snap.Get("n0")
			must(t, err)
			c := ni.Clone()
			must(t, c.RemovePod(memoPod("p0", "n0", small)))
			ni.AddPod(memoPod("p3", "n0", small))
			w.nodes = []*framework.NodeInfo{c, ni}
		}},
		{"requested written without moving the generation", func(t *testing.T, w *world) {
			for _, ni := range w.nodes {
				ni.Requested.MilliCPU += 700
				ni.NonZeroRequested.MilliCPU += 700
				ni.Requested.EphemeralStorage += 1 << 30
			}
		}},
		{"a node outside any snapshot", func(_ *testing.T, w *world) {
			ni := framework.NewNodeInfo(memoPod("o", "n9", small))
			ni.SetNode(memoNode("n9", "4", "8Gi", "100Gi"))
			w.nodes = append(w.nodes, ni)
		}},
	}
	for name, r := range memoScorers(t) {
		for _, tc := range cases {
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				w := &world{snap: framework.NewSnapshot([]*api.Pod{memoPod("p0", "n0", small)}, nodes()), req: small}
				w.nodes = w.snap.List()
				r.memo = nil
				if bad := memoMismatches(r, w.nodes, r.requests(w.req)); len(bad) > 0 {
					t.Fatalf("before the change: %v", bad)
				}
				tc.change(t, w)
				if bad := memoMismatches(r, w.nodes, r.requests(w.req)); len(bad) > 0 {
					t.Errorf("after the change: %v", bad)
				}
			})
		}
	}
}

// TestTwoFixedMemoIsRead plants a wrong score in a node's memo, with the
// figures the node and pod have: the memo path must return it (so the
// memo is what answers a repeated node) and memoMismatches must report it
// (so the test above fails when the memo answers with a stale score).
func TestTwoFixedMemoIsRead(t *testing.T) {
	snap := framework.NewSnapshot(nil, []*api.Node{memoNode("n0", "4", "8Gi", "100Gi"), memoNode("n1", "8", "8Gi", "100Gi")})
	for name, r := range memoScorers(t) {
		t.Run(name, func(t *testing.T) {
			r.memo = nil
			req := r.requests(res{"cpu": "1", "memory": "1Gi", "ephemeral-storage": "1Gi"})
			if bad := memoMismatches(r, snap.List(), req); len(bad) > 0 {
				t.Fatal(bad)
			}
			ni := snap.List()[1]
			m := &r.memo[ni.Index()]
			if !m.set {
				t.Fatalf("no memo kept for %s", ni.Node().Name)
			}
			m.score += 3 // stale: the figures still match
			bad := memoMismatches(r, snap.List(), req)
			want := fmt.Sprintf("n1 (position 1): memo path %d, arithmetic %d", m.score, m.score-3)
			if len(bad) != 1 || bad[0] != want {
				t.Errorf("with a planted stale score: mismatches %q, want [%q]", bad, want)
			}
		})
	}
}

// requests is the request list a pod asking for r gets from the scorer.
func (r *resourceAllocationScorer) requests(req res) []int64 {
	return r.calculatePodResourceRequestList(st.MakePod().Req(req).Obj())
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// BenchmarkTwoFixedScoreNodes scores 500-node windows of a 5,000-node
// snapshot in turn, as consecutive cycles of identical pods search them,
// binding one pod per window; it reports the cost per node scored by the
// default LeastAllocated and BalancedAllocation together.
func BenchmarkTwoFixedScoreNodes(b *testing.B) {
	var nodes []*api.Node
	for i := 0; i < 5000; i++ {
		nodes = append(nodes, memoNode(fmt.Sprintf("node-%05d", i), "32", "64Gi", "100Gi"))
	}
	snap := framework.NewSnapshot(nil, nodes)
	list := snap.List()
	fit := newFit(b, defaultFitArgs()).resourceAllocationScorer
	balanced := &newBalanced(b, nil).resourceAllocationScorer
	podReq := res{"cpu": "100m", "memory": "500Mi"}
	req := fit.requests(podReq)
	scores := make(framework.NodeScoreList, 500)
	pods := make([]*api.Pod, b.N)
	for i := range pods {
		pods[i] = memoPod(fmt.Sprintf("p%d", i), "", podReq)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := (i * 500) % len(list)
		window := list[start : start+500]
		for _, r := range []*resourceAllocationScorer{fit, balanced} {
			if st := r.scoreNodes(window, req, scores); st != nil {
				b.Fatal(st)
			}
		}
		window[i%500].AddPod(pods[i])
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*500*b.N), "ns/node")
}
