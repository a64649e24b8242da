// Package session is the playground's playback session: it loads scenario
// text, grows the simulation a slice at a time, seeks to any event,
// selects a pod or node and describes it, and drives the canvas through
// the Canvas interface. The wasm build only hands it the page's calls
// (strings in, JSON out, see Call); everything here runs and is tested
// natively.
package session

import (
	"fmt"
	"strconv"
	"time"

	"github.com/schedplay/schedplay/core/engine"
	"github.com/schedplay/schedplay/core/scenario"
	"github.com/schedplay/schedplay/core/scheduler"
	"github.com/schedplay/schedplay/ui"
	"github.com/schedplay/schedplay/ui/adapt"
)

// Canvas is what the session shows scenes on: the ebiten game in the
// browser (ui.Game), a recorder in tests.
type Canvas interface {
	// SetScene shows s; gen numbers it so that the page learns when it is
	// on screen.
	SetScene(s *ui.Scene, gen int)
	// SetClock sets the simulated time shown, in seconds.
	SetClock(t float64)
	SetTheme(t ui.Theme)
	// SetWords sets the fixed words drawn (the reader's language).
	SetWords(w ui.Words)
	// Fit frames the whole cluster (a new scenario was loaded).
	Fit()
	// SetReducedMotion makes state changes cut instead of glide.
	SetReducedMotion(on bool)
	// Select marks a pod or node as selected (the page chose it).
	Select(h ui.Hit)
	// Locate is where a pod chip or node card is drawn, in CSS pixels.
	Locate(h ui.Hit) (ui.Rect, bool)
	// Zoom is the camera's zoom in CSS pixels per world unit.
	Zoom() float64
	// SetFollow turns following the action on or off.
	SetFollow(on bool)
	// LabelPx is the size pod or node names are drawn at, in CSS pixels.
	LabelPx(k ui.HitKind) float64
	// SetPresenter turns presenter mode (large labels) on or off.
	SetPresenter(on bool)
	// Prepare lays out ahead a scene expected next (false: yield said stop).
	Prepare(s *ui.Scene, yield func() bool) bool
	// WarmDraw draws s, laid out as l, where nothing shows it: the
	// warm-up's pictures (Warm).
	WarmDraw(s *ui.Scene, l *ui.Layout)
}

// Session holds the last good run and the scene shown, which the canvas
// keeps showing while the editor holds text that does not load.
type Session struct {
	canvas Canvas
	budget adapt.Budget
	scene  *ui.Scene
	gen    int
	run    *adapt.Run
	// seq is the trace event shown (-1: the t=0 view before anything ran).
	seq int
	// selected is the pod whose topology spread the canvas overlays.
	selected string
	// search is the node search of the selected pod's explained cycle
	// (the last Details asked for), which the canvas overlays.
	search *ui.SearchView
	// cache keeps the documents of the last load: an edit re-reads only
	// the ones it changed.
	cache scenario.Cache
	// pre builds the next event's scene ahead (see Prefetch).
	pre adapt.Prefetcher
	// prefetchMisses counts seeks that built their scene (bench figure).
	prefetchMisses int
	// now is the wall clock (simulate and prefetch run for some ms).
	now func() time.Time
	// clock is the simulated time shown, in seconds.
	clock float64
	// quiz holds the page's views back at the loaded lesson's open
	// questions (see horizon); answers are where each question's answer
	// event is (a trace index) and answered the questions the learner has
	// answered or had revealed, both for the loaded run.
	quiz     bool
	answers  map[string]int
	answered map[string]bool
	// loading is the load in steps under way (LoadInSteps), if any.
	loading *loadTicket
	// words are the canvas's fixed words, for the outline's caption too.
	words ui.Words
	// step is how many events Simulate runs between looks at the clock
	// (stepEvents).
	step int
	// warming is the warm-up under way (Warm), stopWarming ends it early,
	// and warmed says it is done.
	warming     func() (struct{}, bool)
	stopWarming func()
	warmed      bool
}

// New returns a session that shows its scenes on c and simulates within
// budget b.
func New(c Canvas, b adapt.Budget) *Session {
	s := &Session{canvas: c, budget: b, scene: &ui.Scene{}, seq: -1, now: time.Now, words: ui.English, step: maxStepEvents}
	s.pre.Prepare = func(sc *ui.Scene, yield func() bool) bool {
		if s.selected != "" { // show copies the scene to add the overlay
			return true
		}
		return c.Prepare(sc, yield)
	}
	return s
}

// Scene is the scene on the canvas.
func (s *Session) Scene() *ui.Scene { return s.scene }

