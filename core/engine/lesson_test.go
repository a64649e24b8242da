package engine

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/schedplay/schedplay/core/scenario"
	"github.com/schedplay/schedplay/core/scheduler"
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
			for _, msg := range sim.CheckLesson(les.Captions, les.Expect) {
				t.Errorf("%s", msg)
			}
			for _, msg := range sim.CheckQuestions(les) {
				t.Errorf("%s", msg)
			}
			for _, msg := range untoldTies(sim.Trace(), les.Expect) {
				t.Errorf("%s", msg)
			}
			// Each "Try" suggestion runs too, and leads where it says.
			for _, v := range les.Variants {
				vsc, err := scenario.LoadVariant(f, data, v.Name)
				if v.Rejected != "" {
					checkRejected(t, v, err)
					continue
				}
				if err != nil {
					t.Errorf("variant %s: loading: %v", v.Name, err)
					continue
				}
				vsim, err := Simulate(vsc, Options{})
				if err != nil {
					t.Errorf("variant %s: simulating: %v", v.Name, err)
					continue
				}
				for _, msg := range append(vsim.CheckLesson(nil, v.Expect), untoldTies(vsim.Trace(), v.Expect)...) {
					t.Errorf("variant %s: %s", v.Name, msg)
				}
			}
		})
	}
}

// checkRejected requires a rejected variant's load error to quote the
// lesson's message and to point at a file:line:col.
func checkRejected(t *testing.T, v scenario.Variant, err error) {
	t.Helper()
	switch {
	case err == nil:
		t.Errorf("variant %s: loads, the lesson says it is rejected with %q", v.Name, v.Rejected)
	case !strings.Contains(err.Error(), v.Rejected):
		t.Errorf("variant %s: rejected with %q, the lesson quotes %q", v.Name, err, v.Rejected)
	case !positioned.MatchString(err.Error()):
		t.Errorf("variant %s: the message %q has no file:line:col", v.Name, err)
	}
}

var positioned = regexp.MustCompile(`\.yaml:\d+:\d+: `)

// untoldTies lists the bindings of the run that won a tie without the
// lesson saying so: which tied node upstream takes depends on its parallel filter, so a lesson
// may only rest on a tie it teaches (an expected Scheduled event with ties).
func untoldTies(trace []Event, exp scenario.LessonExpect) []string {
	var out []string
	for _, e := range trace {
		if e.Kind != EvScheduled || len(e.Ties) == 0 {
			continue
		}
		told := slices.ContainsFunc(exp.Events, func(m scenario.EventMatch) bool {
			return m.Kind == EvScheduled && len(m.Ties) > 0 && (m.Pod == "" || m.Pod == e.Pod)
		})
		if !told {
			out = append(out, fmt.Sprintf("%s went to %s by a tie among %v, which the lesson does not teach: change the scenario so that scores decide, or expect the tie", e.Pod, e.Node, e.Ties))
		}
	}
	return out
}

