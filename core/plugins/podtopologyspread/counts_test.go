package podtopologyspread

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

// TestCountsFollowTheSnapshot checks that PreFilter and PreScore, which keep
// per-node counts between cycles, give after every kind of change exactly
// what a plugin counting from scratch gives.
func TestCountsFollowTheSnapshot(t *testing.T) {
	nodes := []*api.Node{
		st.MakeNode().Name("a1").Zone("zoneA").Obj(),
		st.MakeNode().Name("a2").Zone("zoneA").Obj(),
		st.MakeNode().Name("b1").Zone("zoneB").Taint("dedicated", "x", api.TaintEffectNoSchedule).Obj(),
		st.MakeNode().Name("c1").Zone("zoneC").Obj(),
		st.MakeNode().Name("nozone").Obj(),
	}
	var pods []*api.Pod
	for i, n := range []string{"a1", "a1", "a2", "b1", "c1", "c1", "nozone"} {
		w := st.MakePod().Name(fmt.Sprintf("p%d", i)).Node(n).Label("foo", fmt.Sprint(i%2))
		if i%3 == 0 {
			w.Namespace("other")
		}
		pods = append(pods, w.Obj())
	}
	zoneFoo := func(w *st.PodWrapper, action api.UnsatisfiableConstraintAction) *st.PodWrapper {
		return w.SpreadConstraint(1, api.LabelTopologyZone, action, fooSelector, nil, nil, nil, nil)
	}
	incoming := map[string]*api.Pod{
		"zone":          zoneFoo(st.MakePod().Name("in").Label("foo", "0"), api.DoNotSchedule).Obj(),
		"zone+hostname": zoneFoo(st.MakePod().Name("in").Label("foo", "0"), api.DoNotSchedule).SpreadConstraint(1, api.LabelHostname, api.DoNotSchedule, fooBar, nil, nil, nil, nil).Obj(),
		"node selector": zoneFoo(st.MakePod().Name("in").NodeSelector(map[string]string{api.LabelTopologyZone: "zoneA"}), api.DoNotSchedule).Obj(),
		"taints honored": st.MakePod().Name("in").Toleration(api.Toleration{Key: "dedicated", Operator: api.TolerationOpExists}).
			SpreadConstraint(1, api.LabelTopologyZone, api.DoNotSchedule, fooSelector, nil, nil, &honorPolicy, nil).Obj(),
		"other namespace": zoneFoo(st.MakePod().Namespace("other").Name("in"), api.DoNotSchedule).Obj(),
		"soft":            zoneFoo(st.MakePod().Name("in"), api.ScheduleAnyway).SpreadConstraint(2, api.LabelHostname, api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).Obj(),
	}
	h := st.NewHandle(pods, nodes)
	cached := newPlugin(t, nil, h)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	steps := []struct {
		name   string
		change func(t *testing.T)
	}{
		{"first cycle", func(*testing.T) {}},
		{"nothing changed", func(*testing.T) {}},
		{"pod added", func(t *testing.T) {
			p := st.MakePod().Name("new").Node("a2").Label("foo", "1").Obj()
			pods = append(pods, p)
			if err := h.Snapshot.AddPod(p); err != nil {
				t.Fatal(err)
			}
		}},
		{"pod terminating (updated in place)", func(t *testing.T) {
			before := *pods[4]
			pods[4].DeletionTimestamp = &now
			if err := h.Snapshot.UpdatePod(&before, pods[4]); err != nil {
				t.Fatal(err)
			}
		}},
		{"pod relabelled (new object)", func(t *testing.T) {
			p := *pods[2]
			p.Labels = map[string]string{"bar": "x"}
			if err := h.Snapshot.UpdatePod(pods[2], &p); err != nil {
				t.Fatal(err)
			}
			pods[2] = &p
		}},
		{"pod removed, the last of its domain", func(t *testing.T) {
			if err := h.Snapshot.RemovePod(pods[6]); err != nil {
				t.Fatal(err)
			}
			pods = append(pods[:6:6], pods[7:]...)
		}},
		{"pod added on the NodeInfo, not through the snapshot", func(t *testing.T) {
			p := st.MakePod().Name("direct").Node("c1").Label("foo", "1").Obj()
			pods = append(pods, p)
			ni, err := h.Snapshot.Get("c1")
			if err != nil {
				t.Fatal(err)
			}
			ni.AddPod(p)
		}},
		{"a clone changed (the snapshot did not)", func(t *testing.T) {
			ni, err := h.Snapshot.Get("a2")
			if err != nil {
				t.Fatal(err)
			}
			ni.Clone().AddPod(st.MakePod().Name("dry-run").Node("a2").Label("foo", "1").Obj())
		}},
		{"more changes than the change log keeps", func(t *testing.T) {
			p := st.MakePod().Name("early").Node("b1").Label("foo", "0").Obj()
			pods = append(pods, p)
			if err := h.Snapshot.AddPod(p); err != nil {
				t.Fatal(err)
			}
			churn := st.MakePod().Name("churn").Node("a1").Label("foo", "0").Obj()
			for range 3000 {
				if err := h.Snapshot.AddPod(churn); err != nil {
					t.Fatal(err)
				}
				if err := h.Snapshot.RemovePod(churn); err != nil {
					t.Fatal(err)
				}
			}
		}},
		{"snapshot rebuilt with a node relabelled", func(*testing.T) {
			nodes[3] = st.MakeNode().Name("c1").Zone("zoneA").Obj()
			h.Snapshot = framework.NewSnapshot(pods, nodes)
		}},
		{"snapshot rebuilt with a node moved to a new zone", func(*testing.T) {
			nodes[0] = st.MakeNode().Name("a1").Zone("zoneD").Obj()
			h.Snapshot = framework.NewSnapshot(pods, nodes)
		}},
		{"snapshot rebuilt with a node removed", func(*testing.T) {
			nodes = nodes[:4]
			h.Snapshot = framework.NewSnapshot(pods, nodes)
		}},
	}
	// kept[name] is a state of an earlier cycle with the verdicts Filter
	// gave then; a later cycle must not change them.
	type keptState struct {
		state    *framework.CycleState
		nodes    []*framework.NodeInfo
		verdicts []string
	}
	kept := map[string]keptState{}
	for _, step := range steps {
		step.change(t)
		for name, pod := range incoming {
			prev, hadPrev := kept[name]
			t.Run(step.name+"/"+name, func(t *testing.T) {
				fresh := newPlugin(t, nil, st.NewHandle(nil, nil))
				list := h.Snapshot.List()
				want, err := fresh.calPreFilterState(pod, list)
				if err != nil {
					t.Fatal(err)
				}
				got, err := cached.calPreFilterState(pod, list)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want.TpValueToMatchNum, got.TpValueToMatchNum); diff != "" {
					t.Errorf("PreFilter counts (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(want.CriticalPaths, got.CriticalPaths); diff != "" {
					t.Errorf("PreFilter critical paths (-want +got):\n%s", diff)
				}
				if len(got.Constraints) > 0 {
					checkFilter(t, cached, pod, want, got, list)
					state := framework.NewCycleState()
					state.Write(preFilterStateKey, got)
					kept[name] = keptState{state, list, filterVerdicts(cached, state, pod, list)}
				}
				fresh.handle = h
				wantScore, gotScore := framework.NewCycleState(), framework.NewCycleState()
				wantStatus := fresh.PreScore(wantScore, pod, list)
				if diff := cmp.Diff(wantStatus.Code(), cached.PreScore(gotScore, pod, list).Code()); diff != "" {
					t.Fatalf("PreScore code (-want +got):\n%s", diff)
				}
				if !wantStatus.IsSuccess() {
					return
				}
				ws, _ := getPreScoreState(wantScore)
				gs, _ := getPreScoreState(gotScore)
				if diff := cmp.Diff(ws.TopologyValueToPodCounts, gs.TopologyValueToPodCounts); diff != "" {
					t.Errorf("PreScore counts (-want +got):\n%s", diff)
				}
			})
			// After this cycle's PreFilter updated the cache:
			if k := prev; hadPrev {
				if diff := cmp.Diff(k.verdicts, filterVerdicts(cached, k.state, pod, k.nodes)); diff != "" {
					t.Errorf("%s/%s: an earlier cycle's Filter verdicts changed (-want +got):\n%s", step.name, name, diff)
				}
				// On nodes it did not count, the old state must read
				// through the maps, not by a position that now means
				// another node or value.
				s, _ := getPreFilterState(k.state)
				m := s.Clone().(*preFilterState)
				m.dense = nil
				viaMaps := framework.NewCycleState()
				viaMaps.Write(preFilterStateKey, m)
				now := h.Snapshot.List()
				if diff := cmp.Diff(filterVerdicts(cached, viaMaps, pod, now), filterVerdicts(cached, k.state, pod, now)); diff != "" {
					t.Errorf("%s/%s: an earlier cycle's Filter on the new nodes (-maps +dense):\n%s", step.name, name, diff)
				}
			}
		}
	}
}

