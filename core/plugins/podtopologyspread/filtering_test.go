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

var (
	rejected     = framework.NewStatus(framework.Unschedulable, ErrReasonConstraintsNotMatch)
	missingLabel = framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonNodeLabelNotMatch)
	noSchedule   = api.Taint{Key: "node.kubernetes.io/unschedulable", Effect: api.TaintEffectNoSchedule}
)

// TestFilter runs PreFilter over all nodes and Filter on each node.
func TestFilter(t *testing.T) {
	tests := []struct {
		name    string
		pod     *api.Pod
		pods    []*api.Pod
		nodes   []*api.Node
		args    *config.PodTopologySpreadArgs
		cluster *framework.Cluster
		// wantPreFilter is PreFilter's status; on Skip Filter is not run.
		wantPreFilter *framework.Status
		// want maps every node to its Filter status (nil: it fits).
		want map[string]*framework.Status
	}{
		{
			// Docs, "Example: one TopologySpreadConstraint": zoneA holds 2
			// matching pods, zoneB 1; placing mypod in zoneA gives skew
			// 2+1-1 = 2 > 1, in zoneB 1+1-1 = 1.
			name:  "docs: one zone constraint, only zoneB nodes fit",
			pod:   st.MakePod().Name("mypod").Label("foo", "bar").SpreadConstraint(1, api.LabelTopologyZone, api.DoNotSchedule, fooBar, nil, nil, nil, nil).Obj(),
			pods:  docsPods(),
			nodes: docsNodes(),
			want:  map[string]*framework.Status{"node1": rejected, "node2": rejected, "node3": nil, "node4": nil},
		},
		{
			// Docs, "Example: multiple TopologySpreadConstraints": the zone
			// constraint leaves zoneB; the hostname one (min 0 on node4)
			// rejects node3 with 1+1-0 = 2.
			name: "docs: zone and hostname constraints, only node4 fits",
			pod: st.MakePod().Name("mypod").Label("foo", "bar").
				SpreadConstraint(1, api.LabelTopologyZone, api.DoNotSchedule, fooBar, nil, nil, nil, nil).
				SpreadConstraint(1, api.LabelHostname, api.DoNotSchedule, fooBar, nil, nil, nil, nil).Obj(),
			pods:  docsPods(),
			nodes: docsNodes(),
			want:  map[string]*framework.Status{"node1": rejected, "node2": rejected, "node3": rejected, "node4": nil},
		},
		{
			// Docs, "Conflicting TopologySpreadConstraints": zones hold 3/2,
			// nodes 2/1/2. The zone constraint only allows zoneB (node3),
			// the hostname one only node2: nothing fits.
			name: "docs: conflicting constraints, no node fits",
			pod: st.MakePod().Name("mypod").Label("foo", "bar").
				SpreadConstraint(1, api.LabelTopologyZone, api.DoNotSchedule, fooBar, nil, nil, nil, nil).
				SpreadConstraint(1, api.LabelHostname, api.DoNotSchedule, fooBar, nil, nil, nil, nil).Obj(),
			pods: []*api.Pod{
				st.MakePod().Name("p1").Label("foo", "bar").Node("node1").Obj(),
				st.MakePod().Name("p2").Label("foo", "bar").Node("node1").Obj(),
				st.MakePod().Name("p3").Label("foo", "bar").Node("node2").Obj(),
				st.MakePod().Name("p4").Label("foo", "bar").Node("node3").Obj(),
				st.MakePod().Name("p5").Label("foo", "bar").Node("node3").Obj(),
			},
			nodes: docsNodes()[:3],
			want:  map[string]*framework.Status{"node1": rejected, "node2": rejected, "node3": rejected},
		},
		{
			name:  "no node has the topology key: unresolvable",
			pod:   st.MakePod().Name("p").Label("foo", "").SpreadConstraint(1, "rack", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).Obj(),
			nodes: []*api.Node{st.MakeNode().Name("node-a").Zone("zone1").Obj(), st.MakeNode().Name("node-b").Zone("zone1").Obj()},
			want:  map[string]*framework.Status{"node-a": missingLabel, "node-b": missingLabel},
		},
		{
			// node-b lacks the zone label, so its pod is not counted: zones
			// spread 1/2, min 1.
			name: "pods spread across zones as 1/2 due to absence of label 'zone' on node-b",
			pod:  st.MakePod().Name("p").Label("foo", "").SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).Obj(),
			pods: []*api.Pod{
				st.MakePod().Name("p-a1").Label("foo", "").Node("node-a").Obj(),
				st.MakePod().Name("p-b1").Label("foo", "").Node("node-b").Obj(),
				st.MakePod().Name("p-x1").Label("foo", "").Node("node-x").Obj(),
				st.MakePod().Name("p-y1").Label("foo", "").Node("node-y").Obj(),
			},
			nodes: []*api.Node{
				st.MakeNode().Name("node-a").Label("zone", "zone1").Obj(),
				st.MakeNode().Name("node-b").Obj(),
				st.MakeNode().Name("node-x").Label("zone", "zone2").Obj(),
				st.MakeNode().Name("node-y").Label("zone", "zone2").Obj(),
			},
			want: map[string]*framework.Status{"node-a": nil, "node-b": missingLabel, "node-x": rejected, "node-y": rejected},
		},
		{
			name: "existing pods in a different namespace do not count",
			pod:  st.MakePod().Name("p").Label("foo", "").SpreadConstraint(1, api.LabelHostname, api.DoNotSchedule, fooSelector, nil, nil, nil, nil).Obj(),
			pods: []*api.Pod{
				st.MakePod().Name("p-a1").Namespace("ns1").Label("foo", "").Node("node-a").Obj(),
				st.MakePod().Name("p-b1").Label("foo", "").Node("node-b").Obj(),
			},
			nodes: namedNodes("node-a", "node-b"),
			want:  map[string]*framework.Status{"node-a": nil, "node-b": rejected},
		},
		{
			name: "terminating pods are not counted",
			pod:  st.MakePod().Name("p").Label("foo", "").SpreadConstraint(1, api.LabelHostname, api.DoNotSchedule, fooSelector, nil, nil, nil, nil).Obj(),
			pods: []*api.Pod{
				st.MakePod().Name("p-a").Label("foo", "").Node("node-a").Terminating(time.Unix(0, 0)).Obj(),
				st.MakePod().Name("p-b").Label("foo", "").Node("node-b").Obj(),
			},
			nodes: namedNodes("node-a", "node-b"),
			want:  map[string]*framework.Status{"node-a": nil, "node-b": rejected},
		},
		{
			// A nil labelSelector selects nothing, not even the pod itself.
			name: "null selector matches no pod",
			pod:  st.MakePod().Name("p").Label("foo", "").SpreadConstraint(1, api.LabelHostname, api.DoNotSchedule, nil, nil, nil, nil, nil).Obj(),
			pods: []*api.Pod{
				st.MakePod().Name("p-a1").Label("foo", "").Node("node-a").Obj(),
				st.MakePod().Name("p-a2").Label("foo", "").Node("node-a").Obj(),
			},
			nodes: namedNodes("node-a", "node-b"),
			want:  map[string]*framework.Status{"node-a": nil, "node-b": nil},
		},
		{
			// Upstream quirk: an empty labelSelector matches everything, but
			// countPodsMatchSelector counts nothing for an empty selector,
			// so 2/0 looks like 0/0 and only the pod's self-match counts.
			name: "empty selector counts no existing pod",
			pod:  st.MakePod().Name("p").Label("foo", "").SpreadConstraint(1, api.LabelHostname, api.DoNotSchedule, &api.LabelSelector{}, nil, nil, nil, nil).Obj(),
			pods: []*api.Pod{
				st.MakePod().Name("p-a1").Label("foo", "").Node("node-a").Obj(),
				st.MakePod().Name("p-a2").Label("foo", "").Node("node-a").Obj(),
			},
			nodes: namedNodes("node-a", "node-b"),
			want:  map[string]*framework.Status{"node-a": nil, "node-b": nil},
		},
		{
			name:  "pods spread across nodes as 2/1/0/3, only node-x fits",
			pod:   st.MakePod().Name("p").Label("foo", "").SpreadConstraint(1, api.LabelHostname, api.DoNotSchedule, fooSelector, nil, nil, nil, nil).Obj(),
			pods:  spread2103(),
			nodes: namedNodes("node-a", "node-b", "node-x", "node-y"),
			want:  map[string]*framework.Status{"node-a": rejected, "node-b": rejected, "node-x": nil, "node-y": rejected},
		},
		{
			name:  "pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit",
			pod:   st.MakePod().Name("p").Label("foo", "").SpreadConstraint(2, api.LabelHostname, api.DoNotSchedule, fooSelector, nil, nil, nil, nil).Obj(),
			pods:  spread2103(),
			nodes: namedNodes("node-a", "node-b", "node-x", "node-y"),
			want:  map[string]*framework.Status{"node-a": rejected, "node-b": nil, "node-x": nil, "node-y": rejected},
		},
		{
			// Without self-match the skew is matchNum - min: 2 and 3 fail.
			name:  "pods spread across nodes as 2/1/0/3, but pod doesn't match itself",
			pod:   st.MakePod().Name("p").Label("bar", "").SpreadConstraint(1, api.LabelHostname, api.DoNotSchedule, fooSelector, nil, nil, nil, nil).Obj(),
			pods:  spread2103(),
			nodes: namedNodes("node-a", "node-b", "node-x", "node-y"),
			want:  map[string]*framework.Status{"node-a": rejected, "node-b": nil, "node-x": nil, "node-y": rejected},
		},
		{
			// 3 domains < minDomains 4: the global minimum is 0, so 2+1-0 = 3 > 2.
			name:  "pods spread across nodes as 2/2/1, maxSkew 2, fewer domains than minDomains: only node-c fits",
			pod:   st.MakePod().Name("p").Label("foo", "").SpreadConstraint(2, api.LabelHostname, api.DoNotSchedule, fooSelector, int32Ptr(4), nil, nil, nil).Obj(),
			pods:  spread221(),
			nodes: namedNodes("node-a", "node-b", "node-c"),
			want:  map[string]*framework.Status{"node-a": rejected, "node-b": rejected, "node-c": nil},
		},
		{
			// 3 domains >= minDomains 2: the minimum is 1, so 2+1-1 = 2.
			name:  "pods spread across nodes as 2/2/1, maxSkew 2, enough domains: all fit",
			pod:   st.MakePod().Name("p").Label("foo", "").SpreadConstraint(2, api.LabelHostname, api.DoNotSchedule, fooSelector, int32Ptr(2), nil, nil, nil).Obj(),
			pods:  spread221(),
			nodes: namedNodes("node-a", "node-b", "node-c"),
			want:  map[string]*framework.Status{"node-a": nil, "node-b": nil, "node-c": nil},
		},
		{
			name: "pods spread across zones as 2/1, maxSkew 2, 2 zones < minDomains 3: zone2 fits",
			pod:  st.MakePod().Name("p").Label("foo", "").SpreadConstraint(2, "zone", api.DoNotSchedule, fooSelector, int32Ptr(3), nil, nil, nil).Obj(),
			pods: spread221()[1:],
			nodes: []*api.Node{
				st.MakeNode().Name("node-a").Label("zone", "zone1").Obj(), st.MakeNode().Name("node-b").Label("zone", "zone1").Obj(),
				st.MakeNode().Name("node-c").Label("zone", "zone2").Obj(), st.MakeNode().Name("node-d").Label("zone", "zone2").Obj(),
			},
			want: map[string]*framework.Status{"node-a": rejected, "node-b": rejected, "node-c": nil, "node-d": nil},
		},
		{
			// Nodes failing the pod's required node affinity are not counted
			// (Honor is the default). node-b and node-x have no domain
			// count, so their matchNum is 0 and they pass this filter.
			name: "incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits",
			pod: st.MakePod().Name("p").Label("foo", "").NodeAffinityIn("node", "node-a", "node-y").
				SpreadConstraint(1, "node", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).Obj(),
			pods: spread2103(),
			nodes: []*api.Node{
				st.MakeNode().Name("node-a").Label("node", "node-a").Obj(), st.MakeNode().Name("node-b").Label("node", "node-b").Obj(),
				st.MakeNode().Name("node-x").Label("node", "node-x").Obj(), st.MakeNode().Name("node-y").Label("node", "node-y").Obj(),
			},
			want: map[string]*framework.Status{"node-a": nil, "node-b": nil, "node-x": nil, "node-y": rejected},
		},
		{
			// Honor: node-y fails the nodeSelector and is not counted (1/1/0/~1~).
			name: "nodeAffinityPolicy Honor skips nodes failing the nodeSelector",
			pod: st.MakePod().Name("p").Label("foo", "").NodeSelector(map[string]string{"foo": ""}).
				SpreadConstraint(1, "node", api.DoNotSchedule, fooSelector, nil, &honorPolicy, nil, nil).Obj(),
			pods:  spread1101(),
			nodes: policyNodes(false),
			want:  map[string]*framework.Status{"node-a": rejected, "node-b": rejected, "node-x": nil, "node-y": nil},
		},
		{
			// Ignore: node-y counts, its 1 pod makes it too loaded.
			name: "nodeAffinityPolicy Ignore counts nodes failing the nodeSelector",
			pod: st.MakePod().Name("p").Label("foo", "").NodeSelector(map[string]string{"foo": ""}).
				SpreadConstraint(1, "node", api.DoNotSchedule, fooSelector, nil, &ignorePolicy, nil, nil).Obj(),
			pods:  spread1101(),
			nodes: policyNodes(false),
			want:  map[string]*framework.Status{"node-a": rejected, "node-b": rejected, "node-x": nil, "node-y": rejected},
		},
		{
			name: "nodeAffinityPolicy Honor (default) skips nodes failing required node affinity",
			pod: st.MakePod().Name("p").Label("foo", "").NodeAffinityIn("foo", "").
				SpreadConstraint(1, "node", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).Obj(),
			pods:  spread1101(),
			nodes: policyNodes(false),
			want:  map[string]*framework.Status{"node-a": rejected, "node-b": rejected, "node-x": nil, "node-y": nil},
		},
		{
			name: "nodeTaintsPolicy Honor skips nodes with untolerated NoSchedule taints",
			pod: st.MakePod().Name("p").Label("foo", "").
				SpreadConstraint(1, "node", api.DoNotSchedule, fooSelector, nil, nil, &honorPolicy, nil).Obj(),
			pods:  spread1101(),
			nodes: policyNodes(true),
			want:  map[string]*framework.Status{"node-a": rejected, "node-b": rejected, "node-x": nil, "node-y": nil},
		},
		{
			name: "nodeTaintsPolicy Ignore (default) counts tainted nodes",
			pod: st.MakePod().Name("p").Label("foo", "").
				SpreadConstraint(1, "node", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).Obj(),
			pods:  spread1101(),
			nodes: policyNodes(true),
			want:  map[string]*framework.Status{"node-a": rejected, "node-b": rejected, "node-x": nil, "node-y": rejected},
		},
		{
			name: "nodeTaintsPolicy Honor counts nodes whose taints are tolerated",
			pod: st.MakePod().Name("p").Label("foo", "").
				Toleration(api.Toleration{Key: noSchedule.Key, Operator: api.TolerationOpExists}).
				SpreadConstraint(1, "node", api.DoNotSchedule, fooSelector, nil, nil, &honorPolicy, nil).Obj(),
			pods:  spread1101(),
			nodes: policyNodes(true),
			want:  map[string]*framework.Status{"node-a": rejected, "node-b": rejected, "node-x": nil, "node-y": rejected},
		},
		{
			name: "nodeTaintsPolicy Honor ignores PreferNoSchedule taints",
			pod: st.MakePod().Name("p").Label("foo", "").
				SpreadConstraint(1, "node", api.DoNotSchedule, fooSelector, nil, nil, &honorPolicy, nil).Obj(),
			pods: spread1101(),
			nodes: func() []*api.Node {
				ns := policyNodes(false)
				ns[3].Spec.Taints = []api.Taint{{Key: "k", Effect: api.TaintEffectPreferNoSchedule}}
				return ns
			}(),
			want: map[string]*framework.Status{"node-a": rejected, "node-b": rejected, "node-x": nil, "node-y": rejected},
		},
		{
			// matchLabelKeys ANDs app=v2 into the selector: the two v1 pods
			// on node-b stop counting, leaving 1/0/0.
			name: "matchLabelKeys narrows the selector to the pod's value",
			pod: st.MakePod().Name("p").Label("foo", "").Label("app", "v2").
				SpreadConstraint(1, api.LabelHostname, api.DoNotSchedule, fooSelector, nil, nil, nil, []string{"app"}).Obj(),
			pods: []*api.Pod{
				st.MakePod().Name("p-a1").Label("foo", "").Label("app", "v2").Node("node-a").Obj(),
				st.MakePod().Name("p-b1").Label("foo", "").Label("app", "v1").Node("node-b").Obj(),
				st.MakePod().Name("p-b2").Label("foo", "").Label("app", "v1").Node("node-b").Obj(),
			},
			nodes: namedNodes("node-a", "node-b", "node-c"),
			want:  map[string]*framework.Status{"node-a": rejected, "node-b": nil, "node-c": nil},
		},
		{
			name: "matchLabelKeys missing from the pod's labels are ignored",
			pod: st.MakePod().Name("p").Label("foo", "").
				SpreadConstraint(1, api.LabelHostname, api.DoNotSchedule, fooSelector, nil, nil, nil, []string{"app"}).Obj(),
			pods: []*api.Pod{
				st.MakePod().Name("p-a1").Label("foo", "").Label("app", "v2").Node("node-a").Obj(),
				st.MakePod().Name("p-b1").Label("foo", "").Label("app", "v1").Node("node-b").Obj(),
				st.MakePod().Name("p-b2").Label("foo", "").Label("app", "v1").Node("node-b").Obj(),
			},
			nodes: namedNodes("node-a", "node-b", "node-c"),
			want:  map[string]*framework.Status{"node-a": rejected, "node-b": rejected, "node-c": nil},
		},
		{
			// A nil labelSelector stays "nothing" even with matchLabelKeys.
			name: "matchLabelKeys do not apply to a nil selector",
			pod: st.MakePod().Name("p").Label("foo", "").Label("app", "v2").
				SpreadConstraint(1, api.LabelHostname, api.DoNotSchedule, nil, nil, nil, nil, []string{"app"}).Obj(),
			pods: []*api.Pod{
				st.MakePod().Name("p-a1").Label("app", "v2").Node("node-a").Obj(),
				st.MakePod().Name("p-a2").Label("app", "v2").Node("node-a").Obj(),
			},
			nodes: namedNodes("node-a", "node-b"),
			want:  map[string]*framework.Status{"node-a": nil, "node-b": nil},
		},
		{
			name: "two constraints with different selectors, spreads = [1/0, 0/0/1/1]",
			pod: st.MakePod().Name("p").Label("foo", "").Label("bar", "").
				SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
				SpreadConstraint(1, "node", api.DoNotSchedule, barSelector, nil, nil, nil, nil).Obj(),
			pods: []*api.Pod{
				st.MakePod().Name("p-a1").Label("foo", "").Node("node-a").Obj(),
				st.MakePod().Name("p-x1").Label("bar", "").Node("node-x").Obj(),
				st.MakePod().Name("p-y1").Label("bar", "").Node("node-y").Obj(),
			},
			nodes: zoneNodes(),
			// zone: zone1 1+1-0 = 2 fails. node: x and y 1+1-0 = 2 fail.
			want: map[string]*framework.Status{"node-a": rejected, "node-b": rejected, "node-x": rejected, "node-y": rejected},
		},
		{
			name: "soft constraints only: PreFilter skips",
			pod:  st.MakePod().Name("p").Label("foo", "").SpreadConstraint(1, "zone", api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).Obj(),
			nodes: []*api.Node{
				st.MakeNode().Name("node-a").Obj(),
			},
			wantPreFilter: framework.NewStatus(framework.Skip),
		},
		{
			// The system defaults are all ScheduleAnyway.
			name:          "system default constraints have nothing to filter",
			pod:           st.MakePod().Name("p").Label("foo", "bar").Obj(),
			nodes:         docsNodes(),
			cluster:       &framework.Cluster{ServiceList: []*api.Service{service("default", "svc", map[string]string{"foo": "bar"})}},
			wantPreFilter: framework.NewStatus(framework.Skip),
		},
		{
			// List defaulting with a DoNotSchedule default: the pod gets the
			// zone constraint with its Service's selector.
			name:  "List default constraints with the pod's service selector filter as the docs example",
			pod:   st.MakePod().Name("mypod").Label("foo", "bar").Label("other", "x").Obj(),
			pods:  docsPods(),
			nodes: docsNodes(),
			args: &config.PodTopologySpreadArgs{DefaultingType: config.ListDefaulting, DefaultConstraints: []api.TopologySpreadConstraint{
				{MaxSkew: 1, TopologyKey: api.LabelTopologyZone, WhenUnsatisfiable: api.DoNotSchedule},
			}},
			cluster: &framework.Cluster{ServiceList: []*api.Service{service("default", "svc", map[string]string{"foo": "bar"})}},
			want:    map[string]*framework.Status{"node1": rejected, "node2": rejected, "node3": nil, "node4": nil},
		},
		{
			name:  "List default constraints without a selecting workload: PreFilter skips",
			pod:   st.MakePod().Name("mypod").Label("foo", "bar").Obj(),
			nodes: docsNodes(),
			args: &config.PodTopologySpreadArgs{DefaultingType: config.ListDefaulting, DefaultConstraints: []api.TopologySpreadConstraint{
				{MaxSkew: 1, TopologyKey: api.LabelTopologyZone, WhenUnsatisfiable: api.DoNotSchedule},
			}},
			cluster:       &framework.Cluster{ServiceList: []*api.Service{service("other", "svc", map[string]string{"foo": "bar"})}},
			wantPreFilter: framework.NewStatus(framework.Skip),
		},
		{
			name: "the pod's own constraints replace the defaults",
			pod:  st.MakePod().Name("mypod").Label("foo", "bar").SpreadConstraint(1, api.LabelTopologyZone, api.ScheduleAnyway, fooBar, nil, nil, nil, nil).Obj(),
			args: &config.PodTopologySpreadArgs{DefaultingType: config.ListDefaulting, DefaultConstraints: []api.TopologySpreadConstraint{
				{MaxSkew: 1, TopologyKey: api.LabelTopologyZone, WhenUnsatisfiable: api.DoNotSchedule},
			}},
			nodes:         docsNodes(),
			cluster:       &framework.Cluster{ServiceList: []*api.Service{service("default", "svc", map[string]string{"foo": "bar"})}},
			wantPreFilter: framework.NewStatus(framework.Skip),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := st.NewHandle(tt.pods, tt.nodes)
			if tt.cluster != nil {
				h.Lister = tt.cluster
			}
			pl := newPlugin(t, tt.args, h)
			state := framework.NewCycleState()
			_, status := pl.PreFilter(state, tt.pod, h.Snapshot.List())
			if diff := cmp.Diff(tt.wantPreFilter, status); diff != "" {
				t.Fatalf("PreFilter status (-want +got):\n%s", diff)
			}
			if status.IsSkip() {
				return
			}
			got := map[string]*framework.Status{}
			for _, ni := range h.Snapshot.List() {
				got[ni.Node().Name] = pl.Filter(state, tt.pod, ni)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Filter statuses (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, filterNodes(pl, state, tt.pod, h.Snapshot.List(), nil)); diff != "" {
				t.Errorf("FilterNodes statuses (-want +got):\n%s", diff)
			}
		})
	}
}

