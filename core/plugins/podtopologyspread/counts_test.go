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
		{"snapshot rebuilt with a node relabelled", func(*testing.T) {
			nodes[3] = st.MakeNode().Name("c1").Zone("zoneA").Obj()
			h.Snapshot = framework.NewSnapshot(pods, nodes)
		}},
		{"snapshot rebuilt with a node removed", func(*testing.T) {
			nodes = nodes[:4]
			h.Snapshot = framework.NewSnapshot(pods, nodes)
		}},
	}
	for _, step := range steps {
		step.change(t)
		for name, pod := range incoming {
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
		}
	}
}
