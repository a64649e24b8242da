package podtopologyspread

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

// TestScore runs PreScore over the feasible nodes, Score on each and
// NormalizeScore. Raw score per constraint: count*log(domains+2) +
// (maxSkew-1), summed and rounded; normalized: 100*(max+min-s)/max.
func TestScore(t *testing.T) {
	tests := []struct {
		name    string
		pod     *api.Pod
		pods    []*api.Pod
		nodes   []*api.Node
		failed  []*api.Node // nodes that exist but did not pass Filter
		args    *config.PodTopologySpreadArgs
		cluster *framework.Cluster
		want    framework.NodeScoreList
	}{
		{
			// Raw 0 everywhere: max 0 means every node gets 100.
			name:  "one constraint on node, no existing pods",
			pod:   st.MakePod().Name("p").Label("foo", "").SpreadConstraint(1, api.LabelHostname, api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).Obj(),
			nodes: namedNodes("node-a", "node-b"),
			want:  framework.NodeScoreList{{Name: "node-a", Score: 100}, {Name: "node-b", Score: 100}},
		},
		{
			name: "one constraint on node, only one node is candidate",
			pod:  st.MakePod().Name("p").Label("foo", "").SpreadConstraint(1, api.LabelHostname, api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).Obj(),
			pods: []*api.Pod{
				st.MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				st.MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				st.MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
			},
			nodes:  namedNodes("node-a"),
			failed: namedNodes("node-b"),
			want:   framework.NodeScoreList{{Name: "node-a", Score: 100}},
		},
		{
			// 4 nodes: weight log 6 = 1.792. Raw 2/1/0/3 -> 4/2/0/5.
			// max 5, min 0: a 100*1/5 = 20, b 60, c 100, d 0.
			name:  "one constraint on node, all 4 nodes are candidates",
			pod:   st.MakePod().Name("p").Label("foo", "").SpreadConstraint(1, api.LabelHostname, api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).Obj(),
			pods:  spreadOn(map[string]int{"node-a": 2, "node-b": 1, "node-d": 3}),
			nodes: namedNodes("node-a", "node-b", "node-c", "node-d"),
			want:  framework.NodeScoreList{{Name: "node-a", Score: 20}, {Name: "node-b", Score: 60}, {Name: "node-c", Score: 100}, {Name: "node-d", Score: 0}},
		},
		{
			// maxSkew 2 adds 1 to every raw score: 5/3/1/6, max 6 min 1:
			// a 100*2/6 = 33, b 66, c 100, d 16.
			name:  "one constraint on node, all 4 nodes are candidates, maxSkew=2",
			pod:   st.MakePod().Name("p").Label("foo", "").SpreadConstraint(2, api.LabelHostname, api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).Obj(),
			pods:  spreadOn(map[string]int{"node-a": 2, "node-b": 1, "node-d": 3}),
			nodes: namedNodes("node-a", "node-b", "node-c", "node-d"),
			want:  framework.NodeScoreList{{Name: "node-a", Score: 33}, {Name: "node-b", Score: 66}, {Name: "node-c", Score: 100}, {Name: "node-d", Score: 16}},
		},
		{
			name:  "one constraint on node, null selector",
			pod:   st.MakePod().Name("p").Label("foo", "").SpreadConstraint(1, api.LabelHostname, api.ScheduleAnyway, nil, nil, nil, nil, nil).Obj(),
			pods:  spreadOn(map[string]int{"node-a": 2, "node-b": 1, "node-d": 3}),
			nodes: namedNodes("node-a", "node-b", "node-c", "node-d"),
			want:  framework.NodeScoreList{{Name: "node-a", Score: 100}, {Name: "node-b", Score: 100}, {Name: "node-c", Score: 100}, {Name: "node-d", Score: 100}},
		},
		{
			// maxSkew 3, 4/3/2/1: raw 4*1.792+2 = 9.17 -> 9, 7, 6, 4.
			// max 9 min 4: a 100*4/9 = 44, b 66, c 77, d 100.
			name:  "one constraint on node, all 4 nodes are candidates, maxSkew=3",
			pod:   st.MakePod().Name("p").Label("foo", "").SpreadConstraint(3, api.LabelHostname, api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).Obj(),
			pods:  spreadOn(map[string]int{"node-a": 4, "node-b": 3, "node-c": 2, "node-d": 1}),
			nodes: namedNodes("node-a", "node-b", "node-c", "node-d"),
			want:  framework.NodeScoreList{{Name: "node-a", Score: 44}, {Name: "node-b", Score: 66}, {Name: "node-c", Score: 77}, {Name: "node-d", Score: 100}},
		},
		{
			// The system defaults (hostname maxSkew 3, zone maxSkew 5) use
			// the Service's selector; without zone labels only the hostname
			// constraint scores, exactly as the maxSkew=3 case.
			name:    "system defaulting, nodes don't have zone, pods match service",
			pod:     st.MakePod().Name("p").Label("foo", "").Obj(),
			pods:    spreadOn(map[string]int{"node-a": 4, "node-b": 3, "node-c": 2, "node-d": 1}),
			nodes:   namedNodes("node-a", "node-b", "node-c", "node-d"),
			cluster: &framework.Cluster{ServiceList: []*api.Service{service("default", "s", map[string]string{"foo": ""})}},
			want:    framework.NodeScoreList{{Name: "node-a", Score: 44}, {Name: "node-b", Score: 66}, {Name: "node-c", Score: 77}, {Name: "node-d", Score: 100}},
		},
		{
			// Docs cluster with the system defaults. hostname: 4 nodes,
			// weight log 6 = 1.792, +2; zone: 2 zones, weight log 4 =
			// 1.386, +4. node1/2: 1.792+2 + 2*1.386+4 = 10.56 -> 11;
			// node3: 3.792 + 5.386 = 9.18 -> 9; node4: 2 + 5.386 -> 7.
			// max 11 min 7: node1 100*7/11 = 63, node3 100*9/11 = 81.
			name:    "system defaulting on the docs cluster",
			pod:     st.MakePod().Name("mypod").Label("foo", "bar").Obj(),
			pods:    docsPods(),
			nodes:   docsNodes(),
			cluster: &framework.Cluster{ServiceList: []*api.Service{service("default", "s", map[string]string{"foo": "bar"})}},
			want:    framework.NodeScoreList{{Name: "node1", Score: 63}, {Name: "node2", Score: 63}, {Name: "node3", Score: 81}, {Name: "node4", Score: 100}},
		},
		{
			// With system defaulting a node without a zone label forms the
			// domain "" and widens the zone weight to log 4 (not log 3).
			// node-a: 1*1.386+2 + 1*1.386+4 = 8.77 -> 9; node-b: hostname
			// only, 3.386 -> 3. max 9 min 3: a 100*3/9 = 33, b 100.
			name:    "system defaulting: nodes without zone form an empty zone domain",
			pod:     st.MakePod().Name("p").Label("foo", "").Obj(),
			pods:    spreadOn(map[string]int{"node-a": 1, "node-b": 1}),
			nodes:   []*api.Node{st.MakeNode().Name("node-a").Zone("zone1").Obj(), st.MakeNode().Name("node-b").Obj()},
			cluster: &framework.Cluster{ServiceList: []*api.Service{service("default", "s", map[string]string{"foo": ""})}},
			want:    framework.NodeScoreList{{Name: "node-a", Score: 33}, {Name: "node-b", Score: 100}},
		},
		{
			// Feasible a/b/x, weight log 5 = 1.609: raw 6.44 -> 6, 3, 2
			// (node-y's pods are not scored). max 6 min 2: a 33, b 83.
			name:   "one constraint on node, 3 out of 4 nodes are candidates",
			pod:    st.MakePod().Name("p").Label("foo", "").SpreadConstraint(1, api.LabelHostname, api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).Obj(),
			pods:   spreadOn(map[string]int{"node-a": 4, "node-b": 2, "node-x": 1, "node-y": 3}),
			nodes:  namedNodes("node-a", "node-b", "node-x"),
			failed: namedNodes("node-y"),
			want:   framework.NodeScoreList{{Name: "node-a", Score: 33}, {Name: "node-b", Score: 83}, {Name: "node-x", Score: 100}},
		},
		{
			// node-b lacks the key: ignored, scores 0, and is left out of
			// the hostname weight (log 4). a 4*1.386 -> 6, x 1. max 6 min 1.
			name: "one constraint on node, 3 out of 4 nodes are candidates, one node doesn't match topology key",
			pod:  st.MakePod().Name("p").Label("foo", "").SpreadConstraint(1, api.LabelHostname, api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).Obj(),
			pods: spreadOn(map[string]int{"node-a": 4, "node-b": 2, "node-x": 1, "node-y": 3}),
			nodes: []*api.Node{
				st.MakeNode().Name("node-a").Obj(),
				withoutLabel(st.MakeNode().Name("node-b").Label("n", "node-b").Obj(), api.LabelHostname),
				st.MakeNode().Name("node-x").Obj(),
			},
			failed: namedNodes("node-y"),
			want:   framework.NodeScoreList{{Name: "node-a", Score: 16}, {Name: "node-b", Score: 0}, {Name: "node-x", Score: 100}},
		},
		{
			// Zone counts include the infeasible node-y: zone1 6, zone2 4;
			// weight log 4: 8.3 -> 8 and 5.5 -> 6. max 8 min 6: 75/75/100.
			name: "one constraint on zone, 3 out of 4 nodes are candidates",
			pod:  st.MakePod().Name("p").Label("foo", "").SpreadConstraint(1, "zone", api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).Obj(),
			pods: spreadOn(map[string]int{"node-a": 4, "node-b": 2, "node-x": 1, "node-y": 3}),
			nodes: []*api.Node{
				st.MakeNode().Name("node-a").Label("zone", "zone1").Obj(),
				st.MakeNode().Name("node-b").Label("zone", "zone1").Obj(),
				st.MakeNode().Name("node-x").Label("zone", "zone2").Obj(),
			},
			failed: []*api.Node{st.MakeNode().Name("node-y").Label("zone", "zone2").Obj()},
			want:   framework.NodeScoreList{{Name: "node-a", Score: 75}, {Name: "node-b", Score: 75}, {Name: "node-x", Score: 100}},
		},
		{
			// Docs cluster, the zone constraint as ScheduleAnyway: weight
			// log 4 = 1.386; zoneA 2 -> 2.77 -> 3, zoneB 1 -> 1.39 -> 1.
			// max 3 min 1: zoneA 100*1/3 = 33, zoneB 100.
			name:  "docs cluster, zone constraint with ScheduleAnyway",
			pod:   st.MakePod().Name("mypod").Label("foo", "bar").SpreadConstraint(1, api.LabelTopologyZone, api.ScheduleAnyway, fooBar, nil, nil, nil, nil).Obj(),
			pods:  docsPods(),
			nodes: docsNodes(),
			want:  framework.NodeScoreList{{Name: "node1", Score: 33}, {Name: "node2", Score: 33}, {Name: "node3", Score: 100}, {Name: "node4", Score: 100}},
		},
		{
			name: "existing pods in a different namespace do not count",
			pod:  st.MakePod().Name("p").Label("foo", "").SpreadConstraint(1, api.LabelHostname, api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).Obj(),
			pods: []*api.Pod{
				st.MakePod().Name("p-a1").Namespace("ns1").Node("node-a").Label("foo", "").Obj(),
				st.MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
				st.MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
				st.MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
			},
			nodes: namedNodes("node-a", "node-b"),
			want:  framework.NodeScoreList{{Name: "node-a", Score: 100}, {Name: "node-b", Score: 33}},
		},
		{
			name: "terminating pods are not counted",
			pod:  st.MakePod().Name("p").Label("foo", "").SpreadConstraint(1, api.LabelHostname, api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).Obj(),
			pods: []*api.Pod{
				st.MakePod().Name("p-a").Node("node-a").Label("foo", "").Terminating(time.Unix(0, 0)).Obj(),
				st.MakePod().Name("p-b").Node("node-b").Label("foo", "").Obj(),
			},
			nodes: namedNodes("node-a", "node-b"),
			want:  framework.NodeScoreList{{Name: "node-a", Score: 100}, {Name: "node-b", Score: 0}},
		},
		{
			name:  "minDomains has no effect when ScheduleAnyway",
			pod:   st.MakePod().Name("p").Label("foo", "").SpreadConstraint(2, "node", api.ScheduleAnyway, fooSelector, int32Ptr(10), nil, nil, nil).Obj(),
			pods:  spreadOn(map[string]int{"node-a": 2, "node-b": 2, "node-c": 1}),
			nodes: labelledNodes("node", "node-a", "node-b", "node-c"),
			want:  framework.NodeScoreList{{Name: "node-a", Score: 75}, {Name: "node-b", Score: 75}, {Name: "node-c", Score: 100}},
		},
		{
			// node-c fails the nodeSelector, so its domain is not counted
			// (Honor): 2/1/0.
			name:  "nodeAffinityPolicy Honor with nodeSelector",
			pod:   st.MakePod().Name("p").Label("foo", "").NodeSelector(map[string]string{"foo": ""}).SpreadConstraint(1, "node", api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).Obj(),
			pods:  spreadOn(map[string]int{"node-a": 2, "node-b": 1, "node-c": 1}),
			nodes: fooNodes(false),
			want:  framework.NodeScoreList{{Name: "node-a", Score: 0}, {Name: "node-b", Score: 33}, {Name: "node-c", Score: 100}},
		},
		{
			name:  "nodeAffinityPolicy Ignore with nodeSelector",
			pod:   st.MakePod().Name("p").Label("foo", "").NodeSelector(map[string]string{"foo": ""}).SpreadConstraint(1, "node", api.ScheduleAnyway, fooSelector, nil, &ignorePolicy, nil, nil).Obj(),
			pods:  spreadOn(map[string]int{"node-a": 2, "node-b": 1, "node-c": 1}),
			nodes: fooNodes(false),
			want:  framework.NodeScoreList{{Name: "node-a", Score: 66}, {Name: "node-b", Score: 100}, {Name: "node-c", Score: 100}},
		},
		{
			name:  "nodeTaintsPolicy Honor",
			pod:   st.MakePod().Name("p").Label("foo", "").SpreadConstraint(1, "node", api.ScheduleAnyway, fooSelector, nil, nil, &honorPolicy, nil).Obj(),
			pods:  spreadOn(map[string]int{"node-a": 2, "node-b": 1, "node-c": 1}),
			nodes: fooNodes(true),
			want:  framework.NodeScoreList{{Name: "node-a", Score: 0}, {Name: "node-b", Score: 33}, {Name: "node-c", Score: 100}},
		},
		{
			name:  "nodeTaintsPolicy Ignore",
			pod:   st.MakePod().Name("p").Label("foo", "").SpreadConstraint(1, "node", api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).Obj(),
			pods:  spreadOn(map[string]int{"node-a": 2, "node-b": 1, "node-c": 1}),
			nodes: fooNodes(true),
			want:  framework.NodeScoreList{{Name: "node-a", Score: 66}, {Name: "node-b", Score: 100}, {Name: "node-c", Score: 100}},
		},
		{
			// Zone (foo, log 4 = 1.386): zone1 2, zone2 1. Hostname (bar
			// AND baz="" from matchLabelKeys, log 6 = 1.792): p-b1 and p-c3
			// only. a 2.77 -> 3, b 2.77+1.79 -> 5, c 1.39+1.79 -> 3,
			// d 1.39 -> 1. max 5 min 1: a 100*3/5 = 60, b 20, c 60, d 100.
			name: "matchLabelKeys ANDed with a non-empty selector",
			pod: st.MakePod().Name("p").Label("foo", "").Label("bar", "").Label("baz", "").
				SpreadConstraint(1, "zone", api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).
				SpreadConstraint(1, api.LabelHostname, api.ScheduleAnyway, barSelector, nil, nil, nil, []string{"baz"}).Obj(),
			pods: []*api.Pod{
				st.MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				st.MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("bar", "").Label("baz", "").Obj(),
				st.MakePod().Name("p-c1").Node("node-c").Label("foo", "").Obj(),
				st.MakePod().Name("p-c2").Node("node-c").Label("bar", "").Obj(),
				st.MakePod().Name("p-c3").Node("node-c").Label("bar", "").Label("baz", "").Obj(),
			},
			nodes: []*api.Node{
				st.MakeNode().Name("node-a").Label("zone", "zone1").Obj(),
				st.MakeNode().Name("node-b").Label("zone", "zone1").Obj(),
				st.MakeNode().Name("node-c").Label("zone", "zone2").Obj(),
				st.MakeNode().Name("node-d").Label("zone", "zone2").Obj(),
			},
			want: framework.NodeScoreList{{Name: "node-a", Score: 60}, {Name: "node-b", Score: 20}, {Name: "node-c", Score: 60}, {Name: "node-d", Score: 100}},
		},
		{
			// The empty selectors alone would count nothing (all 100);
			// merged with foo="" and bar="" the counts are those above.
			name: "matchLabelKeys ANDed with an empty selector",
			pod: st.MakePod().Name("p").Label("foo", "").Label("bar", "").
				SpreadConstraint(1, "zone", api.ScheduleAnyway, &api.LabelSelector{}, nil, nil, nil, []string{"foo"}).
				SpreadConstraint(1, api.LabelHostname, api.ScheduleAnyway, &api.LabelSelector{}, nil, nil, nil, []string{"bar"}).Obj(),
			pods: []*api.Pod{
				st.MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
				st.MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("bar", "").Obj(),
				st.MakePod().Name("p-y1").Node("node-c").Label("foo", "").Obj(),
				st.MakePod().Name("p-y2").Node("node-c").Label("bar", "").Obj(),
			},
			nodes: []*api.Node{
				st.MakeNode().Name("node-a").Label("zone", "zone1").Obj(),
				st.MakeNode().Name("node-b").Label("zone", "zone1").Obj(),
				st.MakeNode().Name("node-c").Label("zone", "zone2").Obj(),
				st.MakeNode().Name("node-d").Label("zone", "zone2").Obj(),
			},
			want: framework.NodeScoreList{{Name: "node-a", Score: 60}, {Name: "node-b", Score: 20}, {Name: "node-c", Score: 60}, {Name: "node-d", Score: 100}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := st.NewHandle(tt.pods, append(append([]*api.Node(nil), tt.nodes...), tt.failed...))
			if tt.cluster != nil {
				h.Lister = tt.cluster
			}
			pl := newPlugin(t, tt.args, h)
			state := framework.NewCycleState()
			var names []string
			for _, n := range tt.nodes {
				names = append(names, n.Name)
			}
			feasible := nodeInfosOf(t, h, names)
			if s := pl.PreScore(state, tt.pod, feasible); !s.IsSuccess() {
				t.Fatalf("PreScore: %v", s)
			}
			var got framework.NodeScoreList
			for _, ni := range feasible {
				score, s := pl.Score(state, tt.pod, ni)
				if !s.IsSuccess() {
					t.Fatalf("Score %s: %v", ni.Node().Name, s)
				}
				got = append(got, framework.NodeScore{Name: ni.Node().Name, Score: score})
			}
			perNode, batch, err := st.ScoreBothWays(pl, state, tt.pod, feasible)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(perNode, batch); diff != "" {
				t.Errorf("ScoreNodes differs from Score (-Score +ScoreNodes):\n%s", diff)
			}
			if s := pl.NormalizeScore(state, tt.pod, got); !s.IsSuccess() {
				t.Fatalf("NormalizeScore: %v", s)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("scores (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPreScoreSkip(t *testing.T) {
	tests := []struct {
		name    string
		pod     *api.Pod
		nodes   []*api.Node
		args    *config.PodTopologySpreadArgs
		cluster *framework.Cluster
		want    *framework.Status
	}{
		{
			name:  "only hard constraints",
			pod:   st.MakePod().Name("p").Label("foo", "").SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).Obj(),
			nodes: namedNodes("node-a"),
			want:  framework.NewStatus(framework.Skip),
		},
		{
			name:  "system defaults but no workload selects the pod",
			pod:   st.MakePod().Name("p").Label("foo", "").Obj(),
			nodes: namedNodes("node-a"),
			want:  framework.NewStatus(framework.Skip),
		},
		{
			// The controller's selector is used as it is, even when it does
			// not select the pod: it is not empty, so the defaults apply.
			name:  "system defaults with the controlling ReplicaSet's selector",
			pod:   ownedBy(st.MakePod().Name("p").Label("foo", "").Obj(), "apps/v1", "ReplicaSet", "rs"),
			nodes: namedNodes("node-a"),
			cluster: &framework.Cluster{ReplicaSetList: []*api.ReplicaSet{{
				ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "rs"},
				Spec:       api.WorkloadSpec{Selector: st.LabelSelector(map[string]string{"baz": "quux"})},
			}}},
		},
		{
			name: "default constraints and a controller ReplicaSet that doesn't exist",
			pod:  ownedBy(st.MakePod().Name("p").Label("foo", "bar").Obj(), "apps/v1", "ReplicaSet", "rs2"),
			args: &config.PodTopologySpreadArgs{DefaultingType: config.ListDefaulting, DefaultConstraints: []api.TopologySpreadConstraint{
				{MaxSkew: 2, TopologyKey: "planet", WhenUnsatisfiable: api.ScheduleAnyway},
			}},
			nodes: []*api.Node{st.MakeNode().Name("node-a").Label("planet", "mars").Obj()},
			cluster: &framework.Cluster{ReplicaSetList: []*api.ReplicaSet{{
				ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "rs1"},
				Spec:       api.WorkloadSpec{Selector: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "tar", Operator: api.LabelSelectorOpExists}}}},
			}}},
			want: framework.NewStatus(framework.Skip),
		},
		{
			name:  "List defaulting without default constraints",
			pod:   st.MakePod().Name("p").Label("foo", "").Obj(),
			nodes: namedNodes("node-a"),
			args:  &config.PodTopologySpreadArgs{DefaultingType: config.ListDefaulting},
			cluster: &framework.Cluster{ServiceList: []*api.Service{
				service("default", "s", map[string]string{"foo": ""}),
			}},
			want: framework.NewStatus(framework.Skip),
		},
		{
			name:  "no nodes at all",
			pod:   st.MakePod().Name("p").Label("foo", "").SpreadConstraint(1, "zone", api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).Obj(),
			nodes: nil,
			want:  framework.NewStatus(framework.Skip),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := st.NewHandle(nil, tt.nodes)
			if tt.cluster != nil {
				h.Lister = tt.cluster
			}
			pl := newPlugin(t, tt.args, h)
			got := pl.PreScore(framework.NewCycleState(), tt.pod, h.Snapshot.List())
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("PreScore status (-want +got):\n%s", diff)
			}
		})
	}
}

