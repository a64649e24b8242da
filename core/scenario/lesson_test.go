package scenario

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

const lessonBase = `apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "10"}}
---
apiVersion: schedplay.dev/v1alpha1
kind: Lesson
metadata: {name: demo}
spec:
  title: A demo
  summary: Two sentences. That is all.
  topic: Preemption
`

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
			`f.yaml:14:30: Lesson: spec.expect.pods[critical].phase: unknown phase "Runing" (use one of Pending, Running, Deleted)`},
		{"pods as a list", lessonBase + "  expect:\n    pods: [critical]\n",
			`f.yaml:14:11: Lesson: spec.expect.pods: expected a mapping of pod (namespace/name) to its final state, got a list`},
		{"bad absent", lessonBase + "  expect:\n    events: [{kind: Preempted, absent: yes}]\n",
			`f.yaml:14:40: Lesson: spec.expect.events[0].absent: expected true or false, got the string "yes"`},
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