// filterNodes runs FilterNodes over nodes, with the statuses of before
// already set, and returns the statuses by node name.
func filterNodes(pl *PodTopologySpread, state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo, before map[string]*framework.Status) map[string]*framework.Status {
	statuses := make([]*framework.Status, len(nodes))
	for i, ni := range nodes {
		statuses[i] = before[ni.Node().Name]
	}
	pl.FilterNodes(state, pod, nodes, statuses)
	got := map[string]*framework.Status{}
	for i, ni := range nodes {
		got[ni.Node().Name] = statuses[i]
	}
	return got
}

// TestFilterNodesKeepsStatusesAndErrors pins the batch's edges: a node
// already rejected keeps its status, a node outside the snapshot is judged
// like the rest, and without PreFilter's state every node gets Filter's
// error.
func TestFilterNodesKeepsStatusesAndErrors(t *testing.T) {
	pods := []*api.Pod{
		st.MakePod().Name("p1").Label("foo", "bar").Node("node1").Obj(),
		st.MakePod().Name("p2").Label("foo", "bar").Node("node1").Obj(),
	}
	h := st.NewHandle(pods, docsNodes())
	pl := newPlugin(t, nil, h)
	pod := st.MakePod().Name("mypod").Label("foo", "bar").SpreadConstraint(1, api.LabelTopologyZone, api.DoNotSchedule, fooBar, nil, nil, nil, nil).Obj()
	state := framework.NewCycleState()
	if _, s := pl.PreFilter(state, pod, h.Snapshot.List()); !s.IsSuccess() {
		t.Fatalf("PreFilter: %v", s)
	}
	earlier := framework.NewStatus(framework.Unschedulable, "earlier plugin")
	// node5, in zoneA like node1 but outside the snapshot PreFilter
	// counted, is judged from the counts by its zone.
	outside := framework.NewNodeInfo()
	outside.SetNode(st.MakeNode().Name("node5").Zone("zoneA").Obj())
	nodes := append(h.Snapshot.List(), outside)
	got := filterNodes(pl, state, pod, nodes[1:], map[string]*framework.Status{"node3": earlier})
	want := map[string]*framework.Status{"node2": rejected, "node3": earlier, "node4": nil, "node5": rejected}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("FilterNodes statuses (-want +got):\n%s", diff)
	}
	if got["node3"] != earlier {
		t.Errorf("node3's earlier status was replaced")
	}
	empty := framework.NewCycleState()
	for _, ni := range nodes {
		wantErr := pl.Filter(empty, pod, ni)
		if wantErr.IsSuccess() {
			t.Fatalf("Filter without PreFilter's state passed %s", ni.Node().Name)
		}
		got := filterNodes(pl, empty, pod, []*framework.NodeInfo{ni}, nil)[ni.Node().Name]
		if diff := cmp.Diff(wantErr.Message(), got.Message()); diff != "" || got.Code() != wantErr.Code() {
			t.Errorf("FilterNodes without state on %s: %v, want %v", ni.Node().Name, got, wantErr)
		}
	}
}

