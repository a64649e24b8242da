//go:build js && wasm

// Command wasm is the browser build of schedplay: the engine and the ebiten
// canvas, driven by the page through the global object window.schedplay
// (typed in web/src/bridge.d.ts).
package main

import (
	"encoding/json"
	"fmt"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/schedplay/schedplay/ui"
	"github.com/schedplay/schedplay/ui/adapt"
)

// app holds the last good scene, which the canvas keeps showing while the
// editor holds text that does not load.
type app struct {
	b     *bridge
	game  *ui.Game
	scene *ui.Scene
	gen   int
}

func main() {
	a := &app{b: newBridge(), scene: &ui.Scene{}}
	game, err := ui.NewGame(ui.Callbacks{
		Select: a.selected,
		Panic:  func(msg string) { a.b.emit(map[string]any{"type": "panic", "message": msg}) },
		Drawn:  func(gen int) { a.b.emit(map[string]any{"type": "drawn", "gen": gen}) },
	})
	if err != nil {
		a.b.publish("schedplay")
		a.b.emit(map[string]any{"type": "fatal", "message": err.Error()})
		return
	}
	a.game = game
	a.b.export("load", a.load)
	a.b.export("setTheme", a.setTheme)
	a.b.export("select", a.selectFromPage)
	a.b.export("details", a.details)
	a.b.export("locate", a.locate)
	a.b.export("stats", func([]string) (string, error) {
		return marshal(map[string]int{"paints": a.game.Paints(), "gen": a.gen})
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
	Gen int `json:"gen"`
}

// load(name, text) loads scenario text; on success the canvas shows it.
func (a *app) load(args []string) (string, error) {
	if len(args) != 2 {
		return "", fmt.Errorf("want 2 arguments (name, text), got %d", len(args))
	}
	res := adapt.Load(args[0], []byte(args[1]))
	if res.OK {
		a.gen++
		a.scene = res.Scene
		a.game.SetScene(res.Scene, a.gen)
	}
	return marshal(loadReply{Result: res, Gen: a.gen})
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
	return `{"ok":true}`, nil
}

type detailsReply struct {
	OK   bool     `json:"ok"`
	Kind string   `json:"kind"`
	Pod  *ui.Pod  `json:"pod,omitempty"`
	Node *ui.Node `json:"node,omitempty"`
}

// details(kind, key) returns the selected object of the shown scene.
func (a *app) details(args []string) (string, error) {
	if len(args) != 2 {
		return "", fmt.Errorf("want 2 arguments (kind, key), got %d", len(args))
	}
	r := detailsReply{Kind: args[0]}
	switch args[0] {
	case "pod":
		r.Pod, r.OK = a.scene.FindPod(args[1])
	case "node":
		r.Node, r.OK = a.scene.FindNode(args[1])
	default:
		return "", fmt.Errorf("unknown kind %q", args[0])
	}
	return marshal(r)
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

func (a *app) selected(h ui.Hit) {
	a.b.emit(map[string]any{"type": "select", "kind": kindNames[h.Kind], "key": h.Key})
}

func marshal(v any) (string, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("encoding reply: %w", err)
	}
	return string(data), nil
}