// spreadOn makes pods labelled foo: count per node.
func spreadOn(perNode map[string]int) []*api.Pod {
	var out []*api.Pod
	for _, n := range []string{"node-a", "node-b", "node-c", "node-d", "node-x", "node-y"} {
		for i := 0; i < perNode[n]; i++ {
			out = append(out, st.MakePod().Name(n+"-p"+string(rune('1'+i))).Label("foo", "").Node(n).Obj())
		}
	}
	return out
}

// labelledNodes makes nodes carrying key=name.
func labelledNodes(key string, names ...string) []*api.Node {
	out := make([]*api.Node, 0, len(names))
	for _, n := range names {
		out = append(out, st.MakeNode().Name(n).Label(key, n).Obj())
	}
	return out
}

// fooNodes are node-a/b labelled foo and node-c without it (or with a
// NoSchedule taint instead).
func fooNodes(taintC bool) []*api.Node {
	ns := labelledNodes("node", "node-a", "node-b", "node-c")
	ns[0].Labels["foo"] = ""
	ns[1].Labels["foo"] = ""
	if taintC {
		ns[2].Labels["foo"] = ""
		ns[2].Spec.Taints = []api.Taint{noSchedule}
	}
	return ns
}

// TestScoreNodesWithoutPreScore pins that ScoreNodes fails as Score does
// when PreScore left no state, and not at all without nodes.
func TestScoreNodesWithoutPreScore(t *testing.T) {
	h := st.NewHandle(nil, labelledNodes("node", "node-a"))
	pl := newPlugin(t, nil, h)
	pod := st.MakePod().Name("p").Obj()
	_, want := pl.Score(framework.NewCycleState(), pod, h.Snapshot.List()[0])
	got := pl.ScoreNodes(framework.NewCycleState(), pod, h.Snapshot.List(), make(framework.NodeScoreList, 1))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ScoreNodes without PreScore state (-Score +ScoreNodes):\n%s", diff)
	}
	if got := pl.ScoreNodes(framework.NewCycleState(), pod, nil, nil); got != nil {
		t.Errorf("ScoreNodes of no nodes = %v, want success", got)
	}
}
