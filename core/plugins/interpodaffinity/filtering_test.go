package interpodaffinity

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

var (
	skip         = framework.NewStatus(framework.Skip).String()
	success      = (*framework.Status)(nil).String()
	affinityFail = framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonAffinityRulesNotMatch).String()
	antiFail     = framework.NewStatus(framework.Unschedulable, ErrReasonAntiAffinityRulesNotMatch).String()
	existingFail = framework.NewStatus(framework.Unschedulable, ErrReasonExistingAntiAffinityRulesNotMatch).String()
)

// runFilter runs PreFilter and, unless it did not succeed, Filter on every
// node; it returns the PreFilter status and the Filter statuses by node.
func runFilter(t *testing.T, pod *api.Pod, pods []*api.Pod, nodes []*api.Node, namespaces []*api.Namespace) (string, []string) {
	t.Helper()
	pl, h := newPlugin(t, defaultArgs(), pods, nodes, namespaces)
	state := framework.NewCycleState()
	_, s := pl.PreFilter(state, pod, h.Snapshot.List())
	if !s.IsSuccess() {
		return statusString(s), nil
	}
	var got []string
	for _, n := range nodes {
		ni, err := h.Snapshot.Get(n.Name)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, statusString(pl.Filter(state, pod, ni)))
	}
	return statusString(s), got
}