// Gen is the generation of the scene on the canvas.
func (s *Session) Gen() int { return s.gen }

// PrefetchMisses counts the seeks that had to build their scene.
func (s *Session) PrefetchMisses() int { return s.prefetchMisses }

// LoadReply answers load.
type LoadReply struct {
	adapt.Result
	// Gen is the generation on the canvas (unchanged on failure).
	Gen    int          `json:"gen"`
	Budget adapt.Budget `json:"budget"`
}

// Load loads scenario text; on success the canvas shows its t=0 view and
// the page then calls Simulate until the trace is complete. An edit that
// changes no object keeps the run and its trace so far (adapt.LoadOver).
func (s *Session) Load(name, text string) LoadReply {
	s.CancelLoad() // it reads the same cache
	return s.loaded(adapt.LoadOver(s.run, &s.cache, name, []byte(text), s.budget, nil))
}

// loaded shows a load's result, if it is good, and answers the load.
func (s *Session) loaded(res adapt.Result) LoadReply {
	if res.OK {
		s.pre.Cancel()
		other := s.run == nil || !sameNodes(s.run.Base(), res.Run.Base())
		s.run, s.seq = res.Run, -1
		s.answers, s.answered = map[string]int{}, map[string]bool{}
		s.show(res.Run.Base())
		if other {
			// Another cluster: frame it whole, whatever the zoom was. An
			// edit that keeps the nodes keeps the person's view.
			s.canvas.Fit()
		}
		s.clock = 0
		s.canvas.SetClock(0)
	}
	return LoadReply{Result: res, Gen: s.gen, Budget: s.budget}
}

// sameNodes reports whether two scenes have the same nodes, by name and
// in order.
func sameNodes(a, b *ui.Scene) bool {
	if len(a.Nodes) != len(b.Nodes) {
		return false
	}
	for i := range a.Nodes {
		if a.Nodes[i].Name != b.Nodes[i].Name {
			return false
		}
	}
	return true
}

// show puts a scene on the canvas, with the selected pod's spread overlay.
func (s *Session) show(sc *ui.Scene) {
	if s.selected != "" && s.run != nil {
		if spread, err := s.run.Spread(s.seq, s.selected); err == nil && spread != nil {
			c := *sc
			c.Spread = spread
			sc = &c
		}
		if s.search != nil && s.search.Pod == s.selected {
			c := *sc
			c.Search = s.search
			sc = &c
		}
	}
	s.gen++
	s.scene = sc
	s.canvas.SetScene(sc, s.gen)
}

// SimulateReply answers simulate.
type SimulateReply struct {
	OK      bool    `json:"ok"`
	Done    bool    `json:"done"`
	Events  int     `json:"events"`
	End     float64 `json:"end"`
	Stopped string  `json:"stopped,omitempty"`
	// Held: the engine has no more to do for now; an open question holds
	// the rest of the trace back (so nothing is "simulating").
	Held bool `json:"held,omitempty"`
}

// Simulate grows the trace for about d, so that a long simulation is
// spread over frames and the page stays responsive.
func (s *Session) Simulate(d time.Duration) SimulateReply {
	if s.run == nil {
		return SimulateReply{OK: true, Done: true}
	}
	start := s.now()
	deadline := start.Add(d)
	done := s.run.Done()
	for !done && start.Before(deadline) {
		done = s.run.Step(s.step)
		now := s.now()
		s.step = stepEvents(s.step, now.Sub(start), d)
		start = now
		if done {
			// The run's scenes now make room for the whole trace
			// (ui.Room): the one shown is rebuilt with it, so that its
			// layout changes once, now, and not at the next event.
			s.show(s.run.SceneAt(s.seq))
		}
	}
	tr := s.run.Trace()
	// Events held back behind an open question still come: not done yet.
	tr = tr[:s.horizon()]
	held := len(tr) < len(s.run.Trace())
	r := SimulateReply{OK: true, Done: done && !held, Held: done && held, Events: len(tr), Stopped: s.run.Stopped}
	if len(tr) > 0 {
		r.End = float64(tr[len(tr)-1].T) / 1e9
	}
	return r
}

// maxStepEvents is how many events Simulate runs between looks at the
// clock while events are cheap.
const maxStepEvents = 50

