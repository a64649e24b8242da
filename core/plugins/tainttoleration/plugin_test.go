package tainttoleration

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

func tol(key, value string, op api.TolerationOperator, effect api.TaintEffect) api.Toleration {
	return api.Toleration{Key: key, Value: value, Operator: op, Effect: effect}
}

func podWith(tols ...api.Toleration) *api.Pod {
	p := st.MakePod().Name("p")
	for _, t := range tols {
		p.Toleration(t)
	}
	return p.Obj()
}

func TestFilter(t *testing.T) {
	untolerated := framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonUntolerated)
	tests := []struct {
		name string
		pod  *api.Pod
		node *api.Node
		want *framework.Status
	}{
		{
			name: "no tolerations, NoSchedule taint",
			pod:  podWith(),
			node: st.MakeNode().Name("n").Taint("dedicated", "user1", api.TaintEffectNoSchedule).Obj(),
			want: untolerated,
		},
		{
			name: "matching Equal toleration",
			pod:  podWith(tol("dedicated", "user1", api.TolerationOpEqual, api.TaintEffectNoSchedule)),
			node: st.MakeNode().Name("n").Taint("dedicated", "user1", api.TaintEffectNoSchedule).Obj(),
		},
		{
			name: "value mismatch",
			pod:  podWith(tol("dedicated", "user1", api.TolerationOpEqual, api.TaintEffectNoSchedule)),
			node: st.MakeNode().Name("n").Taint("dedicated", "user2", api.TaintEffectNoSchedule).Obj(),
			want: untolerated,
		},
		{
			name: "Exists tolerates any value",
			pod:  podWith(tol("foo", "", api.TolerationOpExists, api.TaintEffectNoSchedule)),
			node: st.MakeNode().Name("n").Taint("foo", "bar", api.TaintEffectNoSchedule).Obj(),
		},
		{
			name: "every taint tolerated by one of several tolerations",
			pod: podWith(
				tol("dedicated", "user2", api.TolerationOpEqual, api.TaintEffectNoSchedule),
				tol("foo", "", api.TolerationOpExists, api.TaintEffectNoSchedule)),
			node: st.MakeNode().Name("n").
				Taint("dedicated", "user2", api.TaintEffectNoSchedule).
				Taint("foo", "bar", api.TaintEffectNoSchedule).Obj(),
		},
		{
			name: "key and value match but a different non-empty effect",
			pod:  podWith(tol("foo", "bar", api.TolerationOpEqual, api.TaintEffectPreferNoSchedule)),
			node: st.MakeNode().Name("n").Taint("foo", "bar", api.TaintEffectNoSchedule).Obj(),
			want: untolerated,
		},
		{
			name: "empty toleration effect matches all effects",
			pod:  podWith(tol("foo", "bar", api.TolerationOpEqual, "")),
			node: st.MakeNode().Name("n").Taint("foo", "bar", api.TaintEffectNoSchedule).Obj(),
		},
		{
			name: "untolerated PreferNoSchedule taint does not filter",
			pod:  podWith(tol("dedicated", "user1", api.TolerationOpEqual, api.TaintEffectNoSchedule)),
			node: st.MakeNode().Name("n").Taint("dedicated", "user2", api.TaintEffectPreferNoSchedule).Obj(),
		},
		{
			name: "untolerated NoExecute taint filters",
			pod:  podWith(),
			node: st.MakeNode().Name("n").Taint("node.kubernetes.io/not-ready", "", api.TaintEffectNoExecute).Obj(),
			want: untolerated,
		},
		{
			name: "Gt operator is an alpha gate, off: never tolerates",
			pod:  podWith(tol("sla", "100", "Gt", api.TaintEffectNoSchedule)),
			node: st.MakeNode().Name("n").Taint("sla", "200", api.TaintEffectNoSchedule).Obj(),
			want: untolerated,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ni := framework.NewNodeInfo()
			ni.SetNode(tt.node)
			p, err := New(nil, st.NewHandle(nil, []*api.Node{tt.node}))
			if err != nil {
				t.Fatalf("creating plugin: %v", err)
			}
			got := p.(framework.FilterPlugin).Filter(framework.NewCycleState(), tt.pod, ni)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Filter status (-want +got):\n%s", diff)
			}
		})
	}
}