func service(ns, name string, selector map[string]string) *api.Service {
	return &api.Service{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name}, Spec: api.ServiceSpec{Selector: selector}}
}

// spread2103 puts 2/1/0/3 pods labelled foo on node-a/b/x/y.
func spread2103() []*api.Pod {
	return []*api.Pod{
		st.MakePod().Name("p-a1").Label("foo", "").Node("node-a").Obj(),
		st.MakePod().Name("p-a2").Label("foo", "").Node("node-a").Obj(),
		st.MakePod().Name("p-b1").Label("foo", "").Node("node-b").Obj(),
		st.MakePod().Name("p-y1").Label("foo", "").Node("node-y").Obj(),
		st.MakePod().Name("p-y2").Label("foo", "").Node("node-y").Obj(),
		st.MakePod().Name("p-y3").Label("foo", "").Node("node-y").Obj(),
	}
}

// spread221 puts 2/2/1 pods labelled foo on node-a/b/c.
func spread221() []*api.Pod {
	return []*api.Pod{
		st.MakePod().Name("p-a1").Label("foo", "").Node("node-a").Obj(),
		st.MakePod().Name("p-a2").Label("foo", "").Node("node-a").Obj(),
		st.MakePod().Name("p-b1").Label("foo", "").Node("node-b").Obj(),
		st.MakePod().Name("p-b2").Label("foo", "").Node("node-b").Obj(),
		st.MakePod().Name("p-c1").Label("foo", "").Node("node-c").Obj(),
	}
}

