package scenario_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/token"

	"github.com/schedplay/schedplay/core/engine"
	"github.com/schedplay/schedplay/core/scenario"
)

// The page's lesson languages besides the lesson's own English: the
// catalogs web/locales/lessons/LANG.json translate its text by key.
var lessonLangs = []string{"zh-CN", "id"}

// shownText is one text the learner reads, where it comes from (for the
// failure message) and in which language.
type shownText struct {
	where, lang, text string
}

// TestLessonsDoNotTellAnswers fails when a lesson gives away a question's
// answer before asking it, in any language. The answer is the engine's
// (engine.Simulation.Answer), and playback holds where the session holds
// it: before the event that shows the answer (Answer.Seq).
//
//   - The title and the summary are read before anything plays (the
//     course index, the lesson's heading): they name no node or pod of any
//     question's answer.
//   - A caption shown before the hold, or a question asked by then, may
//     name an answer's node or pod only as the run has shown it so far (an
//     event before the hold names it: "mid is nominated to node-a" when
//     it was) or among all the cluster's nodes or pods alike ("zoneA
//     (node1) holds two pods, zoneB (node2) one"): never singled out ahead
//     of the run.
//   - The file's YAML comments sit in the editor beside the canvas from
//     the start: like a caption before anything plays, a comment sentence
//     names an answer's node or pod only among all the cluster's nodes or
//     pods alike, and then only to describe the setup, not the outcome
//     ("node1 and node2 fit"). The outcome belongs in the captions.
func TestLessonsDoNotTellAnswers(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	catalogs := map[string]map[string]string{}
	for _, lang := range lessonLangs {
		catalogs[lang] = readLessonCatalog(t, lang)
	}
	asked := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc, err := scenario.Load(f, data)
		if err != nil {
			t.Fatalf("loading %s: %v", f, err)
		}
		les := sc.Lesson
		if les == nil || len(les.Questions) == 0 {
			continue
		}
		sim, err := engine.Simulate(sc, engine.Options{})
		if err != nil {
			t.Fatalf("simulating %s: %v", f, err)
		}
		for _, msg := range toldAnswers(les, sim, catalogs) {
			t.Errorf("%s: %s", filepath.Base(f), msg)
		}
		for _, msg := range commentsTell(les, sim, data) {
			t.Errorf("%s: %s", filepath.Base(f), msg)
		}
		asked += len(les.Questions)
	}
	if asked == 0 {
		t.Fatal("no lesson asks a question: the check checked nothing")
	}
}

// TestToldAnswersCatches: the check reports a summary that names the
// answer, in English or in a translation, and a caption that singles it out
// before the run shows it, and lets a caption naming every node alike pass.
func TestToldAnswersCatches(t *testing.T) {
	f, text := preemptionBasic(t)
	caption := `- {at: 0s, text: "critical (3 cpu, priority 1000) fits on no node."}`
	if !strings.Contains(text, caption) {
		t.Fatalf("%s no longer has the caption %s", f, caption)
	}
	for _, tc := range []struct {
		name, caption string
		zh            string
		told          []string
	}{
		{"as written", caption, "", nil},
		{"a caption names the answer", `- {at: 0s, text: "critical will go to node-b."}`, "", []string{"caption 0 (en) names node-b"}},
		{"a caption names every node", `- {at: 0s, text: "node-a, node-b and node-c are full."}`, "", nil},
		{"a translated summary names the answer", caption, "node-b 胜出。", []string{"summary (zh-CN) names node-b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, sim := simulateLesson(t, f, []byte(strings.Replace(text, caption, tc.caption, 1)))
			cats := map[string]map[string]string{"zh-CN": {}, "id": {}}
			if tc.zh != "" {
				cats["zh-CN"]["preemption-basic.summary"] = tc.zh
			}
			wantTold(t, toldAnswers(sc.Lesson, sim, cats), tc.told)
		})
	}
}