func TestScore(t *testing.T) {
	pref := api.TaintEffectPreferNoSchedule
	tests := []struct {
		name  string
		pod   *api.Pod
		nodes []*api.Node
		want  framework.NodeScoreList
	}{
		{
			name: "tolerated taint beats intolerable one",
			pod:  podWith(tol("foo", "bar", api.TolerationOpEqual, pref)),
			nodes: []*api.Node{
				st.MakeNode().Name("nodeA").Taint("foo", "bar", pref).Obj(),
				st.MakeNode().Name("nodeB").Taint("foo", "blah", pref).Obj(),
			},
			want: framework.NodeScoreList{{Name: "nodeA", Score: 100}, {Name: "nodeB", Score: 0}},
		},
		{
			name: "how many tolerated taints a node has does not matter",
			pod: podWith(
				tol("cpu-type", "arm64", api.TolerationOpEqual, pref),
				tol("disk-type", "ssd", api.TolerationOpEqual, pref)),
			nodes: []*api.Node{
				st.MakeNode().Name("nodeA").Obj(),
				st.MakeNode().Name("nodeB").Taint("cpu-type", "arm64", pref).Obj(),
				st.MakeNode().Name("nodeC").Taint("cpu-type", "arm64", pref).Taint("disk-type", "ssd", pref).Obj(),
			},
			want: framework.NodeScoreList{{Name: "nodeA", Score: 100}, {Name: "nodeB", Score: 100}, {Name: "nodeC", Score: 100}},
		},
		{
			name: "more intolerable taints, lower score",
			pod:  podWith(tol("foo", "bar", api.TolerationOpEqual, pref)),
			nodes: []*api.Node{
				st.MakeNode().Name("nodeA").Obj(),
				st.MakeNode().Name("nodeB").Taint("cpu-type", "arm64", pref).Obj(),
				st.MakeNode().Name("nodeC").Taint("cpu-type", "arm64", pref).Taint("disk-type", "ssd", pref).Obj(),
			},
			want: framework.NodeScoreList{{Name: "nodeA", Score: 100}, {Name: "nodeB", Score: 50}, {Name: "nodeC", Score: 0}},
		},
		{
			name: "only PreferNoSchedule taints and tolerations count",
			pod: podWith(
				tol("cpu-type", "arm64", api.TolerationOpEqual, api.TaintEffectNoSchedule),
				tol("disk-type", "ssd", api.TolerationOpEqual, api.TaintEffectNoSchedule)),
			nodes: []*api.Node{
				st.MakeNode().Name("nodeA").Obj(),
				st.MakeNode().Name("nodeB").Taint("cpu-type", "arm64", api.TaintEffectNoSchedule).Obj(),
				st.MakeNode().Name("nodeC").Taint("cpu-type", "arm64", pref).Taint("disk-type", "ssd", pref).Obj(),
			},
			want: framework.NodeScoreList{{Name: "nodeA", Score: 100}, {Name: "nodeB", Score: 100}, {Name: "nodeC", Score: 0}},
		},
		{
			name: "a toleration without effect tolerates PreferNoSchedule",
			pod:  podWith(tol("foo", "", api.TolerationOpExists, "")),
			nodes: []*api.Node{
				st.MakeNode().Name("nodeA").Taint("foo", "x", pref).Obj(),
				st.MakeNode().Name("nodeB").Taint("bar", "x", pref).Obj(),
			},
			want: framework.NodeScoreList{{Name: "nodeA", Score: 100}, {Name: "nodeB", Score: 0}},
		},
		{
			name: "no taints anywhere: all 100",
			pod:  podWith(),
			nodes: []*api.Node{
				st.MakeNode().Name("nodeA").Obj(),
				st.MakeNode().Name("nodeB").Obj(),
			},
			want: framework.NodeScoreList{{Name: "nodeA", Score: 100}, {Name: "nodeB", Score: 100}},
		},
		{
			name: "three counts normalize by integer division",
			pod:  podWith(),
			nodes: []*api.Node{
				st.MakeNode().Name("nodeA").Taint("a", "", pref).Obj(),
				st.MakeNode().Name("nodeB").Taint("a", "", pref).Taint("b", "", pref).Taint("c", "", pref).Obj(),
			},
			// 100 - 100*1/3 = 67
			want: framework.NodeScoreList{{Name: "nodeA", Score: 67}, {Name: "nodeB", Score: 0}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := st.NewHandle(nil, tt.nodes)
			p, err := New(nil, h)
			if err != nil {
				t.Fatalf("creating plugin: %v", err)
			}
			pl := p.(*TaintToleration)
			state := framework.NewCycleState()
			if s := pl.PreScore(state, tt.pod, h.Snapshot.List()); !s.IsSuccess() {
				t.Fatalf("PreScore: %v", s)
			}
			// Score and ScoreNodes must agree on every case.
			raw, batch, err := st.ScoreBothWays(pl, state, tt.pod, h.Snapshot.List())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(raw, batch); diff != "" {
				t.Errorf("ScoreNodes differs from Score (-Score +ScoreNodes):\n%s", diff)
			}
			var got framework.NodeScoreList
			for i, ni := range h.Snapshot.List() {
				got = append(got, framework.NodeScore{Name: ni.Node().Name, Score: raw[i]})
			}
			// NormalizeScore must not need the names (NamelessNormalizer).
			named, nameless, err := st.NormalizeBothWays(pl, state, tt.pod, got)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(named, nameless); diff != "" {
				t.Errorf("normalized without names (-with +without):\n%s", diff)
			}
			if s := pl.ScoreExtensions().NormalizeScore(state, tt.pod, got); !s.IsSuccess() {
				t.Fatalf("NormalizeScore: %v", s)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("scores (-want +got):\n%s", diff)
			}
		})
	}
}

func TestScoreWithoutPreScore(t *testing.T) {
	node := st.MakeNode().Name("n").Obj()
	ni := framework.NewNodeInfo()
	ni.SetNode(node)
	pl := &TaintToleration{}
	_, want := pl.Score(framework.NewCycleState(), podWith(), ni)
	if want.Code() != framework.Error {
		t.Errorf("Score without PreScore state: got %v, want Error", want)
	}
	got := pl.ScoreNodes(framework.NewCycleState(), podWith(), []*framework.NodeInfo{ni}, make(framework.NodeScoreList, 1))
	if diff := cmp.Diff(want.AsError().Error(), got.AsError().Error()); diff != "" {
		t.Errorf("ScoreNodes without PreScore state (-Score +ScoreNodes):\n%s", diff)
	}
}