// TestCheckLesson shows that a wrong lesson fails: each kind of claim is
// checked against a small run.
func TestCheckLesson(t *testing.T) {
	trace := []Event{
		{T: 0, Kind: EvNominated, Pod: "default/critical", Node: "node-b"},
		{T: Duration(30 * time.Second), Kind: EvDeleted, Pod: "default/low", Node: "node-b", Reason: "graceful termination finished"},
	}
	res := &Result{Pods: []PodResult{{Namespace: "default", Name: "critical", Phase: PhaseRunning, Node: "node-b", Priority: 1000, PreemptionPolicy: "Never"}}}
	total := int64(540)
	explained := func(scenario.ExplainExpect) (*Attempt, error) {
		return &Attempt{Explanation: &scheduler.Explanation{Nodes: []scheduler.NodeResult{
			{Name: "node-a", Feasible: true, Scores: map[string]int64{"PodTopologySpread": 33}, Total: &total},
			{Name: "node-b", Plugin: "NodeResourcesFit"},
		}}}, nil
	}
	p := func(v int32) *int32 { return &v }
	i := func(v int64) *int64 { return &v }
	at := func(d time.Duration) *time.Duration { return &d }
	tests := []struct {
		name string
		les  scenario.Lesson
		want int
		// explain is checkRun's cycle explainer (none when nil).
		explain func(scenario.ExplainExpect) (*Attempt, error)
	}{
		{"all hold", scenario.Lesson{
			Captions: []scenario.Caption{{At: at(0)}, {On: &scenario.EventMatch{Kind: EvNominated, Pod: "default/critical"}}},
			Expect: scenario.LessonExpect{
				Pods:   []scenario.PodExpect{{Pod: "default/critical", Phase: "Running", Node: "node-b"}},
				Events: []scenario.EventMatch{{Kind: EvDeleted, Pod: "default/low", At: at(30 * time.Second), Reason: "graceful"}, {Kind: EvKilled, Absent: true}},
			},
		}, 0, nil},
		{"caption event never happens", scenario.Lesson{Captions: []scenario.Caption{{On: &scenario.EventMatch{Kind: EvPreempted}}}}, 1, nil},
		{"caption after the end", scenario.Lesson{Captions: []scenario.Caption{{At: at(time.Minute)}}}, 1, nil},
		{"wrong node", scenario.Lesson{Expect: scenario.LessonExpect{Pods: []scenario.PodExpect{{Pod: "default/critical", Node: "node-a"}}}}, 1, nil},
		{"wrong phase", scenario.Lesson{Expect: scenario.LessonExpect{Pods: []scenario.PodExpect{{Pod: "default/critical", Phase: "Pending"}}}}, 1, nil},
		{"missing pod", scenario.Lesson{Expect: scenario.LessonExpect{Pods: []scenario.PodExpect{{Pod: "default/nope"}}}}, 1, nil},
		{"wrong time", scenario.Lesson{Expect: scenario.LessonExpect{Events: []scenario.EventMatch{{Kind: EvDeleted, At: at(29 * time.Second)}}}}, 1, nil},
		{"event that should be absent", scenario.Lesson{Expect: scenario.LessonExpect{Events: []scenario.EventMatch{{Kind: EvNominated, Absent: true}}}}, 1, nil},
		{"priority and policy hold", scenario.Lesson{Expect: scenario.LessonExpect{Pods: []scenario.PodExpect{{Pod: "default/critical", Priority: p(1000), PreemptionPolicy: "Never"}}}}, 0, nil},
		{"wrong priority", scenario.Lesson{Expect: scenario.LessonExpect{Pods: []scenario.PodExpect{{Pod: "default/critical", Priority: p(0)}}}}, 1, nil},
		{"wrong preemptionPolicy", scenario.Lesson{Expect: scenario.LessonExpect{Pods: []scenario.PodExpect{{Pod: "default/critical", PreemptionPolicy: "PreemptLowerPriority"}}}}, 1, nil},
		{"scores hold", scenario.Lesson{Expect: scenario.LessonExpect{Explain: []scenario.ExplainExpect{{Pod: "default/x", Nodes: []scenario.NodeExpect{
			{Name: "node-a", Scores: map[string]int64{"PodTopologySpread": 33}, Total: i(540)}}}}}}, 0, explained},
		{"wrong score, wrong total", scenario.Lesson{Expect: scenario.LessonExpect{Explain: []scenario.ExplainExpect{{Pod: "default/x", Nodes: []scenario.NodeExpect{
			{Name: "node-a", Scores: map[string]int64{"PodTopologySpread": 34}, Total: i(541)}}}}}}, 2, explained},
		{"a score of an unscored node", scenario.Lesson{Expect: scenario.LessonExpect{Explain: []scenario.ExplainExpect{{Pod: "default/x", Nodes: []scenario.NodeExpect{
			{Name: "node-b", Scores: map[string]int64{"PodTopologySpread": 0}, Total: i(0)}}}}}}, 2, explained},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			explain := tt.explain
			if explain == nil {
				explain = func(scenario.ExplainExpect) (*Attempt, error) { return nil, fmt.Errorf("no explain here") }
			}
			if got := checkRun(trace, res, explain, tt.les.Captions, tt.les.Expect); len(got) != tt.want {
				t.Errorf("got %d failures %q, want %d", len(got), got, tt.want)
			}
		})
	}
}

