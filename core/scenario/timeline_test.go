package scenario

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
)

const timelineBase = `apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "10"}}
---
apiVersion: schedplay.dev/v1alpha1
kind: Timeline
spec:
  actions:
`

func TestLoadTimeline(t *testing.T) {
	tests := []struct {
		name   string
		action string
		check  func(t *testing.T, a *Action)
	}{
		{"create pod", `  - at: 30s
    create: {apiVersion: v1, kind: Pod, metadata: {name: late}, spec: {containers: [{name: c, image: i}]}}
`, func(t *testing.T, a *Action) {
			p, ok := a.Object.(*api.Pod)
			if a.Kind != ActionCreate || a.At != 30*time.Second || !ok || p.Namespace != "default" || p.Name != "late" {
				t.Errorf("got %+v", a)
			}
		}},
		{"create deployment", `  - at: 1m
    create: {apiVersion: apps/v1, kind: Deployment, metadata: {name: web}, spec: {replicas: 2, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c}]}}}}
`, func(t *testing.T, a *Action) {
			d, ok := a.Object.(*api.Deployment)
			if !ok || *d.Spec.Replicas != 2 || a.At != time.Minute {
				t.Errorf("got %+v", a)
			}
		}},
		{"delete pod", "  - {at: 10, delete: {kind: Pod, name: x}}\n", func(t *testing.T, a *Action) {
			if diff := cmp.Diff(ObjectRef{Kind: "Pod", Namespace: "default", Name: "x"}, a.Ref); diff != "" || a.At != 10*time.Second {
				t.Errorf("(-want +got):\n%s", diff)
			}
		}},
		{"cordon", "  - {at: 1m30s, cordon: n1}\n", func(t *testing.T, a *Action) {
			if a.Kind != ActionCordon || a.Ref.Name != "n1" || a.At != 90*time.Second {
				t.Errorf("got %+v", a)
			}
		}},
		{"uncordon", "  - {at: 2m, uncordon: n1}\n", func(t *testing.T, a *Action) {
			if a.Kind != ActionUncordon || a.Ref.Name != "n1" {
				t.Errorf("got %+v", a)
			}
		}},
		{"addNode", "  - at: 5s\n    addNode: {apiVersion: v1, kind: Node, metadata: {name: n2}, status: {capacity: {cpu: \"2\"}}}\n", func(t *testing.T, a *Action) {
			n, ok := a.Object.(*api.Node)
			if !ok || n.Name != "n2" {
				t.Errorf("got %+v", a)
			}
		}},
		{"removeNode", "  - {at: 5s, removeNode: n1}\n", func(t *testing.T, a *Action) {
			if a.Kind != ActionRemoveNode || a.Ref.Name != "n1" {
				t.Errorf("got %+v", a)
			}
		}},
		{"scale", "  - {at: 5s, scale: {kind: Deployment, name: web, replicas: 5}}\n", func(t *testing.T, a *Action) {
			if a.Kind != ActionScale || a.Ref.Kind != "Deployment" || a.Replicas != 5 {
				t.Errorf("got %+v", a)
			}
		}},
		{"pressure", "  - {at: 5s, pressure: {node: n1, resource: memory, threshold: soft, limit: 3Gi, evictionMaxPodGracePeriod: 20, usage: {a: 2Gi, other/b: 1Gi}}}\n", func(t *testing.T, a *Action) {
			p := a.Pressure
			if p == nil || p.Node != "n1" || p.Resource != api.ResourceMemory || p.Threshold != ThresholdSoft || p.MaxPodGracePeriod != 20 ||
				p.Limit.Value() != 3<<30 || p.Usage["default/a"].Value() != 2<<30 || p.Usage["other/b"].Value() != 1<<30 {
				t.Errorf("got %+v", p)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustLoad(t, "f.yaml", timelineBase+tt.action)
			if len(s.Timeline) != 1 {
				t.Fatalf("got %d actions, want 1", len(s.Timeline))
			}
			tt.check(t, s.Timeline[0])
		})
	}
}

func TestLoadTimelineOrder(t *testing.T) {
	s := mustLoad(t, "f.yaml", timelineBase+"  - {at: 2m, cordon: n1}\n  - {at: 1m, uncordon: n1}\n  - {at: 1m, cordon: n1}\n")
	var got []string
	for _, a := range s.Timeline {
		got = append(got, a.At.String()+" "+a.Kind)
	}
	if diff := cmp.Diff([]string{"1m0s uncordon", "1m0s cordon", "2m0s cordon"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestLoadTimelineErrors(t *testing.T) {
	tests := []struct {
		name, action, want string
	}{
		{"bad time", "  - {at: soon, cordon: n1}\n", `f.yaml:10:10: Timeline: spec.actions[0].at: invalid time the string "soon" (write a duration from the start such as "30s", "1m30s" or a number of seconds)`},
		{"negative time", "  - {at: -5s, cordon: n1}\n", `f.yaml:10:10: Timeline: spec.actions[0].at: invalid time the string "-5s" (write a duration from the start such as "30s", "1m30s" or a number of seconds)`},
		{"unknown action", "  - {at: 5s, cordn: n1}\n", `f.yaml:10:14: Timeline: spec.actions[0].cordn: unknown action "cordn" (did you mean "cordon"?)`},
		{"two actions", "  - {at: 5s, cordon: n1, uncordon: n1}\n", `f.yaml:10:26: Timeline: spec.actions[0].uncordon: an action does one thing; this one already has cordon (split it into two actions)`},
		{"no action", "  - {at: 5s}\n", `f.yaml:10:5: Timeline: spec.actions[0]: the action does nothing (add one of create, delete, cordon, uncordon, addNode, removeNode, scale, pressure)`},
		{"create unknown kind", "  - {at: 5s, create: {apiVersion: v1, kind: Service, metadata: {name: s}}}\n", `f.yaml:10:22: Timeline: spec.actions[0].create: cannot create a Service (use one of Pod, Node, Deployment, ReplicaSet, StatefulSet, PodDisruptionBudget)`},
		{"addNode of a pod", "  - {at: 5s, addNode: {apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: c}]}}}\n", `f.yaml:10:23: Timeline: spec.actions[0].addNode: cannot addNode a Pod (use one of Node)`},
		{"created object is validated", "  - {at: 5s, create: {apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {}}}\n", `f.yaml:10:77: Pod default/p: spec.containers: Required value: a pod needs at least one container (add containers: [{name: app, image: registry.k8s.io/pause}])`},
		{"delete bad kind", "  - {at: 5s, delete: {kind: Secret, name: x}}\n", `f.yaml:10:29: Timeline: spec.actions[0].delete.kind: cannot delete kind "Secret" (use one of Pod, Node, Deployment, ReplicaSet, StatefulSet, PodDisruptionBudget)`},
		{"scale without replicas", "  - {at: 5s, scale: {kind: Deployment, name: web}}\n", `f.yaml:10:21: Timeline: spec.actions[0].scale.replicas: replicas must be a whole number >= 0`},
		{"scale a pod", "  - {at: 5s, scale: {kind: Pod, name: web, replicas: 1}}\n", `f.yaml:10:28: Timeline: spec.actions[0].scale.kind: cannot scale kind "Pod" (use one of Deployment, ReplicaSet, StatefulSet)`},
		{"pressure bad resource", "  - {at: 5s, pressure: {node: n1, resource: cpu, threshold: soft}}\n", `f.yaml:10:45: Timeline: spec.actions[0].pressure.resource: unsupported resource the string "cpu" (use memory or ephemeral-storage)`},
		{"pressure bad threshold", "  - {at: 5s, pressure: {node: n1, resource: memory, threshold: medium}}\n", `f.yaml:10:64: Timeline: spec.actions[0].pressure.threshold: unsupported threshold the string "medium" (use soft or hard)`},
		{"pressure bad usage", "  - {at: 5s, pressure: {node: n1, resource: memory, threshold: hard, usage: {a: lots}}}\n", `f.yaml:10:81: Timeline: spec.actions[0].pressure.usage[a]: invalid quantity the string "lots" (write a quantity such as "1Gi")`},
		{"pressure hard with grace", "  - {at: 5s, pressure: {node: n1, resource: memory, threshold: hard, evictionMaxPodGracePeriod: 5}}\n", `f.yaml:10:24: Timeline: spec.actions[0].pressure.evictionMaxPodGracePeriod: evictionMaxPodGracePeriod applies to soft thresholds only (a hard threshold kills with a 1 s grace period) (remove evictionMaxPodGracePeriod or use threshold: soft)`},
		{"wrong apiVersion", "", ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := timelineBase + tt.action
			if tt.name == "wrong apiVersion" {
				src = "apiVersion: schedplay.dev/v1\nkind: Timeline\nspec: {}\n"
				tt.want = `f.yaml:1:13: Timeline: apiVersion: no kind Timeline in version "schedplay.dev/v1" (use apiVersion: schedplay.dev/v1alpha1)`
			}
			_, err := Load("f.yaml", []byte(src))
			errs, ok := err.(ErrorList)
			if !ok || len(errs) == 0 {
				t.Fatalf("got %v, want an ErrorList", err)
			}
			if diff := cmp.Diff(tt.want, errs[0].Error()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestAdmitCreatedPod(t *testing.T) {
	s := mustLoad(t, "f.yaml", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n")
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}, Spec: api.PodSpec{PriorityClassName: "high", Containers: []api.Container{{Name: "c"}}}}
	if err := s.AdmitCreatedPod(p); err != nil {
		t.Fatal(err)
	}
	if p.PriorityValue() != 1000 || *p.Spec.PreemptionPolicy != api.PreemptLowerPriority {
		t.Errorf("priority %d policy %v", p.PriorityValue(), *p.Spec.PreemptionPolicy)
	}
	p.Spec.PriorityClassName = "missing"
	if err := s.AdmitCreatedPod(p); err == nil {
		t.Errorf("want an error for an unknown PriorityClass")
	}
}

func TestTimelineDeleteGracePeriod(t *testing.T) {
	const head = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n---\napiVersion: schedplay.dev/v1alpha1\nkind: Timeline\nspec:\n  actions:\n"
	s := mustLoad(t, "f.yaml", head+"  - {at: 1s, delete: {kind: Pod, name: x, gracePeriodSeconds: 5}}\n")
	if g := s.Timeline[0].GracePeriodSeconds; g == nil || *g != 5 {
		t.Errorf("GracePeriodSeconds = %v, want 5", g)
	}
	for _, bad := range []string{"{kind: Pod, name: x, gracePeriodSeconds: -1}", "{kind: Deployment, name: x, gracePeriodSeconds: 5}"} {
		_, err := Load("f.yaml", []byte(head+"  - {at: 1s, delete: "+bad+"}\n"))
		if err == nil || !strings.Contains(err.Error(), "only a Pod's delete takes one") {
			t.Errorf("delete %s: got %v, want an error about the grace period", bad, err)
		}
	}
}
