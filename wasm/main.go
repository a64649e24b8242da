//go:build js && wasm

// Command wasm is the browser build of schedplay: the engine and the ebiten
// canvas, driven by the page through the global object window.schedplay
// (typed in web/src/bridge.d.ts).
package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/schedplay/schedplay/core/engine"
	"github.com/schedplay/schedplay/core/scenario"
	"github.com/schedplay/schedplay/core/scheduler"
	"github.com/schedplay/schedplay/ui"
	"github.com/schedplay/schedplay/ui/adapt"
)

// app holds the last good run and the scene shown, which the canvas keeps
// showing while the editor holds text that does not load.
type app struct {
	b     *bridge
	game  *ui.Game
	scene *ui.Scene
	gen   int
	run   *adapt.Run
	// seq is the trace event shown (-1: the t=0 view before anything ran).
	seq int
	// selected is the pod whose topology spread the canvas overlays.
	selected string
	// cache keeps the documents of the last load: an edit re-reads only
	// the ones it changed.
	cache scenario.Cache
	// pre builds the next event's scene ahead (prefetch.go).
	pre adapt.Prefetcher
	// prefetchMisses counts seeks that built their scene (bench figure).
	prefetchMisses int
}

func main() {
	mark("main") // the runtime and every package are initialised
	// Each collection stops the tab (wasm has one thread) for 1.5 to 2 ms
	// per MB live: 130 to 180 ms at 500 nodes / 5,000 pods. Collecting at
	// three times the live heap instead of twice halves how often playback
	// stalls; the limit keeps a huge scenario's heap in check.
	debug.SetGCPercent(200)
	debug.SetMemoryLimit(1 << 30)
	a := &app{b: newBridge(), scene: &ui.Scene{}}
	game, err := ui.NewGame(ui.Callbacks{
		Select: a.onSelect,
		Panic:  func(msg string) { a.b.emit(map[string]any{"type": "panic", "message": msg}) },
		Drawn:  func(gen int) { a.b.emit(map[string]any{"type": "drawn", "gen": gen}) },
	})
	if err != nil {
		a.b.publish("schedplay")
		a.b.emit(map[string]any{"type": "fatal", "message": err.Error()})
		return
	}
	a.game = game
	a.pre.Prepare = func(s *ui.Scene, yield func() bool) bool {
		if a.selected != "" { // show copies the scene to add the overlay
			return true
		}
		return game.Prepare(s, yield)
	}
	mark("game")
	a.b.export("load", a.load)
	a.b.export("simulate", a.simulate)
	a.b.export("trace", a.trace)
	a.b.export("seek", a.seek)
	a.b.export("prefetch", a.prefetch)
	a.b.export("collect", collect)
	a.b.export("setTheme", a.setTheme)
	a.b.export("select", a.selectFromPage)
	a.b.export("details", a.details)
	a.b.export("locate", a.locate)
	a.b.export("prepare", func([]string) (string, error) {
		a.cache.Prepare()
		return `{"ok":true}`, nil
	})
	a.b.export("stats", func([]string) (string, error) {
		// The heap figures are for the performance bench (web/bench).
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return marshal(map[string]any{"paints": a.game.Paints(), "live": a.game.Live(), "gen": a.gen,
			"heapMB": m.HeapAlloc >> 20, "sysMB": m.Sys >> 20, "numGC": m.NumGC, "allocMB": m.TotalAlloc >> 20, "prefetchMisses": a.prefetchMisses})
	})
	a.b.listen()
	a.b.publish("schedplay")

	ebiten.SetRunnableOnUnfocused(true)
	// The game repaints only when the view changes (ui.Game.Draw).
	ebiten.SetScreenClearedEveryFrame(false)
	if err := ebiten.RunGame(game); err != nil {
		a.b.emit(map[string]any{"type": "fatal", "message": fmt.Sprintf("running the canvas: %v", err)})
	}
}

type loadReply struct {
	adapt.Result
	Gen    int          `json:"gen"`
	Budget adapt.Budget `json:"budget"`
}

// load(name, text) loads scenario text; on success the canvas shows its t=0
// view and the page then calls simulate until the trace is complete.
func (a *app) load(args []string) (string, error) {
	if len(args) != 2 {
		return "", fmt.Errorf("want 2 arguments (name, text), got %d", len(args))
	}
	res := adapt.LoadCached(&a.cache, args[0], []byte(args[1]), adapt.DefaultBudget)
	reply := loadReply{Result: res, Budget: adapt.DefaultBudget}
	if res.OK {
		a.pre.Cancel()
		a.run, a.seq = res.Run, -1
		a.show(res.Run.Base())
		a.game.SetClock(0)
	}
	reply.Gen = a.gen
	return marshal(reply)
}