// A lesson whose decision moves fails its own expectations: give big the
// preemptor's priority and it can no longer be a victim, so critical goes to
// node-b; the node, the victims, the candidates and the criterion the
// lesson states no longer hold, and the check says so.
func TestLessonCheckCatchesAMovedDecision(t *testing.T) {
	file := fewestVictimsFile
	data, mutated := fewestVictimsMoved(t)
	for _, tc := range []struct {
		name string
		data []byte
		want []string
	}{
		{"as written", data, nil},
		{"big at critical's priority", mutated, []string{
			`pod default/critical ends on node "node-b", the lesson says node-a`,
			`expected event Nominated default/critical @ node-a victims [default/big] never happens (the run has Nominated default/critical @ node-b`,
			`preemption candidates [node-b], the lesson says [node-a node-b]`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, sim := runText(t, file, tc.data)
			fails := strings.Join(sim.CheckLesson(sc.Lesson.Captions, sc.Lesson.Expect), "\n")
			if tc.want == nil && fails != "" {
				t.Fatalf("the lesson as written fails:\n%s", fails)
			}
			for _, w := range tc.want {
				if !strings.Contains(fails, w) {
					t.Errorf("the check does not report %q; it reports:\n%s", w, fails)
				}
			}
			// A question asking "which node will critical be nominated to?"
			// takes its answer from the run, so it follows the change.
			fact, err := sim.Fact(sc.Lesson, "nominated")
			wantNode := "node-a"
			if tc.want != nil {
				wantNode = "node-b"
			}
			if err != nil || fact.Event == nil || fact.Event.Node != wantNode {
				t.Errorf("Fact(nominated) = %+v, %v; want the Nominated event on %s", fact.Event, err, wantNode)
			}
		})
	}
}

// The score expectations move with the run too: with p3 moved from node2
// to node3, zoneB is the empty zone, node2 gets PodTopologySpread's 100
// and mypod, and the lesson's raw, normalized and weighted scores and
// node no longer hold.
func TestScoreLessonCatchesAMovedDecision(t *testing.T) {
	const file = "../../examples/topology-spread-scores.yaml"
	data := readFile(t, file)
	const from = "metadata: {name: p3, labels: {foo: bar}}\nspec:\n  nodeName: node2\n"
	if !bytes.Contains(data, []byte(from)) {
		t.Fatalf("%s no longer has p3 on node2; update the mutation", file)
	}
	mutated := bytes.Replace(data, []byte(from), []byte(strings.Replace(from, "node2", "node3", 1)), 1)
	sc, sim := runText(t, file, mutated)
	fails := strings.Join(sim.CheckLesson(sc.Lesson.Captions, sc.Lesson.Expect), "\n")
	for _, w := range []string{
		`pod default/mypod ends on node "node2", the lesson says node3`,
		`node node2's PodTopologySpread score is 100, the lesson says 33`,
		`node node3's PodTopologySpread score is 33, the lesson says 100`,
		`node node2's PodTopologySpread raw score is 0, the lesson says 2`,
		`node node3's PodTopologySpread raw score is 2, the lesson says 0`,
		`node node2's PodTopologySpread weighted score is 200, the lesson says 66`,
		`selected [node2], the lesson says [node3]`,
	} {
		if !strings.Contains(fails, w) {
			t.Errorf("the check does not report %q; it reports:\n%s", w, fails)
		}
	}
}
