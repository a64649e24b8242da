package controllers

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/internal/st"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func i32(v int32) *int32 { return &v }

// seq returns an intn that yields the given values in turn.
func seq(vals ...int) func(int) int {
	i := 0
	return func(n int) int {
		v := vals[i%len(vals)] % n
		i++
		return v
	}
}

func TestSafeEncodeString(t *testing.T) {
	// '0' is 48, 48 % 27 = 21: the 22nd character of the alphabet.
	if diff := cmp.Diff("456789bcdf", SafeEncodeString("0123456789")); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestPodTemplateHash(t *testing.T) {
	a := &api.PodTemplate{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}}}
	b := &api.PodTemplate{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "db"}}}
	ha, hb := PodTemplateHash(a, nil), PodTemplateHash(b, nil)
	if ha == hb {
		t.Errorf("different templates share hash %q", ha)
	}
	if ha != PodTemplateHash(a, nil) {
		t.Errorf("hash is not stable")
	}
	if ha == PodTemplateHash(a, i32(1)) {
		t.Errorf("collision count does not change the hash")
	}
	for _, c := range ha {
		if !strings.ContainsRune(Alphanums, c) {
			t.Errorf("hash %q has %q outside the alphabet", ha, c)
		}
	}
}

func TestGenerateName(t *testing.T) {
	tests := []struct {
		name, base, want string
	}{
		{"short base", "web-", "web-bcdf9"},
		{"base cut to 58", strings.Repeat("a", 70), strings.Repeat("a", 58) + "bcdf9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, GenerateName(tt.base, seq(0, 1, 2, 3, 26))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestReplicaSetFor(t *testing.T) {
	d := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default", UID: "d1"},
		Spec: api.WorkloadSpec{Replicas: i32(3), Selector: st.LabelSelector(map[string]string{"app": "web"}),
			Template: api.PodTemplate{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}}}}}
	rs := ReplicaSetFor(d, t0)
	hash := PodTemplateHash(&d.Spec.Template, nil)
	if rs.Name != "web-"+hash {
		t.Errorf("name %q, want web-%s", rs.Name, hash)
	}
	want := map[string]string{"app": "web", DefaultDeploymentUniqueLabelKey: hash}
	for what, got := range map[string]map[string]string{"labels": rs.Labels, "selector": rs.Spec.Selector.MatchLabels, "template": rs.Spec.Template.Labels} {
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", what, diff)
		}
	}
	if len(d.Spec.Template.Labels) != 1 || len(d.Spec.Selector.MatchLabels) != 1 {
		t.Errorf("the Deployment was changed: %v %v", d.Spec.Template.Labels, d.Spec.Selector.MatchLabels)
	}
	ref := rs.ControllerRef()
	if ref == nil || ref.Kind != "Deployment" || ref.UID != "d1" || *rs.Spec.Replicas != 3 {
		t.Errorf("owner %+v replicas %d", ref, *rs.Spec.Replicas)
	}
}

func rsPod(name string, mutate ...func(*api.Pod)) *api.Pod {
	p := st.MakePod().Name(name).OwnerReference("ReplicaSet", "web-x").Obj()
	p.Status.Phase = api.PodRunning
	for _, m := range mutate {
		m(p)
	}
	return p
}

