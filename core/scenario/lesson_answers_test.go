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
	f := "../../examples/preemption-basic.yaml"
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
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
			sc, err := scenario.Load(f, []byte(strings.Replace(text, caption, tc.caption, 1)))
			if err != nil {
				t.Fatal(err)
			}
			sim, err := engine.Simulate(sc, engine.Options{})
			if err != nil {
				t.Fatal(err)
			}
			cats := map[string]map[string]string{"zh-CN": {}, "id": {}}
			if tc.zh != "" {
				cats["zh-CN"]["preemption-basic.summary"] = tc.zh
			}
			got := toldAnswers(sc.Lesson, sim, cats)
			if len(got) != len(tc.told) {
				t.Fatalf("told %q, want %d report(s) naming %q", got, len(tc.told), tc.told)
			}
			for i, want := range tc.told {
				if !strings.Contains(got[i], want) {
					t.Errorf("report %q does not say %q", got[i], want)
				}
			}
		})
	}
}

// toldAnswers lists, for each question of les, the texts shown before it
// that name its answer.
func toldAnswers(les *scenario.Lesson, sim *engine.Simulation, catalogs map[string]map[string]string) []string {
	trace := sim.Trace()
	holds := map[string]int{}
	answers := map[string][]string{}
	var out []string
	for _, q := range les.Questions {
		a, err := sim.Answer(les, q.ID)
		if err != nil {
			out = append(out, fmt.Sprintf("question %s: %v", q.ID, err))
			continue
		}
		holds[q.ID] = a.Seq
		answers[q.ID] = append(append([]string(nil), a.Nodes...), a.Pods...)
	}
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
		st := sim.StateAt(hold - 1)
		var nodes, pods []string
		for _, n := range st.Nodes {
			nodes = append(nodes, n.Name)
		}
		for _, p := range st.Pods {
			pods = append(pods, p.Key)
		}
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
			peers := pods
			if slices.Contains(nodes, name) {
				peers = nodes
			}
			for _, s := range during {
				if names(s.text, name) && !namesAll(s.text, peers) {
					tell(s, name)
				}
			}
		}
	}
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
