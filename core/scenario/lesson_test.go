package scenario

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

const (
	nodeN1 = `apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "10"}}
---
`
	lessonDoc = `apiVersion: schedplay.dev/v1alpha1
kind: Lesson
metadata: {name: demo}
spec:
  title: A demo
  summary: Two sentences. That is all.
  topic: Preemption
`
	lessonBase = nodeN1 + lessonDoc
)

func dur(d time.Duration) *time.Duration { return &d }

func TestLoadLesson(t *testing.T) {
	src := lessonBase + `  captions:
  - {at: 0s, text: start}
  - {at: 1m30s, text: later}
  - on: {kind: Nominated, pod: critical, node: node-b}
    text: nominated
  expect:
    pods:
      default/critical: {phase: Running, node: node-b}
      other/x: {phase: Pending, nominatedNode: node-a}
    events:
    - {kind: Preempted, pod: default/low-b2}
    - {kind: Deleted, pod: low-b2, at: 30s, reason: graceful}
    - {kind: SIGKILL, absent: true}
`
	s := mustLoad(t, "f.yaml", src)
	want := &Lesson{
		Name: "demo", Title: "A demo", Summary: "Two sentences. That is all.", Topic: "Preemption",
		Captions: []Caption{
			{At: dur(0), Text: "start"},
			{At: dur(90 * time.Second), Text: "later"},
			{On: &EventMatch{Kind: "Nominated", Pod: "default/critical", Node: "node-b"}, Text: "nominated"},
		},
		Expect: LessonExpect{
			Pods: []PodExpect{
				{Pod: "default/critical", Phase: "Running", Node: "node-b"},
				{Pod: "other/x", Phase: "Pending", NominatedNode: "node-a"},
			},
			Events: []EventMatch{
				{Kind: "Preempted", Pod: "default/low-b2"},
				{Kind: "Deleted", Pod: "default/low-b2", At: dur(30 * time.Second), Reason: "graceful"},
				{Kind: "SIGKILL", Absent: true},
			},
		},
	}
	ignorePos := cmpopts.IgnoreFields(Lesson{}, "Pos")
	if diff := cmp.Diff(want, s.Lesson, ignorePos, cmpopts.IgnoreFields(Caption{}, "Pos"), cmpopts.IgnoreFields(EventMatch{}, "Pos"), cmpopts.IgnoreFields(PodExpect{}, "Pos")); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if s.Lesson.Pos != (Pos{6, 1}) || s.Lesson.Captions[2].Pos != (Pos{16, 5}) {
		t.Errorf("positions: lesson %v, caption 2 %v", s.Lesson.Pos, s.Lesson.Captions[2].Pos)
	}
}

func TestLoadWithoutLesson(t *testing.T) {
	s := mustLoad(t, "f.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n")
	if s.Lesson != nil {
		t.Errorf("got lesson %+v, want none", s.Lesson)
	}
}

func TestLoadLessonErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"wrong apiVersion", "apiVersion: schedplay.dev/v1\nkind: Lesson\nspec: {}\n",
			`f.yaml:1:13: Lesson: apiVersion: no kind Lesson in version "schedplay.dev/v1" (use apiVersion: schedplay.dev/v1alpha1)`},
		{"no name", "apiVersion: schedplay.dev/v1alpha1\nkind: Lesson\nspec: {title: t, summary: s, topic: x}\n",
			`f.yaml:1:1: Lesson: metadata.name: Required value: name (name the lesson after its file)`},
		{"missing title", "apiVersion: schedplay.dev/v1alpha1\nkind: Lesson\nmetadata: {name: x}\nspec: {summary: s, topic: x}\n",
			`f.yaml:4:7: Lesson: spec.title: Required value: title`},
		{"unknown spec field", lessonBase + "  captons: []\n",
			`f.yaml:13:3: Lesson: spec.captons: unknown field "captons" (did you mean "captions"?)`},
		{"caption without moment", lessonBase + "  captions:\n  - {text: hello}\n",
			`f.yaml:14:5: Lesson: spec.captions[0]: the caption has no moment (add at: (a time) or on: (a trace event))`},
		{"caption with two moments", lessonBase + "  captions:\n  - {at: 1s, on: {kind: Queued}, text: hello}\n",
			`f.yaml:14:18: Lesson: spec.captions[0].on: a caption has one moment; this one already has at (keep at or on)`},
		{"caption bad time", lessonBase + "  captions:\n  - {at: soon, text: hello}\n",
			`f.yaml:14:10: Lesson: spec.captions[0].at: invalid time the string "soon" (write a duration from the start such as "30s", "1m30s" or a number of seconds)`},
		{"caption without text", lessonBase + "  captions:\n  - {at: 1s}\n",
			`f.yaml:14:5: Lesson: spec.captions[0].text: Required value: text`},
		{"match without kind", lessonBase + "  captions:\n  - {on: {pod: x}, text: hi}\n",
			`f.yaml:14:10: Lesson: spec.captions[0].on.kind: Required value: kind`},
		{"absent in a caption", lessonBase + "  captions:\n  - {on: {kind: Queued, absent: true}, text: hi}\n",
			`f.yaml:14:25: Lesson: spec.captions[0].on.absent: unknown field "absent" (use one of kind, pod, node, reason)`},
		{"bad phase", lessonBase + "  expect:\n    pods: {critical: {phase: Runing}}\n",
			`f.yaml:14:30: Lesson: spec.expect.pods[critical].phase: unknown phase "Runing" (use one of Pending, Running, Failed, Deleted)`},
		{"pods as a list", lessonBase + "  expect:\n    pods: [critical]\n",
			`f.yaml:14:11: Lesson: spec.expect.pods: expected a mapping of pod (namespace/name) to its final state, got a list`},
		{"bad absent", lessonBase + "  expect:\n    events: [{kind: Preempted, absent: yes}]\n",
			`f.yaml:14:40: Lesson: spec.expect.events[0].absent: expected true or false, got the string "yes"`},
		{"bad priority", lessonBase + "  expect:\n    pods: {web: {priority: high}}\n",
			`f.yaml:14:28: Lesson: spec.expect.pods[web].priority: expected a whole number, got the string "high"`},
		{"priority beyond int32", lessonBase + "  expect:\n    pods: {web: {priority: 3000000000}}\n",
			`f.yaml:14:28: Lesson: spec.expect.pods[web].priority: priority 3000000000 is not a 32-bit integer`},
		{"bad preemptionPolicy", lessonBase + "  expect:\n    pods: {web: {preemptionPolicy: Nevr}}\n",
			`f.yaml:14:36: Lesson: spec.expect.pods[web].preemptionPolicy: unknown preemptionPolicy "Nevr" (use one of Never, PreemptLowerPriority)`},
		{"scores as a number", lessonBase + "  expect:\n    explain: [{pod: web, nodes: {n1: {scores: 5}}}]\n",
			`f.yaml:14:47: Lesson: spec.expect.explain[0].nodes.n1.scores: expected a mapping of score plugin to its normalized score, got 5 (write {PodTopologySpread: 100})`},
		{"bad total", lessonBase + "  expect:\n    explain: [{pod: web, nodes: {n1: {total: 1.5}}}]\n",
			`f.yaml:14:46: Lesson: spec.expect.explain[0].nodes.n1.total: expected a whole number, got 1.5`},
		{"rejected with expect", lessonBase + "  variants:\n  - {name: v, try: t, patch: [{object: Node/n1, delete: true}], rejected: no, expect: {pods: {}}}\n",
			`f.yaml:14:87: Lesson: spec.variants[0].expect: a rejected variant never runs, so it has no outcome (keep rejected: or expect:)`},
		{"two lessons", lessonBase + "---\n" + lessonBase[strings.Index(lessonBase, "apiVersion: schedplay"):],
			`f.yaml:14:1: Lesson: a scenario may hold one Lesson; another starts at line 6 (merge the two lessons)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load("f.yaml", []byte(tt.src))
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

const variantBase = nodeN1 + `apiVersion: v1
kind: Node
metadata: {name: n2}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers: [{name: app, image: nginx}]
---
` + lessonDoc + `  variants:
  - name: v
    try: Change things.
    patch:
`

func TestLoadVariant(t *testing.T) {
	src := variantBase + `    - {object: Node/n2, delete: true}
    - object: Pod/default/web
      set:
        spec.nodeName: n1
        metadata.labels.app: web
        spec.containers[0].image: busybox
    - add: {apiVersion: v1, kind: Pod, metadata: {name: extra}, spec: {containers: [{name: c, image: x}]}}
    expect: {pods: {web: {node: n1}}}
`
	base := mustLoad(t, "f.yaml", src)
	if len(base.Nodes) != 2 || len(base.Pods) != 1 || base.Pods[0].Spec.NodeName != "" {
		t.Fatalf("the plain load changed: %d nodes, %d pods", len(base.Nodes), len(base.Pods))
	}
	if v := base.Lesson.Variants; len(v) != 1 || v[0].Try != "Change things." || len(v[0].Expect.Pods) != 1 {
		t.Fatalf("variants = %+v", v)
	}
	s, err := LoadVariant("f.yaml", []byte(src), "v")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Nodes) != 1 || s.Nodes[0].Name != "n1" {
		t.Errorf("nodes after delete: %v", s.Nodes)
	}
	if len(s.Pods) != 2 || s.Pods[1].Name != "extra" {
		t.Fatalf("pods after add: %d", len(s.Pods))
	}
	web := s.Pods[0]
	if web.Spec.NodeName != "n1" || web.Labels["app"] != "web" || web.Spec.Containers[0].Image != "busybox" {
		t.Errorf("web after set: node %q labels %v image %q", web.Spec.NodeName, web.Labels, web.Spec.Containers[0].Image)
	}
}

// A variant can expect the patched scenario to be refused instead of run.
func TestLoadRejectedVariant(t *testing.T) {
	src := variantBase + "    - {object: Pod/web, set: {spec.priorityClassName: gold}}\n    rejected: no PriorityClass with name gold\n"
	base := mustLoad(t, "f.yaml", src)
	if v := base.Lesson.Variants; len(v) != 1 || v[0].Rejected != "no PriorityClass with name gold" {
		t.Fatalf("variants = %+v", v)
	}
	_, err := LoadVariant("f.yaml", []byte(src), "v")
	want := `f.yaml:28:55: Pod default/web: spec.priorityClassName: no PriorityClass with name gold was found (add the PriorityClass to the scenario or fix the name)`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestLoadVariantErrors(t *testing.T) {
	tests := []struct {
		name, patch, variant, want string
	}{
		{"no such variant", "    - {object: Node/n2, delete: true}\n", "w",
			`f.yaml:17:1: Lesson: spec.variants: no variant named "w" (name one of the lesson's spec.variants)`},
		{"no such object", "    - {object: Node/n9, delete: true}\n", "v",
			`f.yaml:28:16: Lesson: variant v: patch[0].object: no object Node/n9 in the scenario (write Kind/name or Kind/namespace/name of an object in the file)`},
		{"bad index", "    - object: Pod/web\n      set:\n        spec.containers[3].image: x\n", "v",
			`f.yaml:30:9: Lesson: variant v: patch[0].set: spec.containers[3].image: no item [3] in a list`},
		{"set and delete", "    - {object: Pod/web, delete: true, set: {a: b}}\n", "v",
			`f.yaml:28:7: Lesson: variant v: patch[0]: a patch of an object has set or delete: true`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadVariant("f.yaml", []byte(variantBase+tt.patch+"    expect: {pods: {web: {node: n1}}}\n"), tt.variant)
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
