//go:build js && wasm

// Command wasm is the browser build of schedplay: the playback session
// (ui/session) and the ebiten canvas, driven by the page through the
// global object window.schedplay (typed in web/src/bridge.d.ts). This
// file is glue: it hands each call's strings to the session and its JSON
// reply back, and the bridge recovers and reports panics.
package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"syscall/js"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/schedplay/schedplay/ui"
	"github.com/schedplay/schedplay/ui/adapt"
	"github.com/schedplay/schedplay/ui/session"
)

func main() {
	mark("main") // the runtime and every package are initialised
	if js.Global().Get("schedplayWarmOnly").Truthy() {
		warmOnly()
		return
	}
	// Collecting at three times the live heap instead of twice halves how
	// often a cycle's assists and write barriers slow the tab (its idle
	// marking comes 8 ms a turn: scripts/wasmrt); at twice, a fresh page's
	// first paste was no faster. The limit keeps a huge scenario's heap in
	// check.
	debug.SetGCPercent(200)
	debug.SetMemoryLimit(1 << 30)
	b := newBridge()
	var sess *session.Session
	game, err := ui.NewGame(ui.Callbacks{
		Select: func(h ui.Hit) {
			sess.Clicked(h)
			b.emit(map[string]any{"type": "select", "kind": session.KindName(h.Kind), "key": h.Key})
		},
		Panic: func(msg string) { b.emit(map[string]any{"type": "panic", "message": msg}) },
		Drawn: func(gen int) { b.emit(map[string]any{"type": "drawn", "gen": gen}) },
		Focus: func(h ui.Hit) {
			b.emit(map[string]any{"type": "focus", "kind": session.KindName(h.Kind), "key": h.Key})
		},
	})
	if err != nil {
		b.publish("schedplay")
		b.emit(map[string]any{"type": "fatal", "message": err.Error()})
		return
	}
	sess = session.New(game, adapt.DefaultBudget)
	mark("game")
	for _, name := range session.Methods() {
		b.export(name, func(args []string) (string, error) { return sess.Call(name, args) })
	}
	loads := &textLoads{}
	b.exportAsync("loadInSteps", func(args textArgs) (string, error) { return loads.loadInSteps(b, sess, args) })
	b.export("cancelLoad", func([]string) (string, error) {
		loads.cancel()
		sess.CancelLoad()
		return `{"ok":true}`, nil
	})
	b.export("collect", collect)
	b.export("stats", func([]string) (string, error) {
		// The heap figures are for the performance bench (web/bench).
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return marshal(map[string]any{"paints": game.Paints(), "live": game.Live(), "warmDrawn": game.WarmDrawn(), "gen": sess.Gen(),
			"heapMB": m.HeapAlloc >> 20, "sysMB": m.Sys >> 20, "numGC": m.NumGC, "allocMB": m.TotalAlloc >> 20, "prefetchMisses": sess.PrefetchMisses()})
	})
	b.listen()
	b.publish("schedplay")

	ebiten.SetRunnableOnUnfocused(true)
	// The game repaints only when the view changes (ui.Game.Draw).
	ebiten.SetScreenClearedEveryFrame(false)
	if err := ebiten.RunGame(game); err != nil {
		b.emit(map[string]any{"type": "fatal", "message": fmt.Sprintf("running the canvas: %v", err)})
	}
}

// loadSlice is how long a load in steps works before the page's event
// loop gets its turn: a long task is one over 50 ms, and a frame in the
// middle keeps the progress line moving.
const loadSlice = 30 * time.Millisecond

// textLoads is the load in steps whose text is still being copied
// across, which cancelLoad or a newer load stops.
type textLoads struct {
	copying *bool // set to true to stop it
}

func (l *textLoads) cancel() {
	if l.copying != nil {
		*l.copying = true
		l.copying = nil
	}
}

// loadInSteps(name, text) is load in slices of loadSlice (a Promise of the
// LoadReply): between slices the goroutine waits for a task of its own
// (nextTask), which returns to the event loop; the page hears the progress
// as "loadProgress" events and may call cancelLoad meanwhile. The text
// crosses in slices too (copyText), before the session's load begins.
func (l *textLoads) loadInSteps(b *bridge, sess *session.Session, args textArgs) (string, error) {
	if len(args) != 2 {
		return "", fmt.Errorf("want 2 argument(s) (name, text), got %d", len(args))
	}
	// A newer load stops the one before, whether it is still copying its
	// text or loading.
	l.cancel()
	sess.CancelLoad()
	stopped := new(bool)
	l.copying = stopped
	text, ok := args.copyText(1, loadSlice, func() bool {
		nextTask()
		return !*stopped
	})
	if l.copying == stopped {
		l.copying = nil
	}
	if !ok {
		return marshal(session.LoadReply{Result: adapt.Result{Diagnostics: []adapt.Diagnostic{}, Cancelled: true}, Gen: sess.Gen()})
	}
	r := sess.LoadInSteps(args.str(0), text, loadSlice, func(p session.LoadProgress) {
		b.emit(map[string]any{"type": "loadProgress", "done": p.Done, "total": p.Total})
		nextTask()
	})
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

// warmOnly is main in the page's warm-up worker (web/src/warm-worker.ts):
// the session's warm-up, all of it at once (the worker has its own
// thread), then a report (a WarmReport) to the page.
func warmOnly() {
	began := time.Now()
	session.New(nil, adapt.DefaultBudget).Warm(0)
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	js.Global().Call("postMessage", map[string]any{"ok": true, "ms": time.Since(began).Milliseconds(), "sysMB": m.Sys >> 20})
}