// show puts a scene on the canvas, with the selected pod's spread overlay.
func (a *app) show(s *ui.Scene) {
	if a.selected != "" && a.run != nil {
		c := *s
		c.Spread, _ = a.run.Spread(a.seq, a.selected)
		s = &c
	}
	a.gen++
	a.scene = s
	a.game.SetScene(s, a.gen)
}

type simulateReply struct {
	OK      bool    `json:"ok"`
	Done    bool    `json:"done"`
	Events  int     `json:"events"`
	End     float64 `json:"end"`
	Stopped string  `json:"stopped,omitempty"`
}

// simulate(ms) grows the trace for about ms milliseconds, so that a long
// simulation is spread over frames and the page stays responsive.
func (a *app) simulate(args []string) (string, error) {
	if len(args) != 1 {
		return "", fmt.Errorf("want 1 argument (milliseconds), got %d", len(args))
	}
	ms, err := strconv.ParseFloat(args[0], 64)
	if err != nil {
		return "", fmt.Errorf("parsing milliseconds: %w", err)
	}
	if a.run == nil {
		return marshal(simulateReply{OK: true, Done: true})
	}
	deadline := time.Now().Add(time.Duration(ms * float64(time.Millisecond)))
	done := a.run.Done()
	for !done && time.Now().Before(deadline) {
		done = a.run.Step(50)
		if done {
			// The run's scenes now make room for the whole trace
			// (ui.Room): the one shown is rebuilt with it, so that its
			// layout changes once, now, and not at the next event.
			a.show(a.run.SceneAt(a.seq))
		}
	}
	tr := a.run.Trace()
	r := simulateReply{OK: true, Done: done, Events: len(tr), Stopped: a.run.Stopped}
	if len(tr) > 0 {
		r.End = float64(tr[len(tr)-1].T) / 1e9
	}
	return marshal(r)
}

// collect() runs the garbage collector when the garbage waiting is more
// than half the live heap (a quarter of the collector's cycle at GOGC 200
// spent). The page calls it as playback starts: the pause (wasm has one
// thread; some 150 ms at 5,000 pods) then delays the first frame of motion
// instead of stopping it a few seconds in, and the next cycle begins empty.
func collect([]string) (string, error) {
	m := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(m)
	live, all := m[0].Value.Uint64(), m[1].Value.Uint64()
	ran := all > live+live/2
	if ran {
		runtime.GC()
	}
	return marshal(map[string]any{"ok": true, "collected": ran})
}

// trace(from) returns the trace events from index from on.
func (a *app) trace(args []string) (string, error) {
	if len(args) != 1 {
		return "", fmt.Errorf("want 1 argument (from), got %d", len(args))
	}
	from, err := strconv.Atoi(args[0])
	if err != nil {
		return "", fmt.Errorf("parsing from: %w", err)
	}
	var tr []engine.Event
	if a.run != nil {
		tr = a.run.Trace()
	}
	from = min(max(from, 0), len(tr))
	return marshal(map[string]any{"ok": true, "events": tr[from:]})
}

// seqAnd parses the arguments (seq, a number named name) of seek and
// prefetch.
func seqAnd(args []string, name string) (int, float64, error) {
	if len(args) != 2 {
		return 0, 0, fmt.Errorf("want 2 arguments (seq, %s), got %d", name, len(args))
	}
	seq, err := strconv.Atoi(args[0])
	if err != nil {
		return 0, 0, fmt.Errorf("parsing seq: %w", err)
	}
	x, err := strconv.ParseFloat(args[1], 64)
	if err != nil {
		return 0, 0, fmt.Errorf("parsing %s: %w", name, err)
	}
	return seq, x, nil
}

// seek(seq, t) shows the cluster right after event seq (-1: the t=0 view)
// at simulated time t seconds (countdowns run against it).
func (a *app) seek(args []string) (string, error) {
	seq, t, err := seqAnd(args, "t")
	if err != nil {
		return "", err
	}
	if a.run != nil && seq != a.seq {
		a.seq = seq
		s := a.pre.Take(a.run, seq)
		if s == nil {
			s = a.run.SceneAt(seq)
			a.prefetchMisses++
		}
		a.show(s)
	}
	a.game.SetClock(t)
	return marshal(map[string]any{"ok": true, "gen": a.gen})
}

// setTheme("light" | "dark").
func (a *app) setTheme(args []string) (string, error) {
	if len(args) != 1 {
		return "", fmt.Errorf("want 1 argument (theme), got %d", len(args))
	}
	a.game.SetTheme(ui.ThemeByName(args[0]))
	return `{"ok":true}`, nil
}

var kinds = map[string]ui.HitKind{"": ui.HitNone, "pod": ui.HitPod, "node": ui.HitNode}
var kindNames = map[ui.HitKind]string{ui.HitNone: "", ui.HitPod: "pod", ui.HitNode: "node"}