func TestSyncReplicaSet(t *testing.T) {
	rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "web-x", Namespace: "default", UID: "rs1"},
		Spec: api.WorkloadSpec{Replicas: i32(3), Template: api.PodTemplate{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}}}}}
	terminating := func(p *api.Pod) { p.DeletionTimestamp = &t0 }
	bound := func(n string) func(*api.Pod) { return func(p *api.Pod) { p.Spec.NodeName = n } }
	pending := func(p *api.Pod) { p.Status.Phase = api.PodPending }
	tests := []struct {
		name       string
		owned      []*api.Pod
		replicas   int32
		wantCreate []string
		wantRemove []string
	}{
		{"creates all from empty", nil, 3, []string{"web-x-bbbbb", "web-x-ccccc", "web-x-ddddd"}, nil},
		{"a terminating pod is replaced at once", []*api.Pod{rsPod("a"), rsPod("b"), rsPod("c", terminating)}, 3, []string{"web-x-bbbbb"}, nil},
		{"enough active pods: nothing", []*api.Pod{rsPod("a"), rsPod("b"), rsPod("c")}, 3, nil, nil},
		{"scale down: unassigned, then pending, then doubled-up nodes", []*api.Pod{
			rsPod("a", bound("n1")), rsPod("b", bound("n1")), rsPod("c", bound("n2")), rsPod("d", pending), rsPod("e", bound("n3"), pending),
		}, 2, nil, []string{"d", "e", "a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := *rs
			r.Spec.Replicas = &tt.replicas
			calls := 0
			intn := func(int) int { calls++; return (calls - 1) / 5 }
			create, remove := SyncReplicaSet(&r, tt.owned, intn, func(string) bool { return false }, t0)
			var gotC, gotR []string
			for _, p := range create {
				gotC = append(gotC, p.Name)
				if !Owns(&r.ObjectMeta, p) || p.Labels["app"] != "web" || p.Namespace != "default" {
					t.Errorf("pod %s: owner %+v labels %v", p.Name, p.ControllerRef(), p.Labels)
				}
			}
			for _, p := range remove {
				gotR = append(gotR, p.Name)
			}
			if diff := cmp.Diff(tt.wantCreate, gotC); diff != "" {
				t.Errorf("create (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantRemove, gotR); diff != "" {
				t.Errorf("remove (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSyncReplicaSetNameTaken(t *testing.T) {
	rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default", UID: "rs1"}, Spec: api.WorkloadSpec{Replicas: i32(1)}}
	create, _ := SyncReplicaSet(rs, nil, seq(0, 0, 0, 0, 0, 1, 1, 1, 1, 1), func(k string) bool { return k == "default/web-bbbbb" }, t0)
	if len(create) != 1 || create[0].Name != "web-ccccc" {
		t.Fatalf("got %v, want web-ccccc", create)
	}
}

func TestSyncStatefulSet(t *testing.T) {
	sts := &api.StatefulSet{ObjectMeta: api.ObjectMeta{Name: "db", Namespace: "default", UID: "s1"},
		Spec: api.WorkloadSpec{Replicas: i32(3), Template: api.PodTemplate{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "db"}}}}}
	pod := func(name string, mutate ...func(*api.Pod)) *api.Pod {
		p := st.MakePod().Name(name).OwnerReference("StatefulSet", "db").Obj()
		p.Status.Phase = api.PodRunning
		for _, m := range mutate {
			m(p)
		}
		return p
	}
	pending := func(p *api.Pod) { p.Status.Phase = api.PodPending }
	terminating := func(p *api.Pod) { p.DeletionTimestamp = &t0 }
	notReady := func(p *api.Pod) {
		p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionFalse}}
	}
	tests := []struct {
		name                   string
		owned                  []*api.Pod
		replicas               int32
		wantCreate, wantRemove string
		wantWait               string
	}{
		{"first ordinal", nil, 3, "db-0", "", ""},
		{"next after a running one", []*api.Pod{pod("db-0")}, 3, "db-1", "", ""},
		{"waits for a pending one", []*api.Pod{pod("db-0"), pod("db-1", pending)}, 3, "", "", "db-1 is not Running and Ready"},
		{"waits for a not-ready one", []*api.Pod{pod("db-0", notReady)}, 3, "", "", "db-0 is not Running and Ready"},
		{"a gap is filled first", []*api.Pod{pod("db-0"), pod("db-2")}, 3, "db-1", "", ""},
		{"a terminating pod blocks its own replacement", []*api.Pod{pod("db-0"), pod("db-1", terminating), pod("db-2")}, 3, "", "", "db-1 is terminating"},
		{"scale down: highest ordinal first", []*api.Pod{pod("db-0"), pod("db-1"), pod("db-2")}, 1, "", "db-2", ""},
		{"scale down waits for the previous one", []*api.Pod{pod("db-0"), pod("db-1"), pod("db-2", terminating)}, 1, "", "", "db-2 is terminating"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := *sts
			s.Spec.Replicas = &tt.replicas
			create, remove, wait := SyncStatefulSet(&s, tt.owned, t0)
			var gotC, gotR string
			if len(create) == 1 {
				gotC = create[0].Name
				want := map[string]string{"app": "db", StatefulSetPodNameLabel: gotC, PodIndexLabel: gotC[3:], ControllerRevisionHashLabel: create[0].Labels[ControllerRevisionHashLabel]}
				if diff := cmp.Diff(want, create[0].Labels); diff != "" || !strings.HasPrefix(want[ControllerRevisionHashLabel], "db-") {
					t.Errorf("labels (-want +got):\n%s", diff)
				}
			}
			if len(remove) == 1 {
				gotR = remove[0].Name
			}
			if diff := cmp.Diff([]string{tt.wantCreate, tt.wantRemove, tt.wantWait}, []string{gotC, gotR, wait}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
