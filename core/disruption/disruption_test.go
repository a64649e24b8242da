package disruption

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/internal/st"
)

var t0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

func intOrStr(i int32) *api.IntOrString { return &api.IntOrString{IntVal: i} }
func percent(s string) *api.IntOrString { return &api.IntOrString{IsString: true, StrVal: s} }

func pdb(sel *api.LabelSelector, minAvailable, maxUnavailable *api.IntOrString) *api.PodDisruptionBudget {
	p := &api.PodDisruptionBudget{Spec: api.PodDisruptionBudgetSpec{Selector: sel, MinAvailable: minAvailable, MaxUnavailable: maxUnavailable}}
	p.Name, p.Namespace = "pdb", "default"
	return p
}

func web(name string) *st.PodWrapper { return st.MakePod().Name(name).Label("app", "web").Node("n1") }

func TestComputeStatus(t *testing.T) {
	appWeb := st.LabelSelector(map[string]string{"app": "web"})
	rsScale := func(_ string, ref *api.OwnerReference) (string, int32, bool) {
		if ref.Name == "rs" {
			return "rs", 3, true
		}
		return "", 0, false
	}
	tests := []struct {
		name string
		pdb  *api.PodDisruptionBudget
		pods []*api.Pod
		opts Options
		want api.PodDisruptionBudgetStatus
	}{
		{
			name: "integer minAvailable counts matching pods",
			pdb:  pdb(appWeb, intOrStr(2), nil),
			pods: []*api.Pod{web("a").Obj(), web("b").Obj(), web("c").Obj(), st.MakePod().Name("other").Node("n1").Obj()},
			want: api.PodDisruptionBudgetStatus{CurrentHealthy: 3, DesiredHealthy: 2, ExpectedPods: 3, DisruptionsAllowed: 1},
		},
		{
			name: "pending pods are expected but not healthy",
			pdb:  pdb(appWeb, intOrStr(2), nil),
			pods: []*api.Pod{web("a").Obj(), web("b").Obj(), st.MakePod().Name("p").Label("app", "web").Obj()},
			want: api.PodDisruptionBudgetStatus{CurrentHealthy: 2, DesiredHealthy: 2, ExpectedPods: 3, DisruptionsAllowed: 0},
		},
		{
			name: "terminating and Ready=False pods are not healthy",
			pdb:  pdb(appWeb, intOrStr(1), nil),
			pods: []*api.Pod{
				web("a").Obj(),
				web("b").Terminating(t0).Obj(),
				web("c").Condition(api.PodReady, api.ConditionFalse, "").Obj(),
				web("d").Condition(api.PodReady, api.ConditionTrue, "").Obj(),
			},
			want: api.PodDisruptionBudgetStatus{CurrentHealthy: 2, DesiredHealthy: 1, ExpectedPods: 4, DisruptionsAllowed: 1},
		},
		{
			name: "other namespaces do not count",
			pdb:  pdb(appWeb, intOrStr(0), nil),
			pods: []*api.Pod{web("a").Obj(), web("b").Namespace("prod").Obj()},
			want: api.PodDisruptionBudgetStatus{CurrentHealthy: 1, DesiredHealthy: 0, ExpectedPods: 1, DisruptionsAllowed: 1},
		},
		{
			name: "empty selector matches every pod of the namespace",
			pdb:  pdb(&api.LabelSelector{}, intOrStr(1), nil),
			pods: []*api.Pod{web("a").Obj(), st.MakePod().Name("x").Node("n1").Obj(), web("b").Namespace("prod").Obj()},
			want: api.PodDisruptionBudgetStatus{CurrentHealthy: 2, DesiredHealthy: 1, ExpectedPods: 2, DisruptionsAllowed: 1},
		},
		{
			name: "nil selector matches nothing",
			pdb:  pdb(nil, intOrStr(0), nil),
			pods: []*api.Pod{web("a").Obj()},
			want: api.PodDisruptionBudgetStatus{},
		},
		{
			name: "maxUnavailable with unmanaged pods expects none, so nothing may be disrupted",
			pdb:  pdb(appWeb, nil, intOrStr(1)),
			pods: []*api.Pod{web("a").Obj(), web("b").Obj()},
			want: api.PodDisruptionBudgetStatus{CurrentHealthy: 2, DesiredHealthy: 0, ExpectedPods: 0, DisruptionsAllowed: 0},
		},
		{
			name: "maxUnavailable with a controller that does not exist fails safe",
			pdb: func() *api.PodDisruptionBudget {
				p := pdb(appWeb, nil, intOrStr(1))
				p.Status = api.PodDisruptionBudgetStatus{CurrentHealthy: 7, DisruptionsAllowed: 5}
				return p
			}(),
			pods: []*api.Pod{web("a").OwnerReference("ReplicaSet", "gone").Obj(), web("b").Obj()},
			want: api.PodDisruptionBudgetStatus{CurrentHealthy: 7, DisruptionsAllowed: 0},
		},
		{
			name: "percentage minAvailable with a controlled pod and no controllers fails safe",
			pdb:  pdb(appWeb, percent("50%"), nil),
			pods: []*api.Pod{web("a").OwnerReference("ReplicaSet", "rs").Obj()},
			want: api.PodDisruptionBudgetStatus{},
		},
		{
			name: "percentage maxUnavailable rounds up against the controller's scale",
			pdb:  pdb(appWeb, nil, percent("50%")),
			pods: []*api.Pod{web("a").OwnerReference("ReplicaSet", "rs").Obj(), web("b").OwnerReference("ReplicaSet", "rs").Obj(), web("c").OwnerReference("ReplicaSet", "rs").Obj()},
			opts: Options{Scale: rsScale},
			// maxUnavailable = ceil(1.5) = 2, desired = 3-2.
			want: api.PodDisruptionBudgetStatus{CurrentHealthy: 3, DesiredHealthy: 1, ExpectedPods: 3, DisruptionsAllowed: 2},
		},
		{
			name: "percentage minAvailable rounds up against the controller's scale",
			pdb:  pdb(appWeb, percent("50%"), nil),
			pods: []*api.Pod{web("a").OwnerReference("ReplicaSet", "rs").Obj(), web("b").OwnerReference("ReplicaSet", "rs").Obj(), web("c").OwnerReference("ReplicaSet", "rs").Obj()},
			opts: Options{Scale: rsScale},
			want: api.PodDisruptionBudgetStatus{CurrentHealthy: 3, DesiredHealthy: 2, ExpectedPods: 3, DisruptionsAllowed: 1},
		},
		{
			name: "unmanaged pods next to managed ones are skipped, not fatal",
			pdb:  pdb(appWeb, nil, intOrStr(1)),
			pods: []*api.Pod{web("a").OwnerReference("ReplicaSet", "rs").Obj(), web("b").Obj()},
			opts: Options{Scale: rsScale},
			want: api.PodDisruptionBudgetStatus{CurrentHealthy: 2, DesiredHealthy: 2, ExpectedPods: 3, DisruptionsAllowed: 0},
		},
		{
			name: "a pod recently disrupted through eviction is not healthy",
			pdb: func() *api.PodDisruptionBudget {
				p := pdb(appWeb, intOrStr(1), nil)
				p.Status.DisruptedPods = map[string]time.Time{"a": t0, "gone": t0}
				return p
			}(),
			pods: []*api.Pod{web("a").Obj(), web("b").Obj(), web("c").Obj()},
			opts: Options{Now: t0.Add(time.Minute)},
			want: api.PodDisruptionBudgetStatus{DisruptedPods: map[string]time.Time{"a": t0}, CurrentHealthy: 2, DesiredHealthy: 1, ExpectedPods: 3, DisruptionsAllowed: 1},
		},
		{
			name: "an overdue disruption is forgotten",
			pdb: func() *api.PodDisruptionBudget {
				p := pdb(appWeb, intOrStr(1), nil)
				p.Status.DisruptedPods = map[string]time.Time{"a": t0}
				return p
			}(),
			pods: []*api.Pod{web("a").Obj(), web("b").Obj()},
			opts: Options{Now: t0.Add(3 * time.Minute)},
			want: api.PodDisruptionBudgetStatus{CurrentHealthy: 2, DesiredHealthy: 1, ExpectedPods: 2, DisruptionsAllowed: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ComputeStatusWith(tt.pdb, tt.pods, tt.opts)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("status (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWorkloadScales(t *testing.T) {
	three, five := int32(3), int32(5)
	ctl := true
	rsOwned := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "web-abc", Namespace: "default", UID: "rs1",
		OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "dep1", Controller: &ctl}}},
		Spec: api.WorkloadSpec{Replicas: &three}}
	rsOwned2 := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "web-def", Namespace: "default", UID: "rs2",
		OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "dep1", Controller: &ctl}}},
		Spec: api.WorkloadSpec{Replicas: &three}}
	dep := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default", UID: "dep1"}, Spec: api.WorkloadSpec{Replicas: &five}}
	ss := &api.StatefulSet{ObjectMeta: api.ObjectMeta{Name: "db", Namespace: "default", UID: "db"}}
	lookup := WorkloadScales([]*api.ReplicaSet{rsOwned, rsOwned2}, []*api.StatefulSet{ss}, []*api.Deployment{dep})

	ref := func(kind, name, uid string) []api.OwnerReference {
		return []api.OwnerReference{{APIVersion: "apps/v1", Kind: kind, Name: name, UID: uid, Controller: &ctl}}
	}
	pod := func(name string, refs []api.OwnerReference) *api.Pod {
		p := web(name).Obj()
		p.OwnerReferences = refs
		return p
	}
	tests := []struct {
		name string
		pods []*api.Pod
		want api.PodDisruptionBudgetStatus
	}{
		{
			name: "two ReplicaSets of one Deployment count the Deployment once",
			pods: []*api.Pod{pod("a", ref("ReplicaSet", "web-abc", "rs1")), pod("b", ref("ReplicaSet", "web-def", "rs2"))},
			// expected 5, maxUnavailable 1 -> desired 4, healthy 2.
			want: api.PodDisruptionBudgetStatus{CurrentHealthy: 2, DesiredHealthy: 4, ExpectedPods: 5},
		},
		{
			name: "a StatefulSet without replicas has the default scale 1",
			pods: []*api.Pod{pod("a", ref("StatefulSet", "db", "db"))},
			want: api.PodDisruptionBudgetStatus{CurrentHealthy: 1, DesiredHealthy: 0, ExpectedPods: 1, DisruptionsAllowed: 1},
		},
		{
			name: "a UID mismatch means the controller is gone",
			pods: []*api.Pod{pod("a", ref("StatefulSet", "db", "old"))},
			want: api.PodDisruptionBudgetStatus{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ComputeStatusWith(pdb(&api.LabelSelector{}, nil, intOrStr(1)), tt.pods, Options{Scale: lookup})
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("status (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGetScaledValueFromIntOrPercent(t *testing.T) {
	tests := []struct {
		name    string
		v       *api.IntOrString
		total   int
		roundUp bool
		want    int
		wantErr bool
	}{
		{name: "int", v: intOrStr(4), total: 10, want: 4},
		{name: "percent rounds up", v: percent("50%"), total: 3, roundUp: true, want: 2},
		{name: "percent rounds down", v: percent("50%"), total: 3, want: 1},
		{name: "percent of zero", v: percent("30%"), total: 0, roundUp: true, want: 0},
		{name: "string without percent", v: percent("50"), wantErr: true},
		{name: "not a number", v: percent("x%"), wantErr: true},
		{name: "nil", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := GetScaledValueFromIntOrPercent(tt.v, tt.total, tt.roundUp)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error = %v, want error %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("got %d, want %d", got, tt.want)
			}
		})
	}
}

func TestReplicationControllerScale(t *testing.T) {
	four := int32(4)
	ctl := true
	rc := &api.ReplicationController{ObjectMeta: api.ObjectMeta{Name: "legacy", Namespace: "default", UID: "rc1"},
		Spec: api.ReplicationControllerSpec{Replicas: &four}}
	lookup := WithReplicationControllers(WorkloadScales(nil, nil, nil), []*api.ReplicationController{rc})
	uid, scale, ok := lookup("default", &api.OwnerReference{APIVersion: "v1", Kind: "ReplicationController", Name: "legacy", UID: "rc1", Controller: &ctl})
	if !ok || uid != "rc1" || scale != 4 {
		t.Errorf("got (%q, %d, %v), want (rc1, 4, true)", uid, scale, ok)
	}
	if _, _, ok := lookup("default", &api.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicationController", Name: "legacy", UID: "rc1"}); ok {
		t.Errorf("a ReplicationController reference must be in the core group")
	}
	// maxUnavailable 1 over a scale of 4 with 3 healthy: the one allowed disruption is already spent.
	one := api.IntOrString{IntVal: 1}
	pdb := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"},
		Spec: api.PodDisruptionBudgetSpec{MaxUnavailable: &one, Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}
	var pods []*api.Pod
	for _, n := range []string{"a", "b", "c"} {
		p := web(n).Obj()
		p.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: "ReplicationController", Name: "legacy", UID: "rc1", Controller: &ctl}}
		pods = append(pods, p)
	}
	got := ComputeStatusWith(pdb, pods, Options{Scale: lookup})
	want := api.PodDisruptionBudgetStatus{CurrentHealthy: 3, DesiredHealthy: 3, ExpectedPods: 4}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("status (-want +got):\n%s", diff)
	}
}