// spread1101 puts 1/1/0/1 pods labelled foo on node-a/b/x/y.
func spread1101() []*api.Pod {
	return []*api.Pod{
		st.MakePod().Name("p-a1").Label("foo", "").Node("node-a").Obj(),
		st.MakePod().Name("p-b1").Label("foo", "").Node("node-b").Obj(),
		st.MakePod().Name("p-y1").Label("foo", "").Node("node-y").Obj(),
	}
}

// policyNodes are node-a/b/x labelled foo and node-y without it,
// optionally with a NoSchedule taint on node-y.
func policyNodes(taintY bool) []*api.Node {
	y := st.MakeNode().Name("node-y").Label("node", "node-y")
	if taintY {
		y.Taint(noSchedule.Key, noSchedule.Value, noSchedule.Effect)
	}
	return []*api.Node{
		st.MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
		st.MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
		st.MakeNode().Name("node-x").Label("node", "node-x").Label("foo", "").Obj(),
		y.Obj(),
	}
}

// zoneNodes are node-a/b in zone1 and node-x/y in zone2, with "node" labels.
func zoneNodes() []*api.Node {
	return []*api.Node{
		st.MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
		st.MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
		st.MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
		st.MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
	}
}

// TestFilterSharesRejections pins that the nodes Filter rejects for one
// reason get one shared status, and that the runtime naming its plugin on
// every node leaves it as a fresh status would be: same code, reasons and
// plugin for each node.
func TestFilterSharesRejections(t *testing.T) {
	pods := []*api.Pod{
		st.MakePod().Name("p1").Label("foo", "bar").Node("node1").Obj(),
		st.MakePod().Name("p2").Label("foo", "bar").Node("node2").Obj(),
	}
	nodes := append(docsNodes(), withoutLabel(st.MakeNode().Name("node5").Zone("zoneC").Obj(), api.LabelTopologyZone),
		withoutLabel(st.MakeNode().Name("node6").Zone("zoneC").Obj(), api.LabelTopologyZone))
	pod := st.MakePod().Name("mypod").Label("foo", "bar").SpreadConstraint(1, api.LabelTopologyZone, api.DoNotSchedule, fooBar, nil, nil, nil, nil).Obj()
	h := st.NewHandle(pods, nodes)
	pl := newPlugin(t, nil, h)
	state := framework.NewCycleState()
	if _, s := pl.PreFilter(state, pod, h.Snapshot.List()); !s.IsSuccess() {
		t.Fatalf("PreFilter: %v", s)
	}
	got := map[string]*framework.Status{}
	for _, ni := range h.Snapshot.List() {
		got[ni.Node().Name] = pl.Filter(state, pod, ni).WithPlugin(Name)
	}
	if got["node1"] != got["node2"] || got["node5"] != got["node6"] {
		t.Errorf("rejections for one reason are not shared: %p %p, %p %p", got["node1"], got["node2"], got["node5"], got["node6"])
	}
	want := map[string]*framework.Status{
		"node1": framework.NewStatus(framework.Unschedulable, ErrReasonConstraintsNotMatch).WithPlugin(Name),
		"node2": framework.NewStatus(framework.Unschedulable, ErrReasonConstraintsNotMatch).WithPlugin(Name),
		"node3": nil,
		"node4": nil,
		"node5": framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonNodeLabelNotMatch).WithPlugin(Name),
		"node6": framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonNodeLabelNotMatch).WithPlugin(Name),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Filter statuses (-want +got):\n%s", diff)
	}
}

