package engine

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedplay/schedplay/core/scenario"
)

// maxPermalinkYAML is what the compressed YAML of an example may take in a
// permalink: chat apps cut messages at 2,000 characters and the link also
// carries the page address, a version prefix and the view.
const maxPermalinkYAML = 1800

// permalinkSize is the length of the YAML as a permalink carries it:
// raw deflate at best compression, then unpadded base64url.
func permalinkSize(t *testing.T, data []byte) int {
	t.Helper()
	var b bytes.Buffer
	w, err := flate.NewWriter(&b, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodedLen(b.Len())
}

// TestExampleLessons plays every example to its end and checks its Lesson:
// each caption's moment happens, each expected pod state and event holds,
// and the file fits in a permalink.
func TestExampleLessons(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples found: %v", err)
	}
	for _, f := range files {
		base := strings.TrimSuffix(filepath.Base(f), ".yaml")
		t.Run(base, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if n := permalinkSize(t, data); n > maxPermalinkYAML {
				t.Errorf("compressed YAML takes %d characters in a permalink, more than %d: make the scenario leaner", n, maxPermalinkYAML)
			} else {
				t.Logf("permalink YAML: %d characters", n)
			}
			sc, err := scenario.Load(f, data)
			if err != nil {
				t.Fatalf("loading: %v", err)
			}
			les := sc.Lesson
			if les == nil {
				t.Fatalf("no Lesson document (docs/lessons.md)")
			}
			if les.Name != base {
				t.Errorf("Lesson metadata.name is %q, want the file's name %q", les.Name, base)
			}
			sim, err := Simulate(sc, Options{})
			if err != nil {
				t.Fatalf("simulating: %v", err)
			}
			for _, msg := range checkLesson(les, sim.Trace(), sim.Result()) {
				t.Errorf("%s", msg)
			}
		})
	}
}

// checkLesson lists every claim of the lesson the run does not bear out.
func checkLesson(les *scenario.Lesson, trace []Event, res *Result) []string {
	var fails []string
	failf := func(p scenario.Pos, format string, args ...any) {
		fails = append(fails, fmt.Sprintf("line %d: ", p.Line)+fmt.Sprintf(format, args...))
	}
	end := time.Duration(0)
	if len(trace) > 0 {
		end = time.Duration(trace[len(trace)-1].T)
	}
	for i, c := range les.Captions {
		switch {
		case c.On != nil && firstMatch(trace, *c.On) < 0:
			failf(c.Pos, "caption %d waits for %s, which never happens", i, c.On)
		case c.At != nil && *c.At > end:
			failf(c.Pos, "caption %d is at %v, after the last event (%v)", i, *c.At, end)
		}
	}
	pods := map[string]PodResult{}
	for _, p := range res.Pods {
		pods[p.Namespace+"/"+p.Name] = p
	}
	for _, want := range les.Expect.Pods {
		got, ok := pods[want.Pod]
		switch {
		case !ok:
			failf(want.Pos, "expected pod %s does not exist at the end", want.Pod)
		case want.Phase != "" && string(got.Phase) != want.Phase:
			failf(want.Pos, "pod %s ends %s, the lesson says %s", want.Pod, got.Phase, want.Phase)
		case want.Node != "" && got.Node != want.Node:
			failf(want.Pos, "pod %s ends on node %q, the lesson says %s", want.Pod, got.Node, want.Node)
		case want.NominatedNode != "" && got.NominatedNode != want.NominatedNode:
			failf(want.Pos, "pod %s ends nominated to %q, the lesson says %s", want.Pod, got.NominatedNode, want.NominatedNode)
		}
	}
	for _, m := range les.Expect.Events {
		i := firstMatch(trace, m)
		switch {
		case m.Absent && i >= 0:
			failf(m.Pos, "no %s was expected, but event %d is one: %s", m, i, trace[i].Reason)
		case !m.Absent && i < 0:
			failf(m.Pos, "expected event %s never happens", m)
		}
	}
	return fails
}

// firstMatch is the index of the first trace event m matches, or -1.
func firstMatch(trace []Event, m scenario.EventMatch) int {
	for i, e := range trace {
		if e.Kind == m.Kind && (m.Pod == "" || e.Pod == m.Pod) && (m.Node == "" || e.Node == m.Node) &&
			strings.Contains(e.Reason, m.Reason) && (m.At == nil || time.Duration(e.T) == *m.At) {
			return i
		}
	}
	return -1
}

// TestCheckLesson shows that a wrong lesson fails: each kind of claim is
// checked against a small run.
func TestCheckLesson(t *testing.T) {
	trace := []Event{
		{T: 0, Kind: EvNominated, Pod: "default/critical", Node: "node-b"},
		{T: Duration(30 * time.Second), Kind: EvDeleted, Pod: "default/low", Node: "node-b", Reason: "graceful termination finished"},
	}
	res := &Result{Pods: []PodResult{{Namespace: "default", Name: "critical", Phase: PhaseRunning, Node: "node-b"}}}
	at := func(d time.Duration) *time.Duration { return &d }
	tests := []struct {
		name string
		les  scenario.Lesson
		want int
	}{
		{"all hold", scenario.Lesson{
			Captions: []scenario.Caption{{At: at(0)}, {On: &scenario.EventMatch{Kind: EvNominated, Pod: "default/critical"}}},
			Expect: scenario.LessonExpect{
				Pods:   []scenario.PodExpect{{Pod: "default/critical", Phase: "Running", Node: "node-b"}},
				Events: []scenario.EventMatch{{Kind: EvDeleted, Pod: "default/low", At: at(30 * time.Second), Reason: "graceful"}, {Kind: EvKilled, Absent: true}},
			},
		}, 0},
		{"caption event never happens", scenario.Lesson{Captions: []scenario.Caption{{On: &scenario.EventMatch{Kind: EvPreempted}}}}, 1},
		{"caption after the end", scenario.Lesson{Captions: []scenario.Caption{{At: at(time.Minute)}}}, 1},
		{"wrong node", scenario.Lesson{Expect: scenario.LessonExpect{Pods: []scenario.PodExpect{{Pod: "default/critical", Node: "node-a"}}}}, 1},
		{"wrong phase", scenario.Lesson{Expect: scenario.LessonExpect{Pods: []scenario.PodExpect{{Pod: "default/critical", Phase: "Pending"}}}}, 1},
		{"missing pod", scenario.Lesson{Expect: scenario.LessonExpect{Pods: []scenario.PodExpect{{Pod: "default/nope"}}}}, 1},
		{"wrong time", scenario.Lesson{Expect: scenario.LessonExpect{Events: []scenario.EventMatch{{Kind: EvDeleted, At: at(29 * time.Second)}}}}, 1},
		{"event that should be absent", scenario.Lesson{Expect: scenario.LessonExpect{Events: []scenario.EventMatch{{Kind: EvNominated, Absent: true}}}}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := checkLesson(&tt.les, trace, res); len(got) != tt.want {
				t.Errorf("got %d failures %q, want %d", len(got), got, tt.want)
			}
		})
	}
}