// stepEvents is how many events Simulate's next step runs in a slice of
// d, after a step of n events took took: fewer when a step takes over a
// quarter of the slice, so that the slice ends near its time (a cycle
// that reads every bound pod, as pod anti-affinity does, takes 10 ms and
// more in wasm: 50 of them made one frame 200 to 600 ms), and twice as
// many, up to maxStepEvents, while a step takes under a sixteenth.
func stepEvents(n int, took, d time.Duration) int {
	switch {
	case took > d/4:
		return max(1, int(int64(n)*int64(d/4)/int64(took)))
	case took < d/16:
		return min(2*n, maxStepEvents)
	}
	return n
}

// Trace returns the trace events from index from on, up to an open
// question's answer (see horizon).
func (s *Session) Trace(from int) []engine.Event {
	var tr []engine.Event
	if s.run != nil {
		tr = s.run.Trace()[:s.horizon()]
	}
	return tr[min(max(from, 0), len(tr)):]
}

// Seek shows the cluster right after event seq (-1: the t=0 view) at
// simulated time t seconds (countdowns run against it).
func (s *Session) Seek(seq int, t float64) {
	if s.run != nil && seq != s.seq {
		s.seq = seq
		sc := s.pre.Take(s.run, seq)
		if sc == nil {
			sc = s.run.SceneAt(seq)
			s.prefetchMisses++
		}
		s.show(sc)
	}
	s.clock = t
	s.canvas.SetClock(t)
}

// Outline is the shown scene as text, read at the shown time.
func (s *Session) Outline() adapt.Outline { return adapt.OutlineOf(s.scene, s.clock, &s.words) }

// Prefetch builds the scene after event seq for up to d, continuing the
// build of an earlier call (playback calls it once per frame for the next
// event). ok is false when there is nothing to build (no run, seq out of
// range or shown already); done is true once the scene is ready for Seek.
func (s *Session) Prefetch(seq int, d time.Duration) (ok, done bool) {
	if s.run == nil || seq < 0 || seq >= len(s.run.Trace()) || seq == s.seq {
		return false, true
	}
	return true, s.pre.Step(s.run, seq, s.now().Add(d))
}

// Prepare does ahead the copying the next load of similar text needs, for
// about d (0: all of it), and reports whether it is all done. A load in
// steps under way reads the cache: then it does nothing (and is done: the
// load's end is the time to prepare again).
func (s *Session) Prepare(d time.Duration) bool {
	if s.loading != nil {
		return true
	}
	if d <= 0 {
		return s.cache.PrepareYielding(nil)
	}
	deadline := s.now().Add(d)
	return s.cache.PrepareYielding(func() bool { return s.now().Before(deadline) })
}

// Select selects a pod or node (HitNone: nothing) from the page.
func (s *Session) Select(h ui.Hit) {
	s.canvas.Select(h)
	s.Clicked(h)
}

// Clicked is a selection made on the canvas: the spread overlay follows
// the selected pod.
func (s *Session) Clicked(h ui.Hit) {
	key := ""
	if h.Kind == ui.HitPod {
		key = h.Key
	}
	if key == s.selected {
		return
	}
	s.selected = key
	if s.run != nil {
		s.show(s.run.SceneAt(s.seq))
	}
}

// DetailsReply describes the selected object of the shown scene.
type DetailsReply struct {
	OK   bool     `json:"ok"`
	Kind string   `json:"kind"`
	Pod  *ui.Pod  `json:"pod,omitempty"`
	Node *ui.Node `json:"node,omitempty"`
	// Events are the pod's trace events up to the shown one.
	Events []engine.Event `json:"events,omitempty"`
	// Attempt explains one of the pod's scheduling cycles so far (the
	// last unless the page asked for another); for a pod not tried yet,
	// a cycle against the t=0 cluster (Seq -1).
	Attempt *engine.Attempt `json:"attempt,omitempty"`
	// ExplainError says why no explanation could be made.
	ExplainError string                `json:"explainError,omitempty"`
	Spread       []ui.SpreadConstraint `json:"spread,omitempty"`
	SpreadError  string                `json:"spreadError,omitempty"`
	// Storage is the pod's claims, their volumes and the zone those pin
	// it to, as of the shown event.
	Storage *engine.PodStorage `json:"storage,omitempty"`
}

// Details describes pod key or node key of the shown scene; for a pod,
// attempt picks which cycle to explain (1-based; 0: the last so far).
func (s *Session) Details(kind ui.HitKind, key string, attempt int) (DetailsReply, error) {
	switch kind {
	case ui.HitPod:
		r := DetailsReply{Kind: "pod"}
		r.Pod, r.OK = findPodOrGhost(s.scene, key)
		if r.OK && s.run != nil {
			s.explainPod(&r, key, attempt)
			r.Storage = s.run.Sim().PodStorageAt(key, s.seq)
			spread, err := s.run.Spread(s.seq, key)
			r.Spread = spread
			if err != nil {
				r.SpreadError = err.Error()
			}
		}
		return r, nil
	case ui.HitNode:
		r := DetailsReply{Kind: "node"}
		r.Node, r.OK = s.scene.FindNode(key)
		return r, nil
	}
	return DetailsReply{}, fmt.Errorf("unknown kind %d", kind)
}

