package podtopologyspread

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
	"github.com/schedplay/schedplay/core/labels"
)

func TestDefaultSelector(t *testing.T) {
	cluster := &framework.Cluster{
		ServiceList: []*api.Service{
			service("default", "s1", map[string]string{"app": "web"}),
			service("default", "s2", map[string]string{"tier": "front"}),
			service("default", "no-match", map[string]string{"app": "db"}),
			service("other", "other-ns", map[string]string{"env": "prod"}),
			service("default", "nil-selector", nil),
		},
		ReplicationControllerL: []*api.ReplicationController{
			{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "rc"}, Spec: api.ReplicationControllerSpec{Selector: map[string]string{"rc": "yes"}}},
		},
		ReplicaSetList: []*api.ReplicaSet{
			{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "rs"}, Spec: api.WorkloadSpec{Selector: &api.LabelSelector{
				MatchExpressions: []api.LabelSelectorRequirement{{Key: "rs", Operator: api.LabelSelectorOpIn, Values: []string{"a", "b"}}},
			}}},
			{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "rs-nil"}},
		},
		StatefulSetList: []*api.StatefulSet{
			{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "ss"}, Spec: api.WorkloadSpec{Selector: st.LabelSelector(map[string]string{"ss": "yes"})}},
		},
	}
	base := func() *api.Pod {
		return st.MakePod().Name("p").Labels(map[string]string{"app": "web", "tier": "front", "env": "prod"}).Obj()
	}
	eq := func(k, v string) labels.Requirement {
		return labels.Requirement{Key: k, Op: labels.Equals, Values: []string{v}}
	}
	tests := []struct {
		name string
		pod  *api.Pod
		want []labels.Requirement
	}{
		{
			// Only same-namespace Services with a non-nil matching selector.
			name: "services selecting the pod are merged",
			pod:  base(),
			want: []labels.Requirement{eq("app", "web"), eq("tier", "front")},
		},
		{
			name: "no service selects the pod",
			pod:  st.MakePod().Name("p").Label("x", "y").Obj(),
			want: []labels.Requirement{},
		},
		{
			name: "replication controller selector is merged as a label set",
			pod:  ownedBy(base(), "v1", "ReplicationController", "rc"),
			want: []labels.Requirement{eq("app", "web"), eq("rc", "yes"), eq("tier", "front")},
		},
		{
			name: "replica set selector requirements are added",
			pod:  ownedBy(base(), "apps/v1", "ReplicaSet", "rs"),
			want: []labels.Requirement{eq("app", "web"), {Key: "rs", Op: labels.In, Values: []string{"a", "b"}}, eq("tier", "front")},
		},
		{
			name: "replica set with a nil selector adds nothing",
			pod:  ownedBy(base(), "apps/v1", "ReplicaSet", "rs-nil"),
			want: []labels.Requirement{eq("app", "web"), eq("tier", "front")},
		},
		{
			name: "stateful set selector requirements are added",
			pod:  ownedBy(st.MakePod().Name("p").Obj(), "apps/v1", "StatefulSet", "ss"),
			want: []labels.Requirement{eq("ss", "yes")},
		},
		{
			// Only apps/v1 counts: extensions/v1beta1 is another group.
			name: "replica set in another API group is ignored",
			pod:  ownedBy(base(), "extensions/v1beta1", "ReplicaSet", "rs"),
			want: []labels.Requirement{eq("app", "web"), eq("tier", "front")},
		},
		{
			name: "a non-controller owner reference is ignored",
			pod: func() *api.Pod {
				p := base()
				p.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs"}}
				return p
			}(),
			want: []labels.Requirement{eq("app", "web"), eq("tier", "front")},
		},
		{
			name: "owner in another namespace is not found",
			pod:  ownedBy(st.MakePod().Name("p").Namespace("other").Obj(), "apps/v1", "StatefulSet", "ss"),
			want: []labels.Requirement{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, ok := labels.Requirements(defaultSelector(tt.pod, cluster))
			if !ok {
				t.Fatalf("selector has no requirements list")
			}
			if diff := cmp.Diff(tt.want, append([]labels.Requirement{}, rs...)); diff != "" {
				t.Errorf("requirements (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFilterTopologySpreadConstraints(t *testing.T) {
	pod := st.MakePod().Name("p").Labels(map[string]string{"foo": "", "app": "web"}).
		SpreadConstraint(1, "zone", api.DoNotSchedule, fooSelector, nil, nil, nil, nil).
		SpreadConstraint(2, "node", api.DoNotSchedule, fooSelector, int32Ptr(3), &ignorePolicy, &honorPolicy, []string{"app", "missing"}).
		SpreadConstraint(3, "rack", api.ScheduleAnyway, fooSelector, nil, nil, nil, nil).Obj()
	got, err := filterTopologySpreadConstraints(pod.Spec.TopologySpreadConstraints, pod.Labels, api.DoNotSchedule)
	if err != nil {
		t.Fatalf("filtering constraints: %v", err)
	}
	exists := labels.Requirement{Key: "foo", Op: labels.Exists}
	want := []topologySpreadConstraint{
		{MaxSkew: 1, TopologyKey: "zone", Selector: labels.New(exists), MinDomains: 1,
			NodeAffinityPolicy: api.NodeInclusionPolicyHonor, NodeTaintsPolicy: api.NodeInclusionPolicyIgnore},
		{MaxSkew: 2, TopologyKey: "node", Selector: labels.New(labels.Requirement{Key: "app", Op: labels.Equals, Values: []string{"web"}}, exists), MinDomains: 3,
			NodeAffinityPolicy: api.NodeInclusionPolicyIgnore, NodeTaintsPolicy: api.NodeInclusionPolicyHonor},
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b labels.Selector) bool { return a.String() == b.String() })); diff != "" {
		t.Errorf("constraints (-want +got):\n%s", diff)
	}
}

// TestBuildDefaultConstraints pins what the default constraints come to
// for a pod a service selects, a pod nothing selects, an action no
// default constraint has, and a constraint whose selector does not
// compile (validation forbids selectors; built directly here): its error
// is reported whether or not a workload selects the pod.
func TestBuildDefaultConstraints(t *testing.T) {
	h := st.NewHandle(nil, nil)
	h.Lister.ServiceList = []*api.Service{service("default", "web", map[string]string{"app": "web"})}
	selected := st.MakePod().Name("p").Label("app", "web").Obj()
	alone := st.MakePod().Name("q").Label("app", "db").Obj()
	system := newPlugin(t, nil, h)
	bad := newPlugin(t, nil, h)
	bad.defaultConstraints = []api.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: api.LabelTopologyZone, WhenUnsatisfiable: api.ScheduleAnyway,
		LabelSelector: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "k", Operator: "Bogus"}}}}}
	tests := []struct {
		name    string
		pl      *PodTopologySpread
		pod     *api.Pod
		action  api.UnsatisfiableConstraintAction
		keys    []string // the constraints' topology keys
		wantErr bool
	}{
		{name: "a pod a service selects", pl: system, pod: selected, action: api.ScheduleAnyway, keys: []string{api.LabelHostname, api.LabelTopologyZone}},
		{name: "a pod nothing selects", pl: system, pod: alone, action: api.ScheduleAnyway},
		{name: "no default constraint has the action", pl: system, pod: selected, action: api.DoNotSchedule},
		{name: "a bad selector, the pod selected", pl: bad, pod: selected, action: api.ScheduleAnyway, wantErr: true},
		{name: "a bad selector, the pod not selected", pl: bad, pod: alone, action: api.ScheduleAnyway, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs, err := tt.pl.buildDefaultConstraints(tt.pod, tt.action)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v, want an error: %v", err, tt.wantErr)
			}
			var keys []string
			for _, c := range cs {
				keys = append(keys, c.TopologyKey)
				if !c.Selector.Matches(tt.pod.Labels) || c.Selector.Matches(alone.Labels) {
					t.Errorf("constraint on %s: selector %v does not select exactly the service's pods", c.TopologyKey, c.Selector)
				}
			}
			if diff := cmp.Diff(tt.keys, keys); diff != "" {
				t.Errorf("topology keys (-want +got):\n%s", diff)
			}
		})
	}
}