// select(kind, key) selects a pod ("pod", "ns/name") or node ("node", name).
func (a *app) selectFromPage(args []string) (string, error) {
	if len(args) != 2 {
		return "", fmt.Errorf("want 2 arguments (kind, key), got %d", len(args))
	}
	k, ok := kinds[args[0]]
	if !ok {
		return "", fmt.Errorf("unknown kind %q", args[0])
	}
	a.game.Select(ui.Hit{Kind: k, Key: args[1]})
	a.selectPod(ui.Hit{Kind: k, Key: args[1]})
	return `{"ok":true}`, nil
}

type detailsReply struct {
	OK   bool     `json:"ok"`
	Kind string   `json:"kind"`
	Pod  *ui.Pod  `json:"pod,omitempty"`
	Node *ui.Node `json:"node,omitempty"`
	// Events are the pod's trace events up to the shown one.
	Events []engine.Event `json:"events,omitempty"`
	// Attempt explains the pod's last scheduling cycle so far; for a pod
	// not tried yet, a cycle against the t=0 cluster (Seq -1).
	Attempt *engine.Attempt `json:"attempt,omitempty"`
	// ExplainError says why no explanation could be made.
	ExplainError string                `json:"explainError,omitempty"`
	Spread       []ui.SpreadConstraint `json:"spread,omitempty"`
}

// details(kind, key) describes the selected object of the shown scene.
func (a *app) details(args []string) (string, error) {
	if len(args) != 2 {
		return "", fmt.Errorf("want 2 arguments (kind, key), got %d", len(args))
	}
	r := detailsReply{Kind: args[0]}
	switch args[0] {
	case "pod":
		r.Pod, r.OK = a.scene.FindPod(args[1])
		if !r.OK {
			for i := range a.scene.Nodes {
				for j := range a.scene.Nodes[i].Ghosts {
					if g := &a.scene.Nodes[i].Ghosts[j]; g.Key() == args[1] {
						r.Pod, r.OK = g, true
					}
				}
			}
		}
		if r.OK && a.run != nil {
			a.explainPod(&r, args[1])
			r.Spread, _ = a.run.Spread(a.seq, args[1])
		}
	case "node":
		r.Node, r.OK = a.scene.FindNode(args[1])
	default:
		return "", fmt.Errorf("unknown kind %q", args[0])
	}
	return marshal(r)
}

func (a *app) explainPod(r *detailsReply, key string) {
	if sim := a.run.Sim(); sim != nil {
		for _, i := range a.run.PodEvents(key, a.seq) {
			r.Events = append(r.Events, sim.Trace()[i])
		}
	}
	var err error
	if sim := a.run.Sim(); sim != nil && a.seq >= 0 {
		r.Attempt, err = sim.ExplainAt(key, a.seq)
	}
	if r.Attempt == nil && err == nil && r.Pod.Node == "" {
		// Not tried yet: how a cycle would go against the t=0 cluster.
		var ex *scheduler.Explanation
		if ex, err = engine.Explain(a.run.Scenario(), key); err == nil {
			r.Attempt = &engine.Attempt{Seq: -1, Explanation: ex}
		}
	}
	if err != nil {
		r.ExplainError = err.Error()
	}
}

type locateReply struct {
	OK bool    `json:"ok"`
	X  float64 `json:"x"`
	Y  float64 `json:"y"`
	W  float64 `json:"w"`
	H  float64 `json:"h"`
}

// locate(kind, key) returns where a pod or node is drawn, in CSS pixels of
// the frame, so the page (and the browser tests) can point at it.
func (a *app) locate(args []string) (string, error) {
	if len(args) != 2 {
		return "", fmt.Errorf("want 2 arguments (kind, key), got %d", len(args))
	}
	k, ok := kinds[args[0]]
	if !ok || k == ui.HitNone {
		return "", fmt.Errorf("unknown kind %q", args[0])
	}
	r, ok := a.game.Locate(ui.Hit{Kind: k, Key: args[1]})
	return marshal(locateReply{OK: ok, X: r.X, Y: r.Y, W: r.W, H: r.H})
}

func (a *app) onSelect(h ui.Hit) {
	a.selectPod(h)
	a.b.emit(map[string]any{"type": "select", "kind": kindNames[h.Kind], "key": h.Key})
}

// selectPod keeps the spread overlay on the selected pod.
func (a *app) selectPod(h ui.Hit) {
	key := ""
	if h.Kind == ui.HitPod {
		key = h.Key
	}
	if key == a.selected {
		return
	}
	a.selected = key
	if a.run != nil {
		a.show(a.run.SceneAt(a.seq))
	}
}

func marshal(v any) (string, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("encoding reply: %w", err)
	}
	return string(data), nil
}
