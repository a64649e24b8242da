package session

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/schedplay/schedplay/ui"
	"github.com/schedplay/schedplay/ui/adapt"
)

// recorder is a Canvas that keeps what the session showed.
type recorder struct {
	scene     *ui.Scene
	gen       int
	scenes    int
	clock     float64
	theme     string
	words     ui.Words
	selected  ui.Hit
	prepared  int
	follow    bool
	presenter bool
	reduced   bool
	fits      int
	// warmDrawn are the scenes the warm-up had drawn, with their layouts.
	warmDrawn []warmPicture
}

type warmPicture struct {
	scene  *ui.Scene
	layout *ui.Layout
}

func (c *recorder) SetScene(s *ui.Scene, gen int) { c.scene, c.gen = s, gen; c.scenes++ }
func (c *recorder) SetClock(t float64)            { c.clock = t }
func (c *recorder) SetTheme(t ui.Theme)           { c.theme = t.Name }
func (c *recorder) SetWords(w ui.Words)           { c.words = w }
func (c *recorder) Select(h ui.Hit)               { c.selected = h }
func (c *recorder) SetReducedMotion(on bool)      { c.reduced = on }
func (c *recorder) Fit()                          { c.fits++ }
func (c *recorder) Locate(h ui.Hit) (ui.Rect, bool) {
	if h.Kind == ui.HitNode && h.Key == "node1" {
		return ui.Rect{X: 1, Y: 2, W: 3, H: 4}, true
	}
	return ui.Rect{}, false
}
func (c *recorder) Prepare(s *ui.Scene, yield func() bool) bool { c.prepared++; return true }
func (c *recorder) Zoom() float64                               { return 1 }
func (c *recorder) SetFollow(on bool)                           { c.follow = on }
func (c *recorder) SetPresenter(on bool)                        { c.presenter = on }
func (c *recorder) WarmDraw(s *ui.Scene, l *ui.Layout) {
	c.warmDrawn = append(c.warmDrawn, warmPicture{s, l})
}

// LabelPx answers 18 in presenter mode, the name's size at zoom 1
// otherwise: what the call passes on.
func (c *recorder) LabelPx(k ui.HitKind) float64 {
	if c.presenter {
		return 18
	}
	if k == ui.HitNode {
		return ui.NodeNameSize
	}
	return ui.PodNameSize
}