// filterVerdicts runs Filter on every node and names the outcomes.
func filterVerdicts(pl *PodTopologySpread, state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo) []string {
	var out []string
	for _, ni := range nodes {
		out = append(out, ni.Node().Name+": "+pl.Filter(state, pod, ni).Message())
	}
	return out
}

// checkFilter compares Filter with the cached state (which reads counts by
// node index) against the state counted from scratch and against the same
// counts read through the maps, on the snapshot's nodes and on clones that
// preemption's AddPod and RemovePod changed.
func checkFilter(t *testing.T, pl *PodTopologySpread, pod *api.Pod, want, got *preFilterState, nodes []*framework.NodeInfo) {
	t.Helper()
	if got.dense == nil {
		t.Fatal("the cached state has no dense counts")
	}
	states := func(s *preFilterState) (dense, maps *framework.CycleState) {
		dense, maps = framework.NewCycleState(), framework.NewCycleState()
		dense.Write(preFilterStateKey, s.Clone())
		m := s.Clone().(*preFilterState)
		m.dense = nil
		maps.Write(preFilterStateKey, m)
		return dense, maps
	}
	fresh, _ := states(want)
	dense, viaMaps := states(got)
	wantVerdicts := filterVerdicts(pl, fresh, pod, nodes)
	if diff := cmp.Diff(wantVerdicts, filterVerdicts(pl, dense, pod, nodes)); diff != "" {
		t.Errorf("Filter by node index (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantVerdicts, filterVerdicts(pl, viaMaps, pod, nodes)); diff != "" {
		t.Errorf("Filter through the maps (-want +got):\n%s", diff)
	}
	// A preemption dry run: a matching pod added to a clone of each node in
	// turn, and the first pod of each node removed.
	for _, ni := range nodes {
		extra := framework.NewPodInfo(st.MakePod().Namespace(pod.Namespace).Name("extra").Node(ni.Node().Name).Label("foo", "0").Obj())
		for _, s := range []*framework.CycleState{fresh, dense, viaMaps} {
			clone := ni.Clone()
			clone.AddPodInfo(extra)
			if st := pl.AddPod(s, pod, extra, clone); !st.IsSuccess() {
				t.Fatal(st.AsError())
			}
			if len(ni.Pods) > 0 {
				if st := pl.RemovePod(s, pod, ni.Pods[0], clone); !st.IsSuccess() {
					t.Fatal(st.AsError())
				}
			}
		}
		wantVerdicts := filterVerdicts(pl, fresh, pod, nodes)
		if diff := cmp.Diff(wantVerdicts, filterVerdicts(pl, dense, pod, nodes)); diff != "" {
			t.Errorf("after AddPod/RemovePod on a clone of %s, Filter by node index (-want +got):\n%s", ni.Node().Name, diff)
		}
		if diff := cmp.Diff(wantVerdicts, filterVerdicts(pl, viaMaps, pod, nodes)); diff != "" {
			t.Errorf("after AddPod/RemovePod on a clone of %s, Filter through the maps (-want +got):\n%s", ni.Node().Name, diff)
		}
	}
}