// TestCommentsTellCatches: the check reports a YAML comment that singles
// out an answer or names it in telling the outcome, on a line of its own or
// after a value, and lets a comment naming every node alike pass.
func TestCommentsTellCatches(t *testing.T) {
	f, text := preemptionBasic(t)
	heading, critical := "# Preemption, the basic case.\n", `metadata: {name: critical, creationTimestamp: "2025-01-01T01:00:00Z"}`
	for _, s := range []string{heading, critical} {
		if !strings.Contains(text, s) {
			t.Fatalf("%s no longer has %s", f, s)
		}
	}
	for _, tc := range []struct {
		name, old, new string
		told           []string
	}{
		{"as written", heading, heading, nil},
		{"a comment names the answer", heading, "# Preemption: critical goes to node-b.\n", []string{"line 1 names node-b"}},
		{"a comment names every node alike", heading, "# node-a, node-b and node-c are full.\n", nil},
		{"a comment tells the outcome among every node", heading, "# Of node-a, node-b and node-c, node-b wins.\n", []string{"line 1 names node-b"}},
		{"a comment after a value names the victim", critical, critical + " # evicts low-b2", []string{"names low-b2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(strings.Replace(text, tc.old, tc.new, 1))
			sc, sim := simulateLesson(t, f, src)
			wantTold(t, commentsTell(sc.Lesson, sim, src), tc.told)
		})
	}
}

// preemptionBasic is the lesson file the catch tests plant give-aways in,
// and its text.
func preemptionBasic(t *testing.T) (string, string) {
	t.Helper()
	f := "../../examples/preemption-basic.yaml"
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	return f, string(data)
}