func TestRequiredAffinitySingleNode(t *testing.T) {
	securityscan := map[string]string{"service": "securityscan"}
	s1 := map[string]string{"security": "S1"}
	existing := st.MakePod().Name("existing").Labels(securityscan).Node("node1").Obj()
	node1 := node("node1", map[string]string{"region": "r1", "zone": "z11"})
	inTeam1 := in("team", "team1")

	tests := []struct {
		name          string
		pod           *api.Pod
		pods          []*api.Pod
		wantPreFilter string
		wantFilter    string
	}{
		{
			name:          "no required terms and nothing to respect: PreFilter skips",
			pod:           st.MakePod().Name("p").Obj(),
			wantPreFilter: skip,
		},
		{
			name: "affinity In matches the existing pod",
			pod:  st.MakePod().Name("p").Labels(s1).PodAffinity("region", in("service", "securityscan", "value2")).Obj(),
			pods: []*api.Pod{existing},
		},
		{
			name: "affinity NotIn matches the existing pod",
			pod:  st.MakePod().Name("p").Labels(s1).PodAffinity("region", notIn("service", "securityscan3", "value3")).Obj(),
			pods: []*api.Pod{existing},
		},
		{
			name: "affinity limited to another namespace",
			pod: termNamespaces(st.MakePod().Name("p").Labels(s1).PodAffinity("region", in("service", "securityscan", "value2")).Obj(),
				requiredAffinity, []string{"DiffNameSpace"}, nil),
			pods:       []*api.Pod{st.MakePod().Name("e").Namespace("ns").Labels(securityscan).Node("node1").Obj()},
			wantFilter: affinityFail,
		},
		{
			name:       "affinity selector matches no pod and not the pod itself",
			pod:        st.MakePod().Name("p").Labels(securityscan).PodAffinity("region", in("service", "antivirusscan", "value2")).Obj(),
			pods:       []*api.Pod{existing},
			wantFilter: affinityFail,
		},
		{
			name: "several terms with different operators all match",
			pod: st.MakePod().Name("p").Labels(s1).
				PodAffinity("region", exprs(api.LabelSelectorRequirement{Key: "service", Operator: api.LabelSelectorOpExists},
					api.LabelSelectorRequirement{Key: "wrongkey", Operator: api.LabelSelectorOpDoesNotExist})).
				PodAffinity("region", exprs(api.LabelSelectorRequirement{Key: "service", Operator: api.LabelSelectorOpIn, Values: []string{"securityscan"}},
					api.LabelSelectorRequirement{Key: "service", Operator: api.LabelSelectorOpNotIn, Values: []string{"WrongValue"}})).Obj(),
			pods: []*api.Pod{existing},
		},
		{
			name: "requirements of a term are ANDed: one fails",
			pod: st.MakePod().Name("p").Labels(s1).
				PodAffinity("region", exprs(api.LabelSelectorRequirement{Key: "service", Operator: api.LabelSelectorOpExists},
					api.LabelSelectorRequirement{Key: "wrongkey", Operator: api.LabelSelectorOpDoesNotExist})).
				PodAffinity("region", exprs(api.LabelSelectorRequirement{Key: "service", Operator: api.LabelSelectorOpIn, Values: []string{"securityscan2"}},
					api.LabelSelectorRequirement{Key: "service", Operator: api.LabelSelectorOpNotIn, Values: []string{"WrongValue"}})).Obj(),
			pods:       []*api.Pod{existing},
			wantFilter: affinityFail,
		},
		{
			name: "affinity and anti-affinity both satisfied",
			pod: st.MakePod().Name("p").Labels(s1).PodAffinity("region", in("service", "securityscan", "value2")).
				PodAntiAffinity("node", in("service", "antivirusscan", "value2")).Obj(),
			pods: []*api.Pod{existing},
		},
		{
			name: "affinity, anti-affinity and the existing pod's anti-affinity satisfied",
			pod: st.MakePod().Name("p").Labels(s1).PodAffinity("region", in("service", "securityscan", "value2")).
				PodAntiAffinity("node", in("service", "antivirusscan", "value2")).Obj(),
			pods: []*api.Pod{st.MakePod().Name("e").Node("node1").Labels(securityscan).PodAntiAffinity("node", in("service", "antivirusscan", "value2")).Obj()},
		},
		{
			name: "anti-affinity violated by the existing pod in the same zone",
			pod: st.MakePod().Name("p").Labels(s1).PodAffinity("region", in("service", "securityscan", "value2")).
				PodAntiAffinity("zone", in("service", "securityscan", "value2")).Obj(),
			pods:       []*api.Pod{existing},
			wantFilter: antiFail,
		},
		{
			name: "existing pod's anti-affinity selects the incoming pod",
			pod: st.MakePod().Name("p").Labels(securityscan).PodAffinity("region", in("service", "securityscan", "value2")).
				PodAntiAffinity("node", in("service", "antivirusscan", "value2")).Obj(),
			pods:       []*api.Pod{st.MakePod().Name("e").Labels(securityscan).Node("node1").PodAntiAffinity("zone", in("service", "securityscan", "value2")).Obj()},
			wantFilter: existingFail,
		},
		{
			name:       "pod matching its own NotIn term is not enough: it must match all terms itself",
			pod:        st.MakePod().Name("p").Labels(securityscan).PodAffinity("region", notIn("service", "securityscan", "value2")).Obj(),
			pods:       []*api.Pod{st.MakePod().Name("e").Label("service", "securityscan").Node("node2").Obj()},
			wantFilter: affinityFail,
		},
		{
			name:       "existing pod's anti-affinity applies to a pod without any affinity",
			pod:        st.MakePod().Name("p").Labels(securityscan).Obj(),
			pods:       []*api.Pod{st.MakePod().Name("e").Node("node1").Labels(securityscan).PodAntiAffinity("zone", in("service", "securityscan", "value2")).Obj()},
			wantFilter: existingFail,
		},
		{
			name:          "existing pod's anti-affinity does not select the pod: PreFilter skips",
			pod:           st.MakePod().Name("p").Labels(securityscan).Obj(),
			pods:          []*api.Pod{st.MakePod().Name("e").Node("node1").Labels(securityscan).PodAntiAffinity("zone", notIn("service", "securityscan", "value2")).Obj()},
			wantPreFilter: skip,
		},
		{
			name: "incoming anti-affinity is checked before the existing pods' anti-affinity",
			pod: st.MakePod().Name("p").Labels(securityscan).PodAntiAffinity("region", exists("service")).
				PodAntiAffinity("region", exists("security")).Obj(),
			pods:       []*api.Pod{st.MakePod().Name("e").Node("node1").Labels(s1).PodAntiAffinity("zone", exists("security")).Obj()},
			wantFilter: antiFail,
		},
		{
			name: "symmetry a1: incoming term on security matches the existing pod",
			pod: st.MakePod().Name("p").Labels(securityscan).PodAntiAffinity("zone", exists("service")).
				PodAntiAffinity("zone", exists("security")).Obj(),
			pods:       []*api.Pod{st.MakePod().Name("e").Node("node1").Labels(s1).PodAntiAffinity("zone", exists("security")).Obj()},
			wantFilter: antiFail,
		},
		{
			name:       "symmetry a2: only the existing pod's term on service selects the incoming pod",
			pod:        st.MakePod().Name("p").Labels(s1).PodAntiAffinity("zone", exists("security")).Obj(),
			pods:       []*api.Pod{st.MakePod().Name("e").Node("node1").Labels(securityscan).PodAntiAffinity("zone", exists("service")).PodAntiAffinity("zone", exists("security")).Obj()},
			wantFilter: existingFail,
		},
		{
			name: "symmetry b1: terms match each other partially",
			pod: st.MakePod().Name("p").Labels(map[string]string{"abc": "", "xyz": ""}).PodAntiAffinity("zone", exists("abc")).
				PodAntiAffinity("zone", exists("def")).Obj(),
			pods: []*api.Pod{st.MakePod().Name("e").Node("node1").Labels(map[string]string{"def": "", "xyz": ""}).
				PodAntiAffinity("zone", exists("abc")).PodAntiAffinity("zone", exists("def")).Obj()},
			wantFilter: antiFail,
		},
		{
			name: "symmetry b2: terms match each other partially",
			pod: st.MakePod().Name("p").Labels(map[string]string{"def": "", "xyz": ""}).PodAntiAffinity("zone", exists("abc")).
				PodAntiAffinity("zone", exists("def")).Obj(),
			pods: []*api.Pod{st.MakePod().Name("e").Node("node1").Labels(map[string]string{"abc": "", "xyz": ""}).
				PodAntiAffinity("zone", exists("abc")).PodAntiAffinity("zone", exists("def")).Obj()},
			wantFilter: antiFail,
		},
		{
			name: "affinity namespaceSelector selects the existing pod's namespace",
			pod: termNamespaces(st.MakePod().Name("p").Labels(s1).PodAffinity("region", in("service", "securityscan", "value2")).Obj(),
				requiredAffinity, nil, inTeam1),
			pods: []*api.Pod{st.MakePod().Name("e").Namespace("subteam1.team1").Labels(securityscan).Node("node1").Obj()},
		},
		{
			name: "affinity namespaceSelector does not select the existing pod's namespace",
			pod: termNamespaces(st.MakePod().Name("p").Labels(s1).PodAffinity("region", in("service", "securityscan", "value2")).Obj(),
				requiredAffinity, nil, inTeam1),
			pods:       []*api.Pod{st.MakePod().Name("e").Namespace("subteam1.team2").Labels(securityscan).Node("node1").Obj()},
			wantFilter: affinityFail,
		},
		{
			name: "anti-affinity namespaceSelector selects the existing pod's namespace",
			pod: termNamespaces(st.MakePod().Name("p").Namespace("subteam1.team1").Labels(s1).PodAntiAffinity("zone", in("service", "securityscan", "value2")).Obj(),
				requiredAntiAffinity, nil, inTeam1),
			pods:       []*api.Pod{st.MakePod().Name("e").Namespace("subteam2.team1").Labels(securityscan).Node("node1").Obj()},
			wantFilter: antiFail,
		},
		{
			name: "empty anti-affinity namespaceSelector selects all namespaces",
			pod: termNamespaces(st.MakePod().Name("p").Namespace("subteam1.team1").Labels(s1).PodAntiAffinity("zone", in("service", "securityscan", "value2")).Obj(),
				requiredAntiAffinity, nil, &api.LabelSelector{}),
			pods:       []*api.Pod{st.MakePod().Name("e").Namespace("subteam2.team1").Labels(securityscan).Node("node1").Obj()},
			wantFilter: antiFail,
		},
		{
			name: "anti-affinity namespaceSelector does not select the existing pod's namespace",
			pod: termNamespaces(st.MakePod().Name("p").Namespace("subteam1.team1").Labels(s1).PodAntiAffinity("zone", in("service", "securityscan", "value2")).Obj(),
				requiredAntiAffinity, nil, inTeam1),
			pods: []*api.Pod{st.MakePod().Name("e").Namespace("subteam1.team2").Labels(securityscan).Node("node1").Obj()},
		},
		{
			name: "anti-affinity namespaceSelector on kubernetes.io/metadata.name",
			pod: termNamespaces(st.MakePod().Name("p").Labels(s1).PodAntiAffinity("zone", in("service", "securityscan")).Obj(),
				requiredAntiAffinity, nil, in(api.LabelMetadataName, "subteam1.team2")),
			pods:       []*api.Pod{st.MakePod().Name("e").Namespace("subteam1.team2").Labels(securityscan).Node("node1").Obj()},
			wantFilter: antiFail,
		},
		{
			// Upstream keeps the selector after unrolling it and also
			// matches it against no labels: NotIn then selects everything.
			name: "anti-affinity namespaceSelector with only NotIn selects even the excluded namespace",
			pod: termNamespaces(st.MakePod().Name("p").Labels(s1).PodAntiAffinity("zone", in("service", "securityscan")).Obj(),
				requiredAntiAffinity, nil, notIn("team", "team2")),
			pods:       []*api.Pod{st.MakePod().Name("e").Namespace("subteam1.team2").Labels(securityscan).Node("node1").Obj()},
			wantFilter: antiFail,
		},
		{
			name: "anti-affinity namespaces list plus namespaceSelector: the list alone selects",
			pod: termNamespaces(st.MakePod().Name("p").Labels(s1).PodAntiAffinity("zone", in("service", "securityscan")).Obj(),
				requiredAntiAffinity, []string{"subteam2.team2"}, inTeam1),
			pods:       []*api.Pod{st.MakePod().Name("e").Namespace("subteam2.team2").Labels(securityscan).Node("node1").Obj()},
			wantFilter: antiFail,
		},
		{
			name: "existing pod's anti-affinity namespaceSelector selects the incoming pod's namespace",
			pod:  st.MakePod().Name("p").Namespace("subteam2.team1").Labels(s1).Obj(),
			pods: []*api.Pod{termNamespaces(st.MakePod().Name("e").Namespace("other").Node("node1").PodAntiAffinity("zone", in("security", "S1")).Obj(),
				requiredAntiAffinity, nil, inTeam1)},
			wantFilter: existingFail,
		},
		{
			name: "existing pod's anti-affinity namespaceSelector does not select the incoming pod's namespace",
			pod:  st.MakePod().Name("p").Namespace("subteam2.team2").Labels(s1).Obj(),
			pods: []*api.Pod{termNamespaces(st.MakePod().Name("e").Namespace("other").Node("node1").PodAntiAffinity("zone", in("security", "S1")).Obj(),
				requiredAntiAffinity, nil, inTeam1)},
			wantPreFilter: skip,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.wantPreFilter == "" {
				tt.wantPreFilter = success
			}
			want := []string{success}
			if tt.wantFilter != "" {
				want = []string{tt.wantFilter}
			}
			if tt.wantPreFilter != success {
				want = nil
			}
			gotPre, got := runFilter(t, tt.pod, tt.pods, []*api.Node{node1}, teamNamespaces)
			if diff := cmp.Diff(tt.wantPreFilter, gotPre); diff != "" {
				t.Errorf("PreFilter status (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Filter status (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRequiredAffinityMultipleNodes(t *testing.T) {
	china := map[string]string{"region": "China"}
	chinaAz1 := map[string]string{"region": "China", "az": "az1"}
	india := map[string]string{"region": "India"}
	r1z1 := func(name string) *api.Node {
		return node(name, map[string]string{"region": "r1", "zone": "z1", "hostname": name})
	}

	tests := []struct {
		name          string
		pod           *api.Pod
		pods          []*api.Pod
		nodes         []*api.Node
		wantPreFilter string
		want          []string
	}{
		{
			name:  "every node in the matching pod's region fits; a node in another region does not",
			pod:   st.MakePod().Name("p").PodAffinity("region", in("foo", "bar")).Obj(),
			pods:  []*api.Pod{st.MakePod().Name("p1").Node("node1").Label("foo", "bar").Obj()},
			nodes: []*api.Node{node("node1", china), node("node2", chinaAz1), node("node3", india)},
			want:  []string{success, success, affinityFail},
		},
		{
			name: "first pod of a self-affine group fits anywhere when no pod matches all its terms",
			pod: st.MakePod().Name("p").Labels(map[string]string{"foo": "bar", "service": "securityscan"}).
				PodAffinity("zone", in("foo", "bar")).PodAffinity("zone", in("service", "securityscan")).Obj(),
			pods: []*api.Pod{st.MakePod().Name("p1").Node("nodeA").Label("foo", "bar").Obj()},
			nodes: []*api.Node{node("nodeA", map[string]string{"zone": "az1", "hostname": "h1"}),
				node("nodeB", map[string]string{"zone": "az2", "hostname": "h2"})},
			want: []string{success, success},
		},
		{
			name: "first pod of a self-affine group still needs the topology key on the node",
			pod: st.MakePod().Name("p").Labels(map[string]string{"foo": "bar", "service": "securityscan"}).
				PodAffinity("zone", in("foo", "bar")).PodAffinity("zone", in("service", "securityscan")).Obj(),
			pods: []*api.Pod{st.MakePod().Name("p1").Node("nodeA").Label("foo", "bar").Obj()},
			nodes: []*api.Node{node("nodeA", map[string]string{"zoneLabel": "az1", "hostname": "h1"}),
				node("nodeB", map[string]string{"zoneLabel": "az2", "hostname": "h2"})},
			want: []string{affinityFail, affinityFail},
		},
		{
			name: "self-affine pod cannot start elsewhere once a matching pod exists",
			pod:  st.MakePod().Name("p").Label("app", "web").PodAffinity("zone", in("app", "web")).Obj(),
			pods: []*api.Pod{st.MakePod().Name("w1").Node("nodeA").Label("app", "web").Obj()},
			nodes: []*api.Node{node("nodeA", map[string]string{"zone": "z1"}), node("nodeB", map[string]string{"zone": "z2"}),
				node("nodeC", nil)},
			want: []string{success, affinityFail, affinityFail},
		},
		{
			name: "anti-affinity blocks the whole region of the matching pod",
			pod:  st.MakePod().Name("p").PodAntiAffinity("region", in("foo", "abc")).Obj(),
			pods: []*api.Pod{st.MakePod().Name("e").Node("nodeA").Label("foo", "abc").Obj()},
			nodes: []*api.Node{node("nodeA", map[string]string{"region": "r1", "hostname": "nodeA"}),
				node("nodeB", map[string]string{"region": "r1", "hostname": "nodeB"})},
			want: []string{antiFail, antiFail},
		},
		{
			name: "anti-affinity: any term matching is enough",
			pod:  st.MakePod().Name("p").PodAntiAffinity("region", in("foo", "abc")).PodAntiAffinity("zone", in("service", "securityscan")).Obj(),
			pods: []*api.Pod{st.MakePod().Name("e").Node("nodeA").Labels(map[string]string{"foo": "abc", "service": "securityscan"}).Obj()},
			nodes: []*api.Node{node("nodeA", map[string]string{"region": "r1", "zone": "z1", "hostname": "nodeA"}),
				node("nodeB", map[string]string{"region": "r1", "zone": "z2", "hostname": "nodeB"})},
			want: []string{antiFail, antiFail},
		},
		{
			name:  "anti-affinity: another region fits",
			pod:   st.MakePod().Name("p").PodAntiAffinity("region", in("foo", "abc")).Obj(),
			pods:  []*api.Pod{st.MakePod().Name("e").Node("nodeA").Label("foo", "abc").Obj()},
			nodes: []*api.Node{node("nodeA", china), node("nodeB", chinaAz1), node("nodeC", india)},
			want:  []string{antiFail, antiFail, success},
		},
		{
			name: "anti-affinity in another namespace does not select the incoming pod",
			pod:  st.MakePod().Name("p").Namespace("NS1").Label("foo", "123").PodAntiAffinity("region", in("foo", "bar")).Obj(),
			pods: []*api.Pod{
				st.MakePod().Name("a").Node("nodeA").Namespace("NS1").Label("foo", "bar").Obj(),
				st.MakePod().Name("c").Node("nodeC").Namespace("NS2").PodAntiAffinity("region", in("foo", "123")).Obj(),
			},
			nodes: []*api.Node{node("nodeA", china), node("nodeB", chinaAz1), node("nodeC", india)},
			want:  []string{antiFail, antiFail, success},
		},
		{
			name:          "existing pod's anti-affinity on a key no node has counts nowhere",
			pod:           st.MakePod().Name("p").Label("foo", "").Obj(),
			pods:          []*api.Pod{st.MakePod().Name("e").Node("nodeA").PodAntiAffinity("invalid-node-label", exists("foo")).Obj()},
			nodes:         []*api.Node{r1z1("nodeA"), r1z1("nodeB")},
			wantPreFilter: skip,
		},
		{
			name:  "incoming anti-affinity on a key no node has blocks nothing",
			pod:   st.MakePod().Name("p").PodAntiAffinity("invalid-node-label", exists("foo")).Obj(),
			pods:  []*api.Pod{st.MakePod().Name("e").Node("nodeA").Label("foo", "").Obj()},
			nodes: []*api.Node{r1z1("nodeA"), r1z1("nodeB")},
			want:  []string{success, success},
		},
		{
			name: "existing pods' terms on zone and region block both nodes",
			pod:  st.MakePod().Name("p").Label("foo", "").Label("bar", "").Obj(),
			pods: []*api.Pod{
				st.MakePod().Name("e1").Node("nodeA").PodAntiAffinity("zone", exists("foo")).Obj(),
				st.MakePod().Name("e2").Node("nodeA").PodAntiAffinity("region", exists("bar")).Obj(),
			},
			nodes: []*api.Node{node("nodeA", map[string]string{"region": "r1", "zone": "z1"}), node("nodeB", map[string]string{"region": "r1", "zone": "z2"})},
			want:  []string{existingFail, existingFail},
		},
		{
			name: "incoming terms on zone and region block both nodes",
			pod:  st.MakePod().Name("p").PodAntiAffinity("zone", exists("foo")).PodAntiAffinity("region", exists("bar")).Obj(),
			pods: []*api.Pod{
				st.MakePod().Name("e1").Node("nodeA").Label("foo", "").Obj(),
				st.MakePod().Name("e2").Node("nodeB").Label("bar", "").Obj(),
			},
			nodes: []*api.Node{node("nodeA", map[string]string{"region": "r1", "zone": "z1"}), node("nodeB", map[string]string{"region": "r1", "zone": "z2"})},
			want:  []string{antiFail, antiFail},
		},
		{
			name: "existing pod's term counts only where its key exists",
			pod:  st.MakePod().Name("p").Label("foo", "").Label("bar", "").Obj(),
			pods: []*api.Pod{st.MakePod().Name("e").Node("nodeA").PodAntiAffinity("invalid-node-label", exists("foo")).
				PodAntiAffinity("zone", exists("bar")).Obj()},
			nodes: []*api.Node{node("nodeA", map[string]string{"region": "r1", "zone": "z1"}), node("nodeB", map[string]string{"region": "r1", "zone": "z2"})},
			want:  []string{existingFail, success},
		},
		{
			name:  "incoming term counts only where its key exists",
			pod:   st.MakePod().Name("p").PodAntiAffinity("invalid-node-label", exists("foo")).PodAntiAffinity("zone", exists("bar")).Obj(),
			pods:  []*api.Pod{st.MakePod().Name("e").Node("nodeA").Labels(map[string]string{"foo": "", "bar": ""}).Obj()},
			nodes: []*api.Node{node("nodeA", map[string]string{"region": "r1", "zone": "z1"}), node("nodeB", map[string]string{"region": "r1", "zone": "z2"})},
			want:  []string{antiFail, success},
		},
		{
			name: "existing pods' anti-affinity in two zones leaves the third",
			pod:  st.MakePod().Name("p").Label("foo", "").Label("bar", "").Obj(),
			pods: []*api.Pod{
				st.MakePod().Name("e1").Node("nodeA").PodAntiAffinity("zone", exists("foo")).PodAntiAffinity("zone", exists("labelA")).Obj(),
				st.MakePod().Name("e2").Node("nodeB").PodAntiAffinity("zone", exists("bar")).PodAntiAffinity("zone", exists("labelB")).Obj(),
			},
			nodes: []*api.Node{node("nodeA", map[string]string{"region": "r1", "zone": "z1"}), node("nodeB", map[string]string{"region": "r1", "zone": "z2"}),
				node("nodeC", map[string]string{"region": "r1", "zone": "z3"})},
			want: []string{existingFail, existingFail, success},
		},
		{
			name:  "affinity: one pod matches all terms",
			pod:   st.MakePod().Name("p").PodAffinity("region", exists("foo")).PodAffinity("zone", exists("bar")).Obj(),
			pods:  []*api.Pod{st.MakePod().Name("pod1").Labels(map[string]string{"foo": "", "bar": ""}).Node("nodeA").Obj()},
			nodes: []*api.Node{node("nodeA", map[string]string{"region": "r1", "zone": "z1"}), node("nodeB", map[string]string{"region": "r1", "zone": "z1"})},
			want:  []string{success, success},
		},
		{
			name: "affinity: the terms must be matched by a single pod",
			pod:  st.MakePod().Name("p").PodAffinity("region", exists("foo")).PodAffinity("zone", exists("bar")).Obj(),
			pods: []*api.Pod{
				st.MakePod().Name("pod1").Node("nodeA").Label("foo", "").Obj(),
				st.MakePod().Name("pod2").Node("nodeB").Label("bar", "").Obj(),
			},
			nodes: []*api.Node{node("nodeA", map[string]string{"region": "r1", "zone": "z1"}), node("nodeB", map[string]string{"region": "r1", "zone": "z2"})},
			want:  []string{affinityFail, affinityFail},
		},
		{
			name: "existing anti-affinity pods in one zone: the pending pod fits only the other zone",
			pod:  st.MakePod().Name("p").Label("app", "db").Obj(),
			pods: []*api.Pod{st.MakePod().Name("e").Node("a1").Label("app", "cache").
				PodAntiAffinity(api.LabelTopologyZone, in("app", "db")).Obj()},
			nodes: []*api.Node{st.MakeNode().Name("a1").Zone("a").Obj(), st.MakeNode().Name("a2").Zone("a").Obj(),
				st.MakeNode().Name("b1").Zone("b").Obj()},
			want: []string{existingFail, existingFail, success},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.wantPreFilter == "" {
				tt.wantPreFilter = success
			}
			gotPre, got := runFilter(t, tt.pod, tt.pods, tt.nodes, nil)
			if diff := cmp.Diff(tt.wantPreFilter, gotPre); diff != "" {
				t.Errorf("PreFilter status (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Filter statuses by node (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFilterWithoutPreFilter(t *testing.T) {
	pl, h := newPlugin(t, defaultArgs(), nil, []*api.Node{node("n", nil)}, nil)
	ni, _ := h.Snapshot.Get("n")
	got := pl.Filter(framework.NewCycleState(), st.MakePod().Name("p").Obj(), ni)
	if got.Code() != framework.Error {
		t.Errorf("Filter() = %v, want an Error status", got)
	}
}

func TestPreFilterParseError(t *testing.T) {
	pod := st.MakePod().Name("p").PodAffinity("zone", &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{
		{Key: "a", Operator: "Bogus"}}}).Obj()
	pl, h := newPlugin(t, defaultArgs(), nil, []*api.Node{node("n", nil)}, nil)
	_, s := pl.PreFilter(framework.NewCycleState(), pod, h.Snapshot.List())
	if s.Code() != framework.UnschedulableAndUnresolvable || len(s.Reasons()) != 1 || s.Reasons()[0][:len("parsing pod: ")] != "parsing pod: " {
		t.Errorf("PreFilter() = %v, want UnschedulableAndUnresolvable \"parsing pod: ...\"", s)
	}
}

// counts is the comparable part of a preFilterState.
type counts struct {
	Existing, Affinity, Anti map[string]int64
}

func countsOf(s *preFilterState) counts {
	flat := func(m topologyToMatchedTermCount) map[string]int64 {
		out := map[string]int64{}
		for k, v := range m {
			out[k.key+"="+k.value] = v
		}
		return out
	}
	return counts{flat(s.existingAntiAffinityCounts), flat(s.affinityCounts), flat(s.antiAffinityCounts)}
}

func TestPreFilterStateAddRemovePod(t *testing.T) {
	l1 := map[string]string{"region": "r1", "zone": "z11"}
	l2 := map[string]string{"region": "r1", "zone": "z12"}
	l3 := map[string]string{"region": "r2", "zone": "z21"}
	nodes := []*api.Node{node("nodeA", l1), node("nodeB", l2), node("nodeC", l3)}
	fooBar := map[string]string{"foo": "bar"}
	// antiFooBar adds one anti-affinity term; complex adds two terms (anti
	// or affinity) like upstream's antiAffinityComplex/affinityComplex.
	antiFooBar := func(p *st.PodWrapper) *st.PodWrapper { return p.PodAntiAffinity("region", in("foo", "bar")) }
	antiComplex := func(p *st.PodWrapper) *st.PodWrapper {
		return p.PodAntiAffinity("region", in("foo", "bar", "buzz")).PodAntiAffinity("zone", notIn("service", "bar", "security", "test"))
	}
	affComplex := func(p *st.PodWrapper) *st.PodWrapper {
		return p.PodAffinity("region", in("foo", "bar", "buzz")).PodAffinity("zone", notIn("service", "bar", "security", "test"))
	}

	tests := []struct {
		name     string
		pending  *api.Pod
		existing []*api.Pod
		added    *api.Pod
		want     counts // after adding
	}{
		{
			name:    "anti-affinity counts",
			pending: antiFooBar(st.MakePod().Name("pending").Labels(fooBar)).Obj(),
			existing: []*api.Pod{
				st.MakePod().Name("p1").Labels(fooBar).Node("nodeA").Obj(),
				antiFooBar(st.MakePod().Name("p2").Node("nodeC")).Obj(),
			},
			added: antiFooBar(st.MakePod().Name("added").Labels(fooBar).Node("nodeB")).Obj(),
			want: counts{
				Existing: map[string]int64{"region=r1": 1, "region=r2": 1},
				Affinity: map[string]int64{},
				Anti:     map[string]int64{"region=r1": 2},
			},
		},
		{
			name:    "anti-affinity counts with two terms",
			pending: antiComplex(st.MakePod().Name("pending").Labels(fooBar)).Obj(),
			existing: []*api.Pod{
				st.MakePod().Name("p1").Labels(fooBar).Node("nodeA").Obj(),
				antiFooBar(st.MakePod().Name("p2").Node("nodeC")).Obj(),
			},
			added: antiComplex(st.MakePod().Name("added").Labels(fooBar).Node("nodeA")).Obj(),
			want: counts{
				Existing: map[string]int64{"region=r1": 1, "zone=z11": 1, "region=r2": 1},
				Affinity: map[string]int64{},
				Anti:     map[string]int64{"region=r1": 2, "zone=z11": 2, "zone=z21": 1},
			},
		},
		{
			name:    "affinity counts",
			pending: affComplex(st.MakePod().Name("pending").Labels(fooBar)).Obj(),
			existing: []*api.Pod{
				st.MakePod().Name("p1").Labels(fooBar).Node("nodeA").Obj(),
				affComplex(antiFooBar(st.MakePod().Name("p2").Node("nodeC"))).Obj(),
			},
			added: antiComplex(st.MakePod().Name("added").Labels(fooBar).Node("nodeA")).Obj(),
			want: counts{
				Existing: map[string]int64{"region=r1": 1, "zone=z11": 1, "region=r2": 1},
				Affinity: map[string]int64{"region=r1": 2, "zone=z11": 2},
				Anti:     map[string]int64{},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prefilter := func(pods []*api.Pod) (*InterPodAffinity, *st.Handle, *framework.CycleState) {
				pl, h := newPlugin(t, defaultArgs(), pods, nodes, nil)
				state := framework.NewCycleState()
				if _, s := pl.PreFilter(state, tt.pending, h.Snapshot.List()); !s.IsSuccess() {
					t.Fatalf("PreFilter: %v", s)
				}
				return pl, h, state
			}
			read := func(state *framework.CycleState) *preFilterState {
				s, err := getPreFilterState(state)
				if err != nil {
					t.Fatal(err)
				}
				return s
			}
			_, _, allState := prefilter(append(append([]*api.Pod(nil), tt.existing...), tt.added))
			pl, h, state := prefilter(tt.existing)
			before := countsOf(read(state))
			ni, _ := h.Snapshot.Get(tt.added.Spec.NodeName)

			if s := pl.AddPod(state, tt.pending, framework.NewPodInfo(tt.added), ni); !s.IsSuccess() {
				t.Fatalf("AddPod: %v", s)
			}
			if diff := cmp.Diff(tt.want, countsOf(read(state))); diff != "" {
				t.Errorf("counts after AddPod (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(countsOf(read(allState)), countsOf(read(state))); diff != "" {
				t.Errorf("AddPod differs from PreFilter with the pod present (-want +got):\n%s", diff)
			}
			if s := pl.RemovePod(state, tt.pending, framework.NewPodInfo(tt.added), ni); !s.IsSuccess() {
				t.Fatalf("RemovePod: %v", s)
			}
			if diff := cmp.Diff(before, countsOf(read(state))); diff != "" {
				t.Errorf("counts after RemovePod (-want +got):\n%s", diff)
			}
		})
	}
}

// Preemption removes victims on a cloned state and re-runs Filter: removing
// the only pod whose anti-affinity blocks a zone must open that zone, and
// must not leak into the original state.
func TestRemovePodOpensZoneOnClone(t *testing.T) {
	nodes := []*api.Node{st.MakeNode().Name("a1").Zone("a").Obj(), st.MakeNode().Name("b1").Zone("b").Obj()}
	blocker := st.MakePod().Name("blocker").Node("a1").PodAntiAffinity(api.LabelTopologyZone, in("app", "web")).Obj()
	web := st.MakePod().Name("web-1").Node("b1").Label("app", "web").Obj()
	pod := st.MakePod().Name("web-2").Label("app", "web").PodAntiAffinity(api.LabelHostname, in("app", "web")).Obj()
	pl, h := newPlugin(t, defaultArgs(), []*api.Pod{blocker, web}, nodes, nil)
	state := framework.NewCycleState()
	if _, s := pl.PreFilter(state, pod, h.Snapshot.List()); !s.IsSuccess() {
		t.Fatalf("PreFilter: %v", s)
	}
	a1, _ := h.Snapshot.Get("a1")
	b1, _ := h.Snapshot.Get("b1")
	filter := func(st *framework.CycleState) []string {
		return []string{statusString(pl.Filter(st, pod, a1)), statusString(pl.Filter(st, pod, b1))}
	}
	if diff := cmp.Diff([]string{existingFail, antiFail}, filter(state)); diff != "" {
		t.Fatalf("before removal (-want +got):\n%s", diff)
	}

	clone := state.Clone()
	if s := pl.RemovePod(clone, pod, framework.NewPodInfo(blocker), a1); !s.IsSuccess() {
		t.Fatalf("RemovePod: %v", s)
	}
	if s := pl.RemovePod(clone, pod, framework.NewPodInfo(web), b1); !s.IsSuccess() {
		t.Fatalf("RemovePod: %v", s)
	}
	if diff := cmp.Diff([]string{success, success}, filter(clone)); diff != "" {
		t.Errorf("clone after removals (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{existingFail, antiFail}, filter(state)); diff != "" {
		t.Errorf("original after removals on the clone (-want +got):\n%s", diff)
	}

	// Adding a nominated pod that matches the anti-affinity blocks a node again.
	nominated := st.MakePod().Name("web-3").Label("app", "web").Obj()
	if s := pl.AddPod(clone, pod, framework.NewPodInfo(nominated), a1); !s.IsSuccess() {
		t.Fatalf("AddPod: %v", s)
	}
	if diff := cmp.Diff([]string{antiFail, success}, filter(clone)); diff != "" {
		t.Errorf("clone after AddPod (-want +got):\n%s", diff)
	}
}

func TestIncomingAffinityAntiAffinityCounts(t *testing.T) {
	mk := func(labels ...string) *api.Pod {
		p := st.MakePod().Name("normal").Node("nodeA")
		for _, l := range labels {
			p.Label(l, "")
		}
		return p.Obj()
	}
	podA, podB, podAB := mk("aaa"), mk("bbb"), mk("aaa", "bbb")
	nodeA := node("nodeA", map[string]string{"hostname": "nodeA"})

	tests := []struct {
		name         string
		existing     []*api.Pod
		pod          *api.Pod
		wantAffinity map[string]int64
		wantAnti     map[string]int64
	}{
		{
			name:         "no pods, no terms",
			pod:          st.MakePod().Name("aaa-normal").Obj(),
			wantAffinity: map[string]int64{}, wantAnti: map[string]int64{},
		},
		{
			name:         "no terms",
			existing:     []*api.Pod{podA},
			pod:          st.MakePod().Name("aaa-normal").Obj(),
			wantAffinity: map[string]int64{}, wantAnti: map[string]int64{},
		},
		{
			name:         "no pod matches",
			existing:     []*api.Pod{podB},
			pod:          st.MakePod().Name("x").PodAffinity("hostname", exists("aaa")).PodAntiAffinity("hostname", exists("aaa")).Obj(),
			wantAffinity: map[string]int64{}, wantAnti: map[string]int64{},
		},
		{
			name:         "one term each",
			existing:     []*api.Pod{podA},
			pod:          st.MakePod().Name("x").PodAffinity("hostname", exists("aaa")).PodAntiAffinity("hostname", exists("aaa")).Obj(),
			wantAffinity: map[string]int64{"hostname=nodeA": 1}, wantAnti: map[string]int64{"hostname=nodeA": 1},
		},
		{
			name:     "a pod matching all affinity terms counts once per term",
			existing: []*api.Pod{podAB},
			pod: st.MakePod().Name("x").PodAffinity("hostname", exists("aaa")).PodAffinity("hostname", exists("bbb")).
				PodAntiAffinity("hostname", exists("aaa")).Obj(),
			wantAffinity: map[string]int64{"hostname=nodeA": 2}, wantAnti: map[string]int64{"hostname=nodeA": 1},
		},
		{
			name:     "partial affinity match counts nothing; anti-affinity counts per term",
			existing: []*api.Pod{podA},
			pod: st.MakePod().Name("x").PodAffinity("hostname", exists("aaa")).PodAffinity("hostname", exists("bbb")).
				PodAntiAffinity("hostname", exists("aaa")).PodAntiAffinity("hostname", exists("bbb")).Obj(),
			wantAffinity: map[string]int64{}, wantAnti: map[string]int64{"hostname=nodeA": 1},
		},
		{
			name:     "anti-affinity with one of two terms matching",
			existing: []*api.Pod{podAB},
			pod: st.MakePod().Name("x").PodAffinity("hostname", exists("aaa")).PodAffinity("hostname", exists("ccc")).
				PodAntiAffinity("hostname", exists("aaa")).PodAntiAffinity("hostname", exists("ccc")).Obj(),
			wantAffinity: map[string]int64{}, wantAnti: map[string]int64{"hostname=nodeA": 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pl, h := newPlugin(t, defaultArgs(), tt.existing, []*api.Node{nodeA}, nil)
			s := &preFilterState{podInfo: framework.NewPodInfo(tt.pod), ns: newNamespaces(pl.handle.Cluster())}
			aff, anti := s.incomingAffinityAntiAffinityCounts(h.Snapshot.List())
			got := countsOf(&preFilterState{affinityCounts: aff, antiAffinityCounts: anti})
			want := counts{Existing: map[string]int64{}, Affinity: tt.wantAffinity, Anti: tt.wantAnti}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("counts (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPreFilterStateClone(t *testing.T) {
	src := &preFilterState{
		existingAntiAffinityCounts: topologyToMatchedTermCount{{key: "name", value: "node1"}: 1},
		affinityCounts:             topologyToMatchedTermCount{{key: "name", value: "nodeA"}: 1},
		antiAffinityCounts:         topologyToMatchedTermCount{{key: "name", value: "nodeN"}: 3},
	}
	clone := src.Clone().(*preFilterState)
	want := countsOf(src)
	clone.existingAntiAffinityCounts[topologyPair{key: "name", value: "node1"}]++
	clone.affinityCounts[topologyPair{key: "name", value: "nodeB"}] = 1
	delete(clone.antiAffinityCounts, topologyPair{key: "name", value: "nodeN"})
	if diff := cmp.Diff(want, countsOf(src)); diff != "" {
		t.Errorf("changing the clone changed the source (-want +got):\n%s", diff)
	}
}

// The framework swaps in a new snapshot every cycle; the plugin must read
// the current one, not the one it was built with.
func TestPreFilterReadsCurrentSnapshot(t *testing.T) {
	nodes := []*api.Node{st.MakeNode().Name("a1").Zone("a").Obj()}
	pod := st.MakePod().Name("p").Label("app", "db").Obj()
	pl, h := newPlugin(t, defaultArgs(), nil, nodes, nil)
	h.Snapshot = framework.NewSnapshot([]*api.Pod{st.MakePod().Name("e").Node("a1").
		PodAntiAffinity(api.LabelTopologyZone, in("app", "db")).Obj()}, nodes)
	state := framework.NewCycleState()
	if _, s := pl.PreFilter(state, pod, h.Snapshot.List()); !s.IsSuccess() {
		t.Fatalf("PreFilter() = %v, want Success (the new snapshot holds an anti-affinity pod)", s)
	}
	a1, _ := h.Snapshot.Get("a1")
	if diff := cmp.Diff(existingFail, statusString(pl.Filter(state, pod, a1))); diff != "" {
		t.Errorf("Filter status (-want +got):\n%s", diff)
	}
}
