package interpodaffinity

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

// runScore runs PreScore, Score on every node (in the given order) and
// NormalizeScore; it returns the PreScore status and the final scores.
func runScore(t *testing.T, args config.InterPodAffinityArgs, pod *api.Pod, pods []*api.Pod, nodes []*api.Node) (string, framework.NodeScoreList) {
	t.Helper()
	pl, h := newPlugin(t, args, pods, nodes, teamNamespaces)
	state := framework.NewCycleState()
	var nis []*framework.NodeInfo
	for _, n := range nodes {
		ni, err := h.Snapshot.Get(n.Name)
		if err != nil {
			t.Fatal(err)
		}
		nis = append(nis, ni)
	}
	s := pl.PreScore(state, pod, nis)
	if !s.IsSuccess() {
		return statusString(s), nil
	}
	var list framework.NodeScoreList
	for _, ni := range nis {
		score, s := pl.Score(state, pod, ni)
		if !s.IsSuccess() {
			t.Fatalf("Score(%s): %v", ni.Node().Name, s)
		}
		list = append(list, framework.NodeScore{Name: ni.Node().Name, Score: score})
	}
	if s := pl.ScoreExtensions().NormalizeScore(state, pod, list); !s.IsSuccess() {
		t.Fatalf("NormalizeScore: %v", s)
	}
	return statusString(s), list
}

func scores(pairs ...any) framework.NodeScoreList {
	var out framework.NodeScoreList
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, framework.NodeScore{Name: pairs[i].(string), Score: int64(pairs[i+1].(int))})
	}
	return out
}