// simulateLesson loads the lesson file f with the text src and runs it.
func simulateLesson(t *testing.T, f string, src []byte) (*scenario.Scenario, *engine.Simulation) {
	t.Helper()
	sc, err := scenario.Load(f, src)
	if err != nil {
		t.Fatal(err)
	}
	sim, err := engine.Simulate(sc, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return sc, sim
}

// wantTold checks the check's reports against one wanted text each.
func wantTold(t *testing.T, got, told []string) {
	t.Helper()
	if len(got) != len(told) {
		t.Fatalf("told %q, want %d report(s) naming %q", got, len(told), told)
	}
	for i, want := range told {
		if !strings.Contains(got[i], want) {
			t.Errorf("report %q does not say %q", got[i], want)
		}
	}
}

// toldAnswers lists, for each question of les, the texts shown before it
// that name its answer.
func toldAnswers(les *scenario.Lesson, sim *engine.Simulation, catalogs map[string]map[string]string) []string {
	trace := sim.Trace()
	holds, answers, out := lessonAnswers(les, sim)
	// texts gives a lesson text in English and in every translation.
	texts := func(where, key, english string) []shownText {
		ts := []shownText{{where, "en", english}}
		for _, lang := range lessonLangs {
			if tr := catalogs[lang][les.Name+"."+key]; tr != "" {
				ts = append(ts, shownText{where, lang, tr})
			}
		}
		return ts
	}
	for _, q := range les.Questions {
		hold, ok := holds[q.ID]
		if !ok {
			continue
		}
		before := append(texts("title", "title", les.Title), texts("summary", "summary", les.Summary)...)
		var during []shownText
		for i, c := range les.Captions {
			if captionShownBefore(c, trace, hold) {
				during = append(during, texts(fmt.Sprintf("caption %d", i), fmt.Sprintf("caption.%d", i), c.Text)...)
			}
		}
		for _, other := range les.Questions {
			if h, ok := holds[other.ID]; ok && h <= hold {
				during = append(during, texts("question "+other.ID, "q."+other.ID, other.Text)...)
			}
		}
		shownSoFar := namedByEvents(trace[:min(hold, len(trace))])
		tell := func(s shownText, name string) {
			out = append(out, fmt.Sprintf("question %s (answer %v): the %s (%s) names %s before it is asked: %q",
				q.ID, answers[q.ID], s.where, s.lang, bare(name), s.text))
		}
		for _, name := range answers[q.ID] {
			for _, s := range before {
				if names(s.text, name) {
					tell(s, name)
				}
			}
			if shownSoFar[bare(name)] {
				continue
			}
			peers := peersAt(sim, hold, name)
			for _, s := range during {
				if names(s.text, name) && !namesAll(s.text, peers) {
					tell(s, name)
				}
			}
		}
	}
	return out
}

// commentsTell lists, for each question of les, the sentences of the YAML
// comments of the lesson's file src that single out its answer's node or
// pod, or name it in telling the outcome. A sentence may run over several
// comment lines ("zoneA holds node1 and node2, zoneB node3 and node4."
// names every node alike).
func commentsTell(les *scenario.Lesson, sim *engine.Simulation, src []byte) []string {
	sentences := commentSentences(src)
	// toldAnswers reports a question the engine cannot answer.
	holds, answers, _ := lessonAnswers(les, sim)
	var out []string
	for _, q := range les.Questions {
		hold, ok := holds[q.ID]
		if !ok {
			continue
		}
		for _, name := range answers[q.ID] {
			peers := peersAt(sim, hold, name)
			for _, c := range sentences {
				if names(c.text, name) && (!namesAll(c.text, peers) || outcome.MatchString(c.text)) {
					out = append(out, fmt.Sprintf("question %s (answer %v): the comment on line %d names %s: %q",
						q.ID, answers[q.ID], c.line, bare(name), c.text))
				}
			}
		}
	}
	return out
}

// lessonAnswers gives, by question id, where playback holds to ask it and
// the nodes and pods of its answer, as the engine answers; and a message for
// each question it cannot answer.
func lessonAnswers(les *scenario.Lesson, sim *engine.Simulation) (holds map[string]int, answers map[string][]string, errs []string) {
	holds, answers = map[string]int{}, map[string][]string{}
	for _, q := range les.Questions {
		a, err := sim.Answer(les, q.ID)
		if err != nil {
			errs = append(errs, fmt.Sprintf("question %s: %v", q.ID, err))
			continue
		}
		holds[q.ID] = a.Seq
		answers[q.ID] = append(append([]string(nil), a.Nodes...), a.Pods...)
	}
	return holds, answers, errs
}

// peersAt is what an answer's node or pod name may be named among without
// being singled out: the cluster's nodes, or its pods, as playback held
// before event hold finds them.
func peersAt(sim *engine.Simulation, hold int, name string) []string {
	st := sim.StateAt(hold - 1)
	var nodes, pods []string
	for _, n := range st.Nodes {
		nodes = append(nodes, n.Name)
	}
	if slices.Contains(nodes, name) {
		return nodes
	}
	for _, p := range st.Pods {
		pods = append(pods, p.Key)
	}
	return pods
}

// outcome finds a sentence telling what happens to what it names ("node1
// and node2 fit", "so gold is the victim"): a comment names an answer's
// node or pod, even among all its peers, only to describe the setup.
var outcome = regexp.MustCompile(`(?i)\b(wins?|lands?|binds?|runs on|nominated (to|there)|is the victim|(is|are) (evicted|preempted|retried)|preempts|takes the|fits?|fails?|feasible|scores? higher|prefers|sends|goes to|rules? [^ ]+ out)\b`)

// commentSentence is a sentence of a file's YAML comments and the line it
// starts on.
type commentSentence struct {
	line int
	text string
}

// sentenceEnd ends a sentence: a full stop, question mark, exclamation mark
// or semicolon before a space.
var sentenceEnd = regexp.MustCompile(`[.?!;] `)

// commentSentences splits the YAML comments of src (as its lexer finds
// them, so a "#" inside a quoted string is no comment) into sentences:
// comments on consecutive lines run on.
func commentSentences(src []byte) []commentSentence {
	var out []commentSentence
	var text strings.Builder
	var lines []int // lines[i]: the line of text's byte i
	flush := func() {
		s := text.String()
		start := 0
		for _, end := range append(sentenceEnd.FindAllStringIndex(s, -1), []int{len(s), len(s)}) {
			piece := s[start : end[0]+min(1, end[1]-end[0])] // with its stop
			if t := strings.Join(strings.Fields(piece), " "); t != "" {
				out = append(out, commentSentence{lines[start+len(piece)-len(strings.TrimLeft(piece, " "))], t})
			}
			start = end[1]
		}
		text.Reset()
		lines = lines[:0]
	}
	last := -1
	for _, tk := range lexer.Tokenize(string(src)) {
		if tk.Type != token.CommentType {
			continue
		}
		if tk.Position.Line != last+1 {
			flush()
		}
		last = tk.Position.Line
		piece := tk.Value + " "
		text.WriteString(piece)
		for range piece {
			lines = append(lines, last)
		}
	}
	flush()
	return out
}

// namedByEvents is every pod and node the events name (as the event's pod,
// node or victims), by bare name.
func namedByEvents(events []engine.Event) map[string]bool {
	seen := map[string]bool{}
	for _, e := range events {
		for _, n := range append([]string{e.Pod, e.Node}, e.Victims...) {
			if n != "" {
				seen[bare(n)] = true
			}
		}
	}
	return seen
}

// namesAll reports whether text names every one of names.
func namesAll(text string, all []string) bool {
	for _, n := range all {
		if !names(text, n) {
			return false
		}
	}
	return len(all) > 0
}

// captionShownBefore reports whether the page shows caption c while
// playback is held before trace event hold: an "on" caption from the first
// event it matches, an "at" caption once playback's time reaches it (the
// time of the last event shown).
func captionShownBefore(c scenario.Caption, trace []engine.Event, hold int) bool {
	shown := trace[:min(hold, len(trace))]
	if c.At != nil {
		return len(shown) > 0 && time.Duration(shown[len(shown)-1].T) >= *c.At
	}
	if c.On == nil {
		return false
	}
	for _, e := range shown {
		if e.Kind == c.On.Kind && (c.On.Pod == "" || e.Pod == c.On.Pod) && (c.On.Node == "" || e.Node == c.On.Node) &&
			strings.Contains(e.Reason, c.On.Reason) {
			return true
		}
	}
	return false
}

// bare is a pod key's name ("default/low-b2" → "low-b2"); node names stay.
func bare(name string) string { return name[strings.LastIndex(name, "/")+1:] }

// names reports whether text names the node or pod name as a word of its
// own: "node-b" is in "node-b wins." and "在 node-b 上", not in "node-b2".
func names(text, name string) bool {
	re := regexp.MustCompile(`(^|[^A-Za-z0-9./-])` + regexp.QuoteMeta(bare(name)) + `($|[^A-Za-z0-9.-]|\.($|[^A-Za-z0-9]))`)
	return re.MatchString(text)
}

// TestNamesIsAWord: the check finds a name in any script and not inside a
// longer name.
func TestNamesIsAWord(t *testing.T) {
	for _, tc := range []struct {
		text, name string
		want       bool
	}{
		{"node-a and node-b tie, node-b wins.", "node-b", true},
		{"critical 被提名到 node-b。", "node-b", true},
		{"dipilih node-b.", "node-b", true},
		{"low-b2 is evicted", "default/low-b2", true},
		{"node-b2 wins", "node-b", false},
		{"the zone-node-b label", "node-b", false},
		{"node-b.example wins", "node-b", false},
	} {
		if got := names(tc.text, tc.name); got != tc.want {
			t.Errorf("names(%q, %q) = %v, want %v", tc.text, tc.name, got, tc.want)
		}
	}
}

func readLessonCatalog(t *testing.T, lang string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "web", "locales", "lessons", lang+".json"))
	if err != nil {
		t.Fatal(err)
	}
	c := map[string]string{}
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatalf("lessons/%s.json: %v", lang, err)
	}
	return c
}
