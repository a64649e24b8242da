package podtopologyspread

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

// stateCounts is the comparable part of a preFilterState.
type stateCounts struct {
	Paths  []criticalPaths
	Counts []map[string]int
}

func countsOf(s *preFilterState) stateCounts {
	out := stateCounts{Counts: s.TpValueToMatchNum}
	for _, p := range s.CriticalPaths {
		out.Paths = append(out.Paths, *p)
	}
	return out
}

func TestPreFilterState(t *testing.T) {
	tests := []struct {
		name  string
		pod   *api.Pod
		pods  []*api.Pod
		nodes []*api.Node
		want  stateCounts
	}{
		{
			name:  "clean cluster with one constraint",
			pod:   st.MakePod().Name("p").Label("foo", "").SpreadConstraint(5, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).Obj(),
			nodes: zoneNodes(),
			want: stateCounts{
				Paths:  []criticalPaths{{{"zone1", 0}, {"zone2", 0}}},
				Counts: []map[string]int{{"zone1": 0, "zone2": 0}},
			},
		},
		{
			name:  "docs cluster: zoneB is the critical path",
			pod:   st.MakePod().Name("mypod").Label("foo", "bar").SpreadConstraint(1, api.LabelTopologyZone, api.DoNotSchedule, fooBar, nil, nil, nil, nil).Obj(),
			pods:  docsPods(),
			nodes: docsNodes(),
			want: stateCounts{
				Paths:  []criticalPaths{{{"zoneB", 1}, {"zoneA", 2}}},
				Counts: []map[string]int{{"zoneA": 2, "zoneB": 1}},
			},
		},
		{
			// Only one domain: the second path keeps its sentinel.
			name:  "single domain",
			pod:   st.MakePod().Name("p").Label("foo", "").SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).Obj(),
			pods:  spread1101(),
			nodes: zoneNodes()[:2],
			want: stateCounts{
				Paths:  []criticalPaths{{{"zone1", 2}, {"", math.MaxInt32}}},
				Counts: []map[string]int{{"zone1": 2}},
			},
		},
		{
			// A node missing any constraint's key is left out of every
			// constraint: node-x has no "node" label, so zone2 counts only node-y.
			name: "node missing one key is skipped for all constraints",
			pod: st.MakePod().Name("p").Label("foo", "").
				SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				SpreadConstraint(1, "node", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).Obj(),
			pods: spreadOn(map[string]int{"node-a": 1, "node-x": 2, "node-y": 1}),
			nodes: func() []*api.Node {
				ns := zoneNodes()
				delete(ns[2].Labels, "node")
				return ns
			}(),
			want: stateCounts{
				Paths: []criticalPaths{{{"zone1", 1}, {"zone2", 1}}, {{"node-b", 0}, {"node-a", 1}}},
				Counts: []map[string]int{
					{"zone1": 1, "zone2": 1},
					{"node-a": 1, "node-b": 0, "node-y": 1},
				},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := st.NewHandle(tt.pods, tt.nodes)
			pl := newPlugin(t, nil, h)
			state := framework.NewCycleState()
			if _, s := pl.PreFilter(state, tt.pod, h.Snapshot.List()); !s.IsSuccess() {
				t.Fatalf("PreFilter: %v", s)
			}
			s, err := getPreFilterState(state)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, countsOf(s)); diff != "" {
				t.Errorf("state (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPreFilterExtensions checks AddPod/RemovePod, as preemption uses them
// on a cloned state.
func TestPreFilterExtensions(t *testing.T) {
	zonePod := st.MakePod().Name("p").Label("foo", "").SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).Obj()
	tests := []struct {
		name   string
		pod    *api.Pod
		pods   []*api.Pod
		nodes  []*api.Node
		add    bool
		change *api.Pod // added or removed
		on     string
		want   stateCounts
		// wantFit lists nodes that pass Filter afterwards.
		wantFit []string
	}{
		{
			// zone1 2, zone2 1: removing one pod from node-a gives 1/1 and
			// zone1 fits again.
			name:   "removing a victim in the loaded zone lets the pod fit there",
			pod:    zonePod,
			pods:   spreadOn(map[string]int{"node-a": 2, "node-x": 1}),
			nodes:  zoneNodes(),
			change: st.MakePod().Name("node-a-p1").Label("foo", "").Node("node-a").Obj(),
			on:     "node-a",
			want: stateCounts{
				// A tie does not swap the paths.
				Paths:  []criticalPaths{{{"zone2", 1}, {"zone1", 1}}},
				Counts: []map[string]int{{"zone1": 1, "zone2": 1}},
			},
			wantFit: []string{"node-a", "node-b", "node-x", "node-y"},
		},
		{
			name:   "adding a pod to the critical zone moves the minimum",
			pod:    zonePod,
			pods:   spreadOn(map[string]int{"node-a": 2, "node-x": 1}),
			nodes:  zoneNodes(),
			add:    true,
			change: st.MakePod().Name("new").Label("foo", "").Obj(),
			on:     "node-y",
			want: stateCounts{
				Paths:  []criticalPaths{{{"zone2", 2}, {"zone1", 2}}},
				Counts: []map[string]int{{"zone1": 2, "zone2": 2}},
			},
			wantFit: []string{"node-a", "node-b", "node-x", "node-y"},
		},
		{
			name:    "a pod in another namespace changes nothing",
			pod:     zonePod,
			pods:    spreadOn(map[string]int{"node-a": 2, "node-x": 1}),
			nodes:   zoneNodes(),
			add:     true,
			change:  st.MakePod().Name("new").Namespace("ns1").Label("foo", "").Obj(),
			on:      "node-x",
			want:    stateCounts{Paths: []criticalPaths{{{"zone2", 1}, {"zone1", 2}}}, Counts: []map[string]int{{"zone1": 2, "zone2": 1}}},
			wantFit: []string{"node-x", "node-y"},
		},
		{
			name:    "a pod not matching the selector changes nothing",
			pod:     zonePod,
			pods:    spreadOn(map[string]int{"node-a": 2, "node-x": 1}),
			nodes:   zoneNodes(),
			add:     true,
			change:  st.MakePod().Name("new").Label("bar", "").Obj(),
			on:      "node-x",
			want:    stateCounts{Paths: []criticalPaths{{{"zone2", 1}, {"zone1", 2}}}, Counts: []map[string]int{{"zone1": 2, "zone2": 1}}},
			wantFit: []string{"node-x", "node-y"},
		},
		{
			// The preemptor's node affinity excludes node-x (Honor), so a
			// pod added there is not counted.
			name: "a node failing the preemptor's node affinity is not counted",
			pod: st.MakePod().Name("p").Label("foo", "").NodeAffinityIn("node", "node-a", "node-b", "node-y").
				SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).Obj(),
			pods:    spreadOn(map[string]int{"node-a": 2, "node-y": 1}),
			nodes:   zoneNodes(),
			add:     true,
			change:  st.MakePod().Name("new").Label("foo", "").Obj(),
			on:      "node-x",
			want:    stateCounts{Paths: []criticalPaths{{{"zone2", 1}, {"zone1", 2}}}, Counts: []map[string]int{{"zone1": 2, "zone2": 1}}},
			wantFit: []string{"node-x", "node-y"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := st.NewHandle(tt.pods, tt.nodes)
			pl := newPlugin(t, nil, h)
			state := framework.NewCycleState()
			if _, s := pl.PreFilter(state, tt.pod, h.Snapshot.List()); !s.IsSuccess() {
				t.Fatalf("PreFilter: %v", s)
			}
			orig, _ := getPreFilterState(state)
			before := countsOf(orig.Clone().(*preFilterState))
			clone := state.Clone()
			ni, err := h.Snapshot.Get(tt.on)
			if err != nil {
				t.Fatal(err)
			}
			var s *framework.Status
			if tt.add {
				s = pl.AddPod(clone, tt.pod, framework.NewPodInfo(tt.change), ni)
			} else {
				s = pl.RemovePod(clone, tt.pod, framework.NewPodInfo(tt.change), ni)
			}
			if !s.IsSuccess() {
				t.Fatalf("updating state: %v", s)
			}
			got, _ := getPreFilterState(clone)
			if diff := cmp.Diff(tt.want, countsOf(got)); diff != "" {
				t.Errorf("state (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, countsOf(orig)); diff != "" {
				t.Errorf("original state changed through the clone (-want +got):\n%s", diff)
			}
			var fit []string
			for _, n := range h.Snapshot.List() {
				if pl.Filter(clone, tt.pod, n).IsSuccess() {
					fit = append(fit, n.Node().Name)
				}
			}
			if diff := cmp.Diff(tt.wantFit, fit); diff != "" {
				t.Errorf("fitting nodes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFilterWithoutPreFilter(t *testing.T) {
	h := st.NewHandle(nil, namedNodes("node-a"))
	pl := newPlugin(t, nil, h)
	ni, _ := h.Snapshot.Get("node-a")
	got := pl.Filter(framework.NewCycleState(), st.MakePod().Name("p").Obj(), ni)
	want := `reading "PreFilterPodTopologySpread" from cycleState: not found`
	if got.Code() != framework.Error || got.Message() != want {
		t.Errorf("Filter = %v, want Error %q", got, want)
	}
}