func example(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile("../../examples/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// step is one call of the page and what must hold after it: the reply's
// JSON fields and the canvas.
type step struct {
	call string
	args []string
	// err, if set, is a substring of the error the call must return.
	err   string
	check func(t *testing.T, reply map[string]any, c *recorder, s *Session)
}

// loadAndSimulate are the steps that load the test's text and simulate it
// to its end.
func loadAndSimulate(file string) []step {
	return []step{
		{call: "load", args: []string{file, ""}}, // replaced by the text
		{call: "simulate", args: []string{"60000"}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
			if r["done"] != true || r["events"].(float64) < 5 {
				t.Errorf("simulate = %v, want done with events", r)
			}
		}},
	}
}

func TestSession(t *testing.T) {
	spread := example(t, "topology-spread-one-constraint.yaml")
	preempt := example(t, "preemption-basic.yaml")
	tests := []struct {
		name  string
		text  string
		steps []step
	}{
		{name: "load shows the t=0 view", text: preempt, steps: []step{
			{call: "load", args: []string{"p.yaml", preempt}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				if r["ok"] != true || r["gen"].(float64) != 1 || c.gen != 1 || c.scene.Event != nil {
					t.Errorf("reply %v, canvas gen %d event %v: want ok, generation 1, the t=0 view", r, c.gen, c.scene.Event)
				}
				sum := r["summary"].(map[string]any)
				if sum["nodes"].(float64) != 3 || sum["pending"].(float64) != 1 {
					t.Errorf("summary %v", sum)
				}
			}},
		}},
		{name: "a bad load keeps the last good scene", text: preempt, steps: []step{
			{call: "load", args: []string{"p.yaml", preempt}},
			{call: "load", args: []string{"bad.yaml", "apiVersion: v1\nkind: Node\nmetadata:\n  name: [n1\n"}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				ds, _ := r["diagnostics"].([]any)
				if r["ok"] != false || len(ds) == 0 || ds[0].(map[string]any)["line"].(float64) != 4 {
					t.Errorf("reply %v, want diagnostics at line 4", r)
				}
				if r["gen"].(float64) != 1 || c.gen != 1 || len(c.scene.Nodes) != 3 {
					t.Errorf("gen %v, canvas gen %d with %d nodes: want the last good scene", r["gen"], c.gen, len(c.scene.Nodes))
				}
			}},
		}},
		{name: "simulate, seek and trace", text: preempt, steps: append(loadAndSimulate("p.yaml"),
			step{call: "seek", args: []string{"3", "0"}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				if c.scene.Event == nil || c.scene.Event.Seq != 3 || r["gen"].(float64) != float64(c.gen) {
					t.Errorf("canvas event %+v gen %d, reply %v: want event 3 on screen", c.scene.Event, c.gen, r)
				}
			}},
			step{call: "seek", args: []string{"3", "1.5"}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				// Scenes shown: the load's, the run's once done, event 3's.
				if c.clock != 1.5 || r["gen"].(float64) != float64(c.gen) || c.scenes != 3 {
					t.Errorf("clock %v, %d scenes shown: the same event must only move the clock", c.clock, c.scenes)
				}
			}},
			step{call: "seek", args: []string{"-1", "0"}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				if c.scene.Event != nil {
					t.Errorf("seek -1 shows event %+v, want the t=0 view", c.scene.Event)
				}
			}},
			step{call: "trace", args: []string{"2"}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				evs := r["events"].([]any)
				if len(evs) != len(s.Trace(0))-2 || evs[0].(map[string]any)["seq"].(float64) != 2 {
					t.Errorf("trace(2) = %d events from %v", len(evs), evs[0])
				}
			}},
		)},
		{name: "a lesson question is graded by the run", text: preempt, steps: append(loadAndSimulate("p.yaml"),
			step{call: "question", args: []string{"where"}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				seq := int(r["seq"].(float64))
				if r["ready"] != true || s.Trace(0)[seq].Kind != "Nominated" {
					t.Errorf("question = %v: want ready, stopping before the nomination", r)
				}
			}},
			step{call: "answer", args: []string{"where", "node-a"}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				if r["right"] != false {
					t.Errorf("node-a graded %v", r)
				}
			}},
			step{call: "answer", args: []string{"where", "node-b"}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				a := r["answer"].(map[string]any)
				if r["right"] != true || !strings.Contains(a["why"].(string), "lowest sum of victim priorities") {
					t.Errorf("node-b graded %v", r)
				}
			}},
			step{call: "answer", args: []string{"victims", "default/low-b2"}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				if r["right"] != true {
					t.Errorf("victims graded %v", r)
				}
			}},
			step{call: "answer", args: []string{"nope", ""}, err: `no question "nope"`},
		)},
		{name: "another cluster is fitted, an edit keeps the view", text: preempt, steps: []step{
			{call: "load", args: []string{"p.yaml", preempt}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				if c.fits != 1 {
					t.Errorf("first load: %d fits, want 1", c.fits)
				}
			}},
			{call: "load", args: []string{"p.yaml", strings.Replace(preempt, "{name: critical,", "{name: critical2,", 1)}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				if r["ok"] != true || c.fits != 1 {
					t.Errorf("an edit of a pod (ok %v): %d fits, want still 1", r["ok"], c.fits)
				}
			}},
			{call: "load", args: []string{"s.yaml", spread}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				if r["ok"] != true || c.fits != 2 {
					t.Errorf("another scenario (ok %v): %d fits, want 2", r["ok"], c.fits)
				}
			}},
		}},
		{name: "setMotion switches the canvas to cuts and back", text: preempt, steps: []step{
			{call: "setMotion", args: []string{"reduce"}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				if !c.reduced {
					t.Error("setMotion reduce left the canvas gliding")
				}
			}},
			{call: "setMotion", args: []string{"sideways"}, err: "unknown motion"},
			{call: "setMotion", args: []string{"full"}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				if c.reduced {
					t.Error("setMotion full left the canvas cutting")
				}
			}},
		}},
		{name: "outline reads the shown scene at the shown time", text: preempt, steps: append(loadAndSimulate("p.yaml"),
			step{call: "seek", args: []string{"3", "12"}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {}},
			step{call: "outline", check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				var o adapt.Outline
				data, _ := json.Marshal(r)
				if err := json.Unmarshal(data, &o); err != nil {
					t.Fatal(err)
				}
				if r["ok"] != true || o.T != 12 || !strings.Contains(o.Caption, "Unschedulable") {
					t.Errorf("outline t=%v caption %q, want t=12 after event 3", o.T, o.Caption)
				}
				if len(o.Pending) != 1 || o.Pending[0].Key != "default/critical" || o.Pending[0].NominatedNode != "node-b" {
					t.Fatalf("pending %+v, want default/critical nominated to node-b", o.Pending)
				}
				var nodeB *adapt.OutlineNode
				for zi := range o.Zones {
					for ni := range o.Zones[zi].Nodes {
						if n := &o.Zones[zi].Nodes[ni]; n.Name == "node-b" {
							nodeB = n
						}
					}
				}
				if nodeB == nil || len(nodeB.Nominated) != 1 || nodeB.Nominated[0] != "default/critical" {
					t.Fatalf("node-b %+v, want default/critical's reservation on it", nodeB)
				}
				countdown := ""
				for _, p := range nodeB.Bound {
					if p.Key == "default/low-b2" {
						countdown = p.Terminating
					}
				}
				// Preempted at 0s with a 30s grace period, read at 12s.
				if !strings.Contains(countdown, "in 18s") {
					t.Errorf("low-b2 countdown %q, want it 18s from its end", countdown)
				}
			}},
		)},
		{name: "outline speaks the session's words", text: preempt, steps: append(loadAndSimulate("p.yaml"),
			step{call: "setWords", args: []string{`{"countdown":"{next} / {left} / {stage}","gone":"GONE"}`}},
			step{call: "seek", args: []string{"3", "12"}},
			step{call: "outline", check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				data, _ := json.Marshal(r)
				if !strings.Contains(string(data), `"terminating":"GONE / 18s / SIGTERM"`) {
					t.Errorf("outline %s, want low-b2's countdown in the words set", data)
				}
			}},
		)},
		{name: "prefetched seeks build nothing", text: preempt, steps: append(loadAndSimulate("p.yaml"),
			step{call: "prefetch", args: []string{"2", "1000"}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				if r["ok"] != true || r["done"] != true || c.prepared == 0 {
					t.Errorf("prefetch = %v, canvas prepared %d", r, c.prepared)
				}
			}},
			step{call: "seek", args: []string{"2", "0"}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				if s.PrefetchMisses() != 0 || c.scene.Event.Seq != 2 {
					t.Errorf("misses %d, event %+v: want the prefetched scene", s.PrefetchMisses(), c.scene.Event)
				}
			}},
			step{call: "prefetch", args: []string{"2", "10"}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				if r["ok"] != false {
					t.Errorf("prefetch of the event shown = %v, want nothing to build", r)
				}
			}},
		)},
		{name: "selecting a pod overlays its spread", text: spread, steps: []step{
			{call: "load", args: []string{"s.yaml", spread}},
			{call: "select", args: []string{"pod", "default/mypod"}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				if c.selected.Key != "default/mypod" || len(c.scene.Spread) != 1 || c.scene.Spread[0].Min != 1 {
					t.Fatalf("selected %+v, overlay %+v: want mypod's one constraint, minimum 1", c.selected, c.scene.Spread)
				}
				if ui.SpreadFits(c.scene.Spread, "node1") || !ui.SpreadFits(c.scene.Spread, "node3") {
					t.Errorf("overlay %+v: zoneA (node1) is too skewed, zoneB (node3) is not", c.scene.Spread[0])
				}
			}},
			{call: "details", args: []string{"pod", "default/mypod"}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				a := r["attempt"].(map[string]any)
				if r["ok"] != true || a["seq"].(float64) != -1 || len(r["spread"].([]any)) != 1 {
					t.Errorf("details = %v: want the t=0 cycle and the spread", r)
				}
			}},
			{call: "select", args: []string{"", ""}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				if c.scene.Spread != nil {
					t.Errorf("overlay %+v left after unselecting", c.scene.Spread)
				}
			}},
		}},
		{name: "details explain each attempt", text: preempt, steps: append(loadAndSimulate("p.yaml"),
			step{call: "seek", args: []string{"1000", "0"}},
			step{call: "details", args: []string{"pod", "default/critical"}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				a := r["attempt"].(map[string]any)
				if a["number"].(float64) != 2 || a["of"].(float64) != 2 || len(r["events"].([]any)) < 3 {
					t.Errorf("attempt %v with %d events: want the last of 2", a, len(r["events"].([]any)))
				}
			}},
			step{call: "details", args: []string{"pod", "default/critical", "1"}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				a := r["attempt"].(map[string]any)
				ex := a["explanation"].(map[string]any)
				if a["number"].(float64) != 1 || ex["preemption"] == nil || a["before"].(float64) < 0 {
					t.Errorf("attempt 1 = %v: want the cycle that preempted", a)
				}
			}},
			step{call: "details", args: []string{"node", "node-b"}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				if r["ok"] != true || r["node"].(map[string]any)["name"] != "node-b" {
					t.Errorf("details = %v", r)
				}
			}},
		)},
		{name: "locate and theme reach the canvas", text: spread, steps: []step{
			{call: "load", args: []string{"s.yaml", spread}},
			{call: "locate", args: []string{"node", "node1"}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				if r["ok"] != true || r["w"].(float64) != 3 {
					t.Errorf("locate = %v", r)
				}
			}},
			{call: "setTheme", args: []string{"dark"}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				if c.theme != "dark" {
					t.Errorf("theme %q", c.theme)
				}
			}},
			{call: "setPresenter", args: []string{"true"}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				if !c.presenter {
					t.Error("presenter mode not passed on")
				}
			}},
			{call: "locate", args: []string{"pod", "default/a"}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				if r["labelPx"] != 18.0 {
					t.Errorf("locate = %v: want the canvas's label size 18", r)
				}
			}},
			{call: "setPresenter", args: []string{"yes"}, err: "parsing on"},
		}},
		{name: "words reach the canvas and the outline's caption", text: preempt, steps: []step{
			{call: "load", args: []string{"p.yaml", preempt}},
			{call: "outline", check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				if r["caption"] != "t=0s  "+ui.English.Start {
					t.Errorf("caption %q before any words were set: want English", r["caption"])
				}
			}},
			{call: "setWords", args: []string{`{"start":"集群载入时的样子","noClass":"无类"}`}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				if c.words.Start != "集群载入时的样子" || c.words.NoClass != "无类" || c.words.Cordoned != ui.English.Cordoned {
					t.Errorf("canvas words %+v: want the two given, English for the rest", c.words)
				}
			}},
			{call: "outline", check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				if r["caption"] != "t=0s  集群载入时的样子" {
					t.Errorf("outline caption %q, want the words' start", r["caption"])
				}
			}},
			{call: "setWords", args: []string{`{"title":"x"}`}, err: `draws no word "title"`},
		}},
		{name: "wrong calls are errors", steps: []step{
			{call: "nosuch", err: `no method "nosuch"`},
			{call: "load", args: []string{"only-a-name"}, err: "want 2 argument(s) (name, text), got 1"},
			{call: "seek", args: []string{"x", "0"}, err: "parsing seq"},
			{call: "select", args: []string{"pods", "a/b"}, err: `unknown kind "pods"`},
			{call: "details", args: []string{"", "a/b"}, err: `unknown kind ""`},
			{call: "details", args: []string{"pod", "a/b", "first"}, err: "parsing attempt"},
			{call: "simulate", args: []string{"10"}, check: func(t *testing.T, r map[string]any, c *recorder, s *Session) {
				if r["ok"] != true || r["done"] != true {
					t.Errorf("simulate before any load = %v, want done", r)
				}
			}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &recorder{}
			s := New(c, adapt.DefaultBudget)
			for i, st := range tt.steps {
				args := st.args
				if st.call == "load" && len(args) == 2 && args[1] == "" && tt.text != "" {
					args = []string{args[0], tt.text}
				}
				out, err := s.Call(st.call, args)
				if st.err != "" {
					if err == nil || !strings.Contains(err.Error(), st.err) {
						t.Fatalf("step %d %s%v: error %v, want %q", i, st.call, args, err, st.err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("step %d %s%v: %v", i, st.call, args, err)
				}
				var reply map[string]any
				if err := json.Unmarshal([]byte(out), &reply); err != nil {
					t.Fatalf("step %d %s: reply %q is not a JSON object: %v", i, st.call, out, err)
				}
				if st.check != nil {
					st.check(t, reply, c, s)
				}
			}
		})
	}
}

// Over the budget, a scenario shows its t=0 view and is not simulated.
func TestSessionBudget(t *testing.T) {
	c := &recorder{}
	s := New(c, adapt.Budget{Nodes: 2, Pods: 100, Events: 100})
	r := s.Load("p.yaml", example(t, "preemption-basic.yaml"))
	if !r.OK || !strings.HasPrefix(r.Stopped, "not simulated") || len(c.scene.Nodes) != 3 {
		t.Fatalf("load = %+v, canvas %d nodes: want the t=0 view, not simulated", r, len(c.scene.Nodes))
	}
	if sim := s.Simulate(time.Second); !sim.Done || sim.Events != 0 {
		t.Errorf("simulate = %+v, want done without events", sim)
	}
}

// Selecting a pod whose cycle searched part of the cluster dims, on the
// canvas, the nodes that search never looked at (the engine's explain).
func TestSessionSearchOverlay(t *testing.T) {
	c := &recorder{}
	s := New(c, adapt.DefaultBudget)
	if r := s.Load("p.yaml", example(t, "partial-node-search.yaml")); !r.OK {
		t.Fatalf("load: %+v", r)
	}
	if sim := s.Simulate(time.Minute); !sim.Done {
		t.Fatalf("simulate = %+v", sim)
	}
	s.Seek(len(s.run.Trace())-1, 0)
	for _, tc := range []struct {
		pod, start, stop string
		dimmed           int
		dim, lit         string
	}{
		{"default/web-1", "node-000", "node-100", 19, "node-110", "node-050"},
		{"default/web-2", "node-100", "node-080", 19, "node-090", "node-110"},
	} {
		s.Select(ui.Hit{Kind: ui.HitPod, Key: tc.pod})
		if _, err := s.Details(ui.HitPod, tc.pod, 0); err != nil {
			t.Fatal(err)
		}
		sv := c.scene.Search
		if sv == nil {
			t.Fatalf("%s: no search on the canvas", tc.pod)
		}
		if sv.Pod != tc.pod || sv.Start != tc.start || sv.StoppedOn != tc.stop || len(sv.NotEvaluated) != tc.dimmed ||
			!sv.NotEvaluated[tc.dim] || sv.NotEvaluated[tc.lit] {
			t.Errorf("%s: search %+v, want from %s to %s, %d dimmed with %s, not %s", tc.pod, sv, tc.start, tc.stop, tc.dimmed, tc.dim, tc.lit)
		}
	}
	s.Select(ui.Hit{})
	if c.scene.Search != nil {
		t.Error("the search stays on the canvas after the pod is deselected")
	}
}

// A course lesson's question holds the trace back: until it is answered,
// nothing the page reads (the trace, simulate's count, the details
// panel's cycle) holds the event that answers it; a wrong answer keeps
// it back, the right one lets the rest come.
func TestQuestionHoldsTheTraceBack(t *testing.T) {
	text := example(t, "topology-spread-scores.yaml")
	const pod = "default/mypod"
	answersAt := func(evs []byte) bool { return strings.Contains(string(evs), `"kind":"Scheduled"`) }
	call := func(s *Session, name string, args ...string) map[string]any {
		t.Helper()
		out, err := s.Call(name, args)
		if err != nil {
			t.Fatalf("%s %v: %v", name, args, err)
		}
		var r map[string]any
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, quiz := range []bool{false, true} {
		s := New(&recorder{}, adapt.DefaultBudget)
		call(s, "setQuiz", strconv.FormatBool(quiz))
		call(s, "load", "l.yaml", text)
		sim := call(s, "simulate", "60000")
		all := len(s.run.Trace())
		tr, _ := json.Marshal(s.Trace(0))
		if !quiz {
			if sim["done"] != true || int(sim["events"].(float64)) != all || !answersAt(tr) {
				t.Fatalf("no quiz: simulate %v, want all %d events", sim, all)
			}
			continue
		}
		q := call(s, "question", "where")
		seq := int(q["seq"].(float64))
		if sim["done"] != false || sim["held"] != true || int(sim["events"].(float64)) != seq || len(s.Trace(0)) != seq || answersAt(tr) {
			t.Fatalf("open question: simulate %v, trace %s; want the %d events before the answer, held, not done", sim, tr, seq)
		}
		call(s, "seek", strconv.Itoa(seq-1), "0")
		d := call(s, "details", "pod", pod)
		if d["attempt"] != nil || !strings.Contains(fmt.Sprint(d["explainError"]), "question") {
			t.Errorf("details of %s while the question is open: %v", pod, d)
		}
		wrongReply := call(s, "answer", "where", "")
		right := wrongReply["answer"].(map[string]any)["nodes"].([]any)[0].(string)
		if wrongReply["right"] != false || len(s.Trace(0)) != seq {
			t.Fatalf("a wrong answer: %v, %d events shown", wrongReply, len(s.Trace(0)))
		}
		if r := call(s, "answer", "where", right); r["right"] != true {
			t.Fatalf("the run's answer %s graded %v", right, r)
		}
		sim = call(s, "simulate", "60000")
		tr, _ = json.Marshal(s.Trace(seq))
		if sim["done"] != true || sim["held"] != nil || int(sim["events"].(float64)) != all || !answersAt(tr) {
			t.Errorf("answered: simulate %v, trace from %d %s; want all %d events", sim, seq, tr, all)
		}
		if d := call(s, "details", "pod", pod); d["explainError"] != nil {
			t.Errorf("details once answered: %v", d)
		}
	}
}