// findPodOrGhost is the pod's chip, or the ghost it holds on a node.
func findPodOrGhost(sc *ui.Scene, key string) (*ui.Pod, bool) {
	if p, ok := sc.FindPod(key); ok {
		return p, true
	}
	for i := range sc.Nodes {
		for j := range sc.Nodes[i].Ghosts {
			if g := &sc.Nodes[i].Ghosts[j]; g.Key() == key {
				return g, true
			}
		}
	}
	return nil, false
}

func (s *Session) explainPod(r *DetailsReply, key string, attempt int) {
	sim := s.run.Sim()
	for _, i := range s.run.PodEvents(key, s.seq) {
		r.Events = append(r.Events, sim.Trace()[i])
	}
	var err error
	if s.seq >= 0 {
		r.Attempt, err = sim.ExplainAttempt(key, s.seq, attempt)
	}
	switch {
	case r.Attempt != nil || err != nil || r.Pod.Node != "":
	case s.held():
		// How a cycle would go is what an open question asks.
		r.ExplainError = "answer the lesson's question first: the cycle shows after"
	default:
		// Not tried yet: how a cycle would go against the t=0 cluster.
		var ex *scheduler.Explanation
		if ex, err = engine.Explain(s.run.Scenario(), key); err == nil {
			r.Attempt = &engine.Attempt{Seq: -1, Before: -1, Explanation: ex}
		}
	}
	if err != nil {
		r.ExplainError = err.Error()
	}
	// The canvas dims the nodes this cycle's search never looked at.
	if sv := adapt.SearchView(r.Attempt); sv != s.search {
		s.search = sv
		if key == s.selected {
			s.show(s.run.SceneAt(s.seq))
		}
	}
}

// Locate is where a pod or node is drawn, in CSS pixels of the frame.
func (s *Session) Locate(h ui.Hit) (ui.Rect, bool) { return s.canvas.Locate(h) }

// LabelPx is the size, in CSS pixels, at which the canvas draws the name
// of a pod (on its chip) or a node (on its card): presenter mode draws
// names larger than the zoom alone would.
func (s *Session) LabelPx(kind ui.HitKind) float64 { return s.canvas.LabelPx(kind) }

// SetFollow turns following the action on (each event's camera frames
// what it involves) or off (the whole cluster).
func (s *Session) SetFollow(on bool) { s.canvas.SetFollow(on) }

// SetPresenter turns the canvas's presenter mode on or off.
func (s *Session) SetPresenter(on bool) { s.canvas.SetPresenter(on) }

// SetTheme switches the canvas's palette ("light" or "dark").
func (s *Session) SetTheme(name string) { s.canvas.SetTheme(ui.ThemeByName(name)) }

// SetWords sets the words the canvas draws around the engine's facts, in
// the reader's language: a JSON object of ui.Words's names, as the page's
// catalogs hold them; a word left out stays English.
func (s *Session) SetWords(data string) error {
	w, err := ui.ParseWords(data)
	if err != nil {
		return err
	}
	s.words = w
	s.canvas.SetWords(w)
	return nil
}

// SetMotion sets how the canvas shows changes: "reduce" cuts, "full"
// glides and fades.
func (s *Session) SetMotion(mode string) error {
	switch mode {
	case "reduce", "full":
		s.canvas.SetReducedMotion(mode == "reduce")
		return nil
	}
	return fmt.Errorf("unknown motion %q (want reduce or full)", mode)
}

// Kinds are the page's names of what can be selected.
var Kinds = map[string]ui.HitKind{"": ui.HitNone, "pod": ui.HitPod, "node": ui.HitNode}

// KindName is the page's name of a hit kind.
func KindName(k ui.HitKind) string {
	for name, kind := range Kinds {
		if kind == k {
			return name
		}
	}
	return ""
}

func parseInt(what, s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("parsing %s: %w", what, err)
	}
	return n, nil
}

func parseMillis(what, s string) (time.Duration, error) {
	ms, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("parsing %s: %w", what, err)
	}
	return time.Duration(ms * float64(time.Millisecond)), nil
}