func TestPreferredAffinity(t *testing.T) {
	china := map[string]string{"region": "China"}
	india := map[string]string{"region": "India"}
	az1 := map[string]string{"az": "az1"}
	az2 := map[string]string{"az": "az2"}
	chinaAz1 := map[string]string{"region": "China", "az": "az1"}
	s1 := map[string]string{"security": "S1"}
	s2 := map[string]string{"security": "S2"}

	// Term builders mirroring upstream's fixtures.
	stayWithS1InRegion := func(p *st.PodWrapper) *st.PodWrapper {
		return p.PreferredPodAffinity(5, "region", in("security", "S1"))
	}
	stayWithS2InRegion := func(p *st.PodWrapper) *st.PodWrapper {
		return p.PreferredPodAffinity(6, "region", in("security", "S2"))
	}
	affinity3 := func(p *st.PodWrapper) *st.PodWrapper {
		return p.PreferredPodAffinity(8, "region", exprs(
			api.LabelSelectorRequirement{Key: "security", Operator: api.LabelSelectorOpNotIn, Values: []string{"S1"}},
			api.LabelSelectorRequirement{Key: "security", Operator: api.LabelSelectorOpIn, Values: []string{"S2"}})).
			PreferredPodAffinity(2, "region", exprs(
				api.LabelSelectorRequirement{Key: "security", Operator: api.LabelSelectorOpExists},
				api.LabelSelectorRequirement{Key: "wrongkey", Operator: api.LabelSelectorOpDoesNotExist}))
	}
	hardAffinity := func(p *st.PodWrapper) *st.PodWrapper {
		return p.PodAffinity("region", in("security", "S1", "value2")).
			PodAffinity("region", exprs(
				api.LabelSelectorRequirement{Key: "security", Operator: api.LabelSelectorOpExists},
				api.LabelSelectorRequirement{Key: "wrongkey", Operator: api.LabelSelectorOpDoesNotExist}))
	}
	awayFromS1InAz := func(p *st.PodWrapper) *st.PodWrapper {
		return p.PreferredPodAntiAffinity(5, "az", in("security", "S1"))
	}
	awayFromS2InAz := func(p *st.PodWrapper) *st.PodWrapper {
		return p.PreferredPodAntiAffinity(5, "az", in("security", "S2"))
	}
	stayWithS1AwayFromS2 := func(p *st.PodWrapper) *st.PodWrapper {
		return p.PreferredPodAffinity(8, "region", in("security", "S1")).PreferredPodAntiAffinity(5, "az", in("security", "S2"))
	}
	nsSelected := func(p *api.Pod, kind termKind) *api.Pod {
		return termNamespaces(p, kind, []string{"subteam2.team2"}, in("team", "team1"))
	}
	pod := func(name string) *st.PodWrapper { return st.MakePod().Name(name) }
	on := func(name, nodeName string, labels map[string]string) *st.PodWrapper {
		return st.MakePod().Name(name).Node(nodeName).Labels(labels)
	}

	tests := []struct {
		name         string
		args         *config.InterPodAffinityArgs
		pod          *api.Pod
		pods         []*api.Pod
		nodes        []*api.Node
		wantPreScore string
		want         framework.NodeScoreList
	}{
		{
			name:         "no affinity anywhere: PreScore skips",
			pod:          pod("p").Labels(s1).Obj(),
			nodes:        []*api.Node{node("node1", china), node("node2", india), node("node3", az1)},
			wantPreScore: skip,
		},
		{
			name:  "affinity: the matching pod's region scores highest; a node without the key scores 0",
			pod:   stayWithS1InRegion(pod("p").Labels(s1)).Obj(),
			pods:  []*api.Pod{on("e1", "node1", s1).Obj(), on("e2", "node2", s2).Obj(), on("e3", "node3", s1).Obj()},
			nodes: []*api.Node{node("node1", china), node("node2", india), node("node3", az1)},
			want:  scores("node1", 100, "node2", 0, "node3", 0),
		},
		{
			name:  "affinity: every node of the region scores the same",
			pod:   stayWithS1InRegion(pod("p")).Obj(),
			pods:  []*api.Pod{on("e1", "node1", s1).Obj()},
			nodes: []*api.Node{node("node1", china), node("node2", chinaAz1), node("node3", india)},
			want:  scores("node1", 100, "node2", 100, "node3", 0),
		},
		{
			name: "affinity: the region with more matching pods wins",
			pod:  stayWithS2InRegion(pod("p").Labels(s1)).Obj(),
			pods: []*api.Pod{on("e1", "node1", s2).Obj(), on("e2", "node1", s2).Obj(), on("e3", "node2", s2).Obj(),
				on("e4", "node3", s2).Obj(), on("e5", "node4", s2).Obj(), on("e6", "node5", s2).Obj()},
			nodes: []*api.Node{node("node1", china), node("node2", india), node("node3", china), node("node4", china), node("node5", india)},
			want:  scores("node1", 100, "node2", 0, "node3", 100, "node4", 100, "node5", 0),
		},
		{
			// China: the S1 pod matches only the weight-2 term: 2. India:
			// the S2 pod matches both: 10. node3 has no region: 0.
			name:  "affinity: several weighted terms with different operators",
			pod:   affinity3(pod("p").Labels(s1)).Obj(),
			pods:  []*api.Pod{on("e1", "node1", s1).Obj(), on("e2", "node2", s2).Obj(), on("e3", "node3", s1).Obj()},
			nodes: []*api.Node{node("node1", china), node("node2", india), node("node3", az1)},
			want:  scores("node1", 20, "node2", 100, "node3", 0),
		},
		{
			name:  "symmetry: an existing pod's preferred affinity selecting the incoming pod",
			pod:   pod("p").Labels(s2).Obj(),
			pods:  []*api.Pod{stayWithS1InRegion(on("e1", "node1", s1)).Obj(), stayWithS2InRegion(on("e2", "node2", s2)).Obj()},
			nodes: []*api.Node{node("node1", china), node("node2", india), node("node3", az1)},
			want:  scores("node1", 0, "node2", 100, "node3", 0),
		},
		{
			name: "symmetry: an existing pod's namespaceSelector selects the incoming pod's namespace",
			pod:  pod("p").Namespace("subteam1.team1").Labels(s1).Obj(),
			pods: []*api.Pod{nsSelected(stayWithS1InRegion(on("e1", "node1", s1)).Obj(), preferredAffinity),
				stayWithS2InRegion(on("e2", "node2", s2)).Obj()},
			nodes: []*api.Node{node("node1", china), node("node2", india), node("node3", az1)},
			want:  scores("node1", 100, "node2", 0, "node3", 0),
		},
		{
			name: "symmetry: an existing pod's anti-affinity namespaceSelector selects the incoming pod's namespace",
			pod:  pod("p").Namespace("subteam1.team1").Labels(s1).Obj(),
			pods: []*api.Pod{nsSelected(on("e1", "node1", s1).PreferredPodAntiAffinity(5, "region", in("security", "S1")).Obj(), preferredAntiAffinity),
				stayWithS2InRegion(on("e2", "node2", s2)).Obj()},
			nodes: []*api.Node{node("node1", china), node("node2", india), node("node3", az1)},
			want:  scores("node1", 0, "node2", 100, "node3", 100),
		},
		{
			name:  "symmetry: existing pods' required affinity counts with hardPodAffinityWeight",
			pod:   pod("p").Labels(s1).Obj(),
			pods:  []*api.Pod{hardAffinity(on("e1", "node1", s1)).Obj(), hardAffinity(on("e2", "node2", s2)).Obj()},
			nodes: []*api.Node{node("node1", china), node("node2", india), node("node3", az1)},
			want:  scores("node1", 100, "node2", 100, "node3", 0),
		},
		{
			name:  "anti-affinity: the node with the matching pod scores 0",
			pod:   awayFromS1InAz(pod("p").Labels(s1)).Obj(),
			pods:  []*api.Pod{on("e1", "node1", s1).Obj(), on("e2", "node2", s2).Obj()},
			nodes: []*api.Node{node("node1", az1), node("node2", china)},
			want:  scores("node1", 0, "node2", 100),
		},
		{
			name:  "anti-affinity: a matching pod on a node without the key does not count",
			pod:   awayFromS1InAz(pod("p").Labels(s1)).Obj(),
			pods:  []*api.Pod{on("e1", "node1", s1).Obj(), on("e2", "node2", s1).Obj()},
			nodes: []*api.Node{node("node1", az1), node("node2", china)},
			want:  scores("node1", 0, "node2", 100),
		},
		{
			name:  "anti-affinity symmetry",
			pod:   pod("p").Labels(s2).Obj(),
			pods:  []*api.Pod{awayFromS2InAz(on("e1", "node1", s1)).Obj(), awayFromS1InAz(on("e2", "node2", s2)).Obj()},
			nodes: []*api.Node{node("node1", az1), node("node2", az2)},
			want:  scores("node1", 0, "node2", 100),
		},
		{
			name:  "affinity and anti-affinity of the incoming pod",
			pod:   stayWithS1AwayFromS2(pod("p").Labels(s1)).Obj(),
			pods:  []*api.Pod{on("e1", "node1", s1).Obj(), on("e2", "node2", s1).Obj()},
			nodes: []*api.Node{node("node1", china), node("node2", az1)},
			want:  scores("node1", 100, "node2", 0),
		},
		{
			// 8, -5, 8 (symmetry) and -5 (anti symmetry) on the four nodes.
			name: "affinity, anti-affinity and both symmetries together",
			pod:  stayWithS1AwayFromS2(pod("p").Labels(s1)).Obj(),
			pods: []*api.Pod{on("e1", "node1", s1).Obj(), on("e2", "node2", s2).Obj(),
				stayWithS1AwayFromS2(pod("e3").Node("node3")).Obj(), awayFromS1InAz(pod("e4").Node("node4")).Obj()},
			nodes: []*api.Node{node("node1", china), node("node2", az1), node("node3", india), node("node4", az2)},
			want:  scores("node1", 100, "node2", 0, "node3", 100, "node4", 0),
		},
		{
			name:  "all nodes in one domain score equal: everyone gets 0",
			pod:   pod("p").Labels(s1).Obj(),
			pods:  []*api.Pod{on("e1", "node1", s1).Obj(), stayWithS1AwayFromS2(pod("e2").Node("node2")).Obj()},
			nodes: []*api.Node{node("node1", china), node("node2", china)},
			want:  scores("node1", 0, "node2", 0),
		},
		{
			name: "incoming namespaceSelector: only pods in selected namespaces count",
			pod:  nsSelected(stayWithS1InRegion(pod("p").Namespace("subteam1.team1").Labels(s1)).Obj(), preferredAffinity),
			pods: []*api.Pod{
				on("e1", "node1", s1).Namespace("subteam1.team1").Obj(), on("e2", "node1", s1).Namespace("subteam1.team1").Obj(),
				on("e3", "node1", s1).Namespace("subteam1.team2").Obj(), on("e4", "node2", s1).Namespace("subteam2.team1").Obj(),
			},
			nodes: []*api.Node{node("node1", china), node("node2", india)},
			want:  scores("node1", 100, "node2", 0),
		},
		{
			name: "incoming anti-affinity namespaceSelector and namespaces list",
			pod: nsSelected(pod("p").Namespace("subteam1.team1").Labels(s1).PreferredPodAntiAffinity(5, "region", in("security", "S1")).Obj(),
				preferredAntiAffinity),
			pods: []*api.Pod{
				on("e1", "node1", s1).Namespace("subteam1.team1").Obj(), on("e2", "node1", s1).Namespace("subteam2.team2").Obj(),
				on("e3", "node2", s1).Namespace("subteam2.team1").Obj(),
			},
			nodes: []*api.Node{node("node1", china), node("node2", india)},
			want:  scores("node1", 0, "node2", 100),
		},
		{
			name:         "ignorePreferredTermsOfExistingPods without own preferred terms: PreScore skips",
			args:         &config.InterPodAffinityArgs{HardPodAffinityWeight: 1, IgnorePreferredTermsOfExistingPods: true},
			pod:          pod("p").Labels(s2).Obj(),
			pods:         []*api.Pod{stayWithS1AwayFromS2(on("e1", "node1", s1)).Obj(), stayWithS2InRegion(on("e2", "node2", s2)).Obj()},
			nodes:        []*api.Node{node("node1", china), node("node2", india)},
			wantPreScore: skip,
		},
		{
			name:  "existing pods' preferred terms count by default",
			pod:   pod("p").Labels(s2).Obj(),
			pods:  []*api.Pod{stayWithS1AwayFromS2(on("e1", "node1", s1)).Obj(), stayWithS2InRegion(on("e2", "node2", s2)).Obj()},
			nodes: []*api.Node{node("node1", china), node("node2", india)},
			want:  scores("node1", 0, "node2", 100),
		},
		{
			name:         "no nodes: PreScore skips",
			pod:          pod("p").Labels(s2).Obj(),
			wantPreScore: skip,
		},
		{
			// zone a: +7 (incoming affinity) -3 (e2's preferred anti) = 4;
			// zone b: -4 (incoming anti-affinity); zone c: +2 (e4's hard
			// affinity, weight 2); node d has no zone: 0.
			// min -4, max 4: a 100, b 0, c 100*6/8 = 75, d 100*4/8 = 50.
			name: "hand-computed weights and truncating normalization",
			args: &config.InterPodAffinityArgs{HardPodAffinityWeight: 2},
			pod: pod("p").Label("app", "web").PreferredPodAffinity(7, "zone", in("app", "cache")).
				PreferredPodAntiAffinity(4, "zone", in("app", "db")).Obj(),
			pods: []*api.Pod{
				on("e1", "na", map[string]string{"app": "cache"}).Obj(),
				on("e2", "na", map[string]string{"app": "batch"}).PreferredPodAntiAffinity(3, "zone", in("app", "web")).Obj(),
				on("e3", "nb", map[string]string{"app": "db"}).Obj(),
				on("e4", "nc", map[string]string{"app": "api"}).PodAffinity("zone", in("app", "web")).Obj(),
			},
			nodes: []*api.Node{node("na", map[string]string{"zone": "a"}), node("nb", map[string]string{"zone": "b"}),
				node("nc", map[string]string{"zone": "c"}), node("nd", nil)},
			want: scores("na", 100, "nb", 0, "nc", 75, "nd", 50),
		},
		{
			// Raw 3, 2, 0: 100, 100*2/3 = 66.7 truncated to 66, 0.
			name: "truncation towards zero",
			pod:  pod("p").PreferredPodAffinity(1, "zone", in("app", "x")).Obj(),
			pods: []*api.Pod{
				on("e1", "na", map[string]string{"app": "x"}).Obj(), on("e2", "na", map[string]string{"app": "x"}).Obj(),
				on("e3", "na", map[string]string{"app": "x"}).Obj(), on("e4", "nb", map[string]string{"app": "x"}).Obj(),
				on("e5", "nb", map[string]string{"app": "x"}).Obj(),
			},
			nodes: []*api.Node{node("na", map[string]string{"zone": "a"}), node("nb", map[string]string{"zone": "b"}),
				node("nc", map[string]string{"zone": "c"})},
			want: scores("na", 100, "nb", 66, "nc", 0),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := defaultArgs()
			if tt.args != nil {
				args = *tt.args
			}
			if tt.wantPreScore == "" {
				tt.wantPreScore = success
			}
			gotStatus, got := runScore(t, args, tt.pod, tt.pods, tt.nodes)
			if diff := cmp.Diff(tt.wantPreScore, gotStatus); diff != "" {
				t.Errorf("PreScore status (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("normalized scores (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPreferredAffinityWithHardPodAffinityWeight(t *testing.T) {
	china := map[string]string{"region": "China"}
	india := map[string]string{"region": "India"}
	az1 := map[string]string{"az": "az1"}
	nodes := []*api.Node{node("node1", china), node("node2", india), node("node3", az1)}
	// The existing pods live in namespace "" and require service=S1 in
	// namespaces "" and subteam2.team2 or any team1 namespace.
	hard := func(name, nodeName string) *api.Pod {
		p := st.MakePod().Name(name).Namespace("").Node(nodeName).PodAffinity("region", in("service", "S1")).Obj()
		return termNamespaces(p, requiredAffinity, []string{"", "subteam2.team2"}, in("team", "team1"))
	}
	pods := []*api.Pod{hard("e1", "node1"), hard("e2", "node2")}
	s1 := map[string]string{"service": "S1"}

	tests := []struct {
		name         string
		pod          *api.Pod
		weight       int32
		wantPreScore string
		want         framework.NodeScoreList
	}{
		{
			name:   "default weight",
			pod:    st.MakePod().Name("p").Namespace("").Labels(s1).Obj(),
			weight: 1,
			want:   scores("node1", 100, "node2", 100, "node3", 0),
		},
		{
			name:         "zero weight: nothing contributes, PreScore skips",
			pod:          st.MakePod().Name("p").Namespace("").Labels(s1).Obj(),
			weight:       0,
			wantPreScore: skip,
		},
		{
			name:         "incoming pod's namespace not selected",
			pod:          st.MakePod().Name("p").Namespace("subteam1.team2").Labels(s1).Obj(),
			weight:       1,
			wantPreScore: skip,
		},
		{
			name:   "incoming pod's namespace selected by namespaceSelector",
			pod:    st.MakePod().Name("p").Namespace("subteam1.team1").Labels(s1).Obj(),
			weight: 1,
			want:   scores("node1", 100, "node2", 100, "node3", 0),
		},
		{
			name:   "incoming pod's namespace listed",
			pod:    st.MakePod().Name("p").Namespace("subteam2.team2").Labels(s1).Obj(),
			weight: 1,
			want:   scores("node1", 100, "node2", 100, "node3", 0),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.wantPreScore == "" {
				tt.wantPreScore = success
			}
			gotStatus, got := runScore(t, config.InterPodAffinityArgs{HardPodAffinityWeight: tt.weight}, tt.pod, pods, nodes)
			if diff := cmp.Diff(tt.wantPreScore, gotStatus); diff != "" {
				t.Errorf("PreScore status (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("normalized scores (-want +got):\n%s", diff)
			}
		})
	}
}

// PreScore looks at every node of the snapshot, not only the feasible ones
// it is given: a matching pod on an infeasible node still lifts its domain.
func TestPreScoreUsesAllNodes(t *testing.T) {
	nodes := []*api.Node{node("na1", map[string]string{"zone": "a"}), node("na2", map[string]string{"zone": "a"}),
		node("nb1", map[string]string{"zone": "b"})}
	pod := st.MakePod().Name("p").PreferredPodAffinity(10, "zone", in("app", "x")).Obj()
	pl, h := newPlugin(t, defaultArgs(), []*api.Pod{st.MakePod().Name("e").Node("na1").Label("app", "x").Obj()}, nodes, nil)
	na2, _ := h.Snapshot.Get("na2")
	nb1, _ := h.Snapshot.Get("nb1")
	state := framework.NewCycleState()
	if s := pl.PreScore(state, pod, []*framework.NodeInfo{na2, nb1}); !s.IsSuccess() {
		t.Fatalf("PreScore: %v", s)
	}
	var got []int64
	for _, ni := range []*framework.NodeInfo{na2, nb1} {
		sc, _ := pl.Score(state, pod, ni)
		got = append(got, sc)
	}
	if diff := cmp.Diff([]int64{10, 0}, got); diff != "" {
		t.Errorf("raw scores (-want +got):\n%s", diff)
	}
}

func TestScoreWithoutPreScore(t *testing.T) {
	pl, h := newPlugin(t, defaultArgs(), nil, []*api.Node{node("n", nil)}, nil)
	ni, _ := h.Snapshot.Get("n")
	if _, s := pl.Score(framework.NewCycleState(), st.MakePod().Name("p").Obj(), ni); s.Code() != framework.Error {
		t.Errorf("Score() status = %v, want Error", s)
	}
	if s := pl.NormalizeScore(framework.NewCycleState(), st.MakePod().Name("p").Obj(), scores("n", 3)); s.Code() != framework.Error {
		t.Errorf("NormalizeScore() status = %v, want Error", s)
	}
}

// The skips taken before any parsing must not hide a parse error: with no
// pod with affinity anywhere, a pod whose terms do not parse still fails.
func TestParseErrorsWithoutAffinityPodsInCluster(t *testing.T) {
	bogus := &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "a", Operator: "Bogus"}}}
	tests := []struct {
		name          string
		pod           *api.Pod
		wantPreFilter framework.Code
		wantPreScore  framework.Code
	}{
		{name: "required anti-affinity", pod: st.MakePod().Name("p").PodAntiAffinity("zone", bogus).Obj(),
			wantPreFilter: framework.UnschedulableAndUnresolvable, wantPreScore: framework.Error},
		{name: "preferred affinity", pod: st.MakePod().Name("p").PreferredPodAffinity(10, "zone", bogus).Obj(),
			wantPreFilter: framework.UnschedulableAndUnresolvable, wantPreScore: framework.Error},
		{name: "no affinity", pod: st.MakePod().Name("p").Obj(), wantPreFilter: framework.Skip, wantPreScore: framework.Skip},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pl, h := newPlugin(t, defaultArgs(), []*api.Pod{st.MakePod().Name("e").Node("n").Obj()}, []*api.Node{node("n", nil)}, nil)
			if _, s := pl.PreFilter(framework.NewCycleState(), tt.pod, h.Snapshot.List()); s.Code() != tt.wantPreFilter {
				t.Errorf("PreFilter() = %v, want %v", s, tt.wantPreFilter)
			}
			if s := pl.PreScore(framework.NewCycleState(), tt.pod, h.Snapshot.List()); s.Code() != tt.wantPreScore {
				t.Errorf("PreScore() = %v, want %v", s, tt.wantPreScore)
			}
		})
	}
}
