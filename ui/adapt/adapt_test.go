package adapt_test

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedplay/schedplay/ui"
	"github.com/schedplay/schedplay/ui/adapt"
)

const twoZones = `
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: v1
kind: Node
metadata:
  name: n1
  labels: {topology.kubernetes.io/zone: z1}
spec:
  unschedulable: true
  taints: [{key: dedicated, value: gpu, effect: NoSchedule}]
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "10"}
---
apiVersion: v1
kind: Node
metadata: {name: n2}
status:
  allocatable: {cpu: 1500m, memory: 1Gi, pods: "5"}
---
apiVersion: v1
kind: Pod
metadata: {name: running, namespace: team}
spec:
  nodeName: n2
  containers: [{name: a, image: x, resources: {requests: {cpu: 500m, memory: 256Mi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: waiting}
spec:
  priorityClassName: high
  containers: [{name: a, image: x, resources: {requests: {cpu: "1"}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: done}
spec:
  nodeName: n2
  containers: [{name: a, image: x, resources: {requests: {cpu: "1"}}}]
status: {phase: Succeeded}
`

func TestLoad(t *testing.T) {
	res := adapt.Load("s.yaml", []byte(twoZones))
	if !res.OK {
		t.Fatalf("Load failed: %+v", res)
	}
	want := &ui.Scene{
		ZoneKey: "topology.kubernetes.io/zone",
		Nodes: []ui.Node{
			{
				Name: "n1", Zone: "z1", Unschedulable: true, Labels: map[string]string{"topology.kubernetes.io/zone": "z1"},
				Allocatable: ui.Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 10},
				Taints:      []ui.Taint{{Key: "dedicated", Value: "gpu", Effect: "NoSchedule"}},
				Pods:        []ui.Pod{}, Used: &ui.Resources{},
			},
			{
				Name:        "n2",
				Allocatable: ui.Resources{MilliCPU: 1500, Memory: 1 << 30, Pods: 5},
				// The finished pod holds nothing (the scheduler's informer
				// does not list it): it is on the card, dimmed, with its
				// reason, and Used does not count it.
				Pods: []ui.Pod{
					{Name: "done", Namespace: "default", Node: "n2", Phase: "Succeeded", Reason: "completed (status.phase Succeeded): kube-scheduler's informer does not list finished pods, so its requests, ports and labels count nowhere and it is no preemption victim",
						Requests: ui.Resources{MilliCPU: 1000}},
					{Namespace: "team", Name: "running", Node: "n2", Phase: "Running",
						Requests: ui.Resources{MilliCPU: 500, Memory: 256 << 20}},
				},
				Used: &ui.Resources{MilliCPU: 500, Memory: 256 << 20, Pods: 1},
			},
		},
		// Admission gives the pod its class's value as priority.
		Pending: []ui.Pod{{Namespace: "default", Name: "waiting", PriorityClass: "high", Priority: 1000, Phase: "Pending", Requests: ui.Resources{MilliCPU: 1000}}},
		Classes: []ui.PriorityClass{{Name: "high", Value: 1000}},
	}
	if diff := cmp.Diff(want, res.Scene); diff != "" {
		t.Errorf("scene (-want +got):\n%s", diff)
	}
	// The summary counts the scene's pods: the finished one is not among them.
	if diff := cmp.Diff(adapt.Summary{Nodes: 2, Pods: 2, Pending: 1}, res.Summary); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
}

func TestLoadErrorsCarryPositions(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		wantLine int
	}{
		{name: "broken YAML", text: "apiVersion: v1\nkind: Node\nmetadata:\n  name: [n1\n", wantLine: 4},
		{name: "bad quantity", text: "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus:\n  allocatable: {cpu: lots}\n", wantLine: 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := adapt.Load("s.yaml", []byte(tt.text))
			if res.OK || res.Scene != nil {
				t.Fatalf("Load(%q) succeeded, want diagnostics", tt.text)
			}
			if len(res.Diagnostics) == 0 {
				t.Fatalf("Load failed without diagnostics: %+v", res)
			}
			d := res.Diagnostics[0]
			if d.Line != tt.wantLine || d.Col < 1 || d.Severity != "error" || d.Msg == "" {
				t.Errorf("first diagnostic %+v, want an error at line %d with a column", d, tt.wantLine)
			}
		})
	}
}

func TestDefaultScenarioLoads(t *testing.T) {
	data, err := os.ReadFile("../../examples/preemption-basic.yaml")
	if err != nil {
		t.Skipf("no default scenario: %v", err)
	}
	res := adapt.Load("preemption-basic.yaml", data)
	if !res.OK {
		t.Fatalf("the page's default scenario does not load: %+v", res.Diagnostics)
	}
	if res.Summary.Nodes == 0 || res.Summary.Pending == 0 {
		t.Errorf("default scenario summary %+v: want nodes and a pending pod to show", res.Summary)
	}
	for _, c := range res.Scene.Classes {
		if strings.HasPrefix(c.Name, "system-") {
			t.Errorf("unused built-in class %s is in the legend", c.Name)
		}
	}
}

func TestLoadLesson(t *testing.T) {
	const text = `
apiVersion: v1
kind: Node
metadata: {name: n1}
status:
  allocatable: {cpu: "1", memory: 1Gi, pods: "5"}
---
apiVersion: schedplay.dev/v1alpha1
kind: Lesson
metadata: {name: tiny}
spec:
  title: A tiny lesson
  topic: Basics
  summary: One node.
  captions:
  - {at: 1m30s, text: "later"}
  - on: {kind: Scheduled, pod: web, node: n1}
    text: "bound"
`
	res := adapt.Load("tiny.yaml", []byte(text))
	if !res.OK {
		t.Fatalf("load failed: %+v", res.Diagnostics)
	}
	at := 90.0
	want := &adapt.Lesson{Title: "A tiny lesson", Summary: "One node.", Topic: "Basics", Captions: []adapt.Caption{
		{At: &at, Text: "later"},
		// A bare pod name means the default namespace, as the lesson test reads it.
		{On: &adapt.EventMatch{Kind: "Scheduled", Pod: "default/web", Node: "n1"}, Text: "bound"},
	}, Name: "tiny", Questions: []adapt.Question{}}
	if diff := cmp.Diff(want, res.Lesson); diff != "" {
		t.Errorf("lesson (-want +got):\n%s", diff)
	}
	if res := adapt.Load("none.yaml", []byte(text[:120])); res.Lesson != nil {
		t.Errorf("a scenario without a Lesson got %+v", res.Lesson)
	}
}