// TestFilterReadsTheStateItIsGiven pins that Filter, which remembers the
// state its PreFilter wrote last, still answers from the cycle state it is
// given: a clone changed by preemption's AddPod, and an earlier cycle's
// state after another PreFilter ran.
func TestFilterReadsTheStateItIsGiven(t *testing.T) {
	pods := []*api.Pod{
		st.MakePod().Name("p1").Label("foo", "bar").Node("node1").Obj(),
		st.MakePod().Name("p3").Label("foo", "bar").Node("node3").Obj(),
	}
	h := st.NewHandle(pods, docsNodes())
	pl := newPlugin(t, nil, h)
	spread := func(name string, sel *api.LabelSelector) *api.Pod {
		return st.MakePod().Name(name).Label("foo", "bar").SpreadConstraint(1, api.LabelTopologyZone, api.DoNotSchedule, sel, nil, nil, nil, nil).Obj()
	}
	pod := spread("mypod", fooBar)
	state := framework.NewCycleState()
	if _, s := pl.PreFilter(state, pod, h.Snapshot.List()); !s.IsSuccess() {
		t.Fatalf("PreFilter: %v", s)
	}
	node1, _ := h.Snapshot.Get("node1")
	node3, _ := h.Snapshot.Get("node3")
	verdicts := func(state *framework.CycleState) []string {
		got := []string{pl.Filter(state, pod, node1).Message(), pl.Filter(state, pod, node3).Message()}
		batch := filterNodes(pl, state, pod, []*framework.NodeInfo{node1, node3}, nil)
		if diff := cmp.Diff(got, []string{batch["node1"].Message(), batch["node3"].Message()}); diff != "" {
			t.Errorf("FilterNodes differs from Filter (-Filter +FilterNodes):\n%s", diff)
		}
		return got
	}
	both := []string{"", ""}
	if diff := cmp.Diff(both, verdicts(state)); diff != "" {
		t.Fatalf("Filter after PreFilter (-want +got):\n%s", diff)
	}
	// A dry run adds a matching pod to zoneA: zoneA is now too loaded.
	clone := state.Clone()
	added := framework.NewPodInfo(st.MakePod().Name("extra").Label("foo", "bar").Node("node1").Obj())
	if s := pl.AddPod(clone, pod, added, node1.Clone()); !s.IsSuccess() {
		t.Fatalf("AddPod: %v", s)
	}
	if diff := cmp.Diff([]string{ErrReasonConstraintsNotMatch, ""}, verdicts(clone)); diff != "" {
		t.Errorf("Filter on the changed clone (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(both, verdicts(state)); diff != "" {
		t.Errorf("Filter on the original after the clone changed (-want +got):\n%s", diff)
	}
	// Another pod's PreFilter on a new state: the first state is unchanged,
	// and the new one (which selects nothing already placed) is its own.
	other := framework.NewCycleState()
	if _, s := pl.PreFilter(other, spread("other", barSelector), h.Snapshot.List()); !s.IsSuccess() {
		t.Fatalf("PreFilter: %v", s)
	}
	if diff := cmp.Diff(both, verdicts(state)); diff != "" {
		t.Errorf("Filter on the first state after another PreFilter (-want +got):\n%s", diff)
	}
	if s := pl.AddPod(other, pod, added, node1.Clone()); !s.IsSuccess() {
		t.Fatalf("AddPod: %v", s)
	}
	if diff := cmp.Diff(both, verdicts(other)); diff != "" {
		t.Errorf("Filter on the other state (-want +got):\n%s", diff)
	}
}
