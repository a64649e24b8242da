package ui

import "testing"

// hitGrid is what the test canvas draws: pod "a/p" over world x < 50,
// node "n" over 50 <= x < 100, nothing beyond.
func hitGrid(wx, wy float64) Hit {
	switch {
	case wx < 50:
		return Hit{Kind: HitPod, Key: "a/p"}
	case wx < 100:
		return Hit{Kind: HitNode, Key: "n"}
	}
	return Hit{}
}

func TestViewAppliesIntents(t *testing.T) {
	bounds := Rect{W: 400, H: 300}
	start := func() view {
		return view{cam: Camera{Zoom: 1}, autoFit: true, scale: 1, w: 800, h: 600}
	}
	tests := []struct {
		name    string
		scale   float64
		ticks   [][]Intent
		want    func(v view) bool
		changed bool
	}{
		{name: "a press and release in place selects what is under it",
			ticks: [][]Intent{{{Kind: IntentPress, X: 20, Y: 5}, {Kind: IntentCursor, X: 20, Y: 5}}, {{Kind: IntentRelease, X: 22, Y: 6}, {Kind: IntentCursor, X: 22, Y: 6}}},
			want: func(v view) bool {
				return v.selected == Hit{Kind: HitPod, Key: "a/p"} && !v.pressed && v.cam == Camera{Zoom: 1}
			}, changed: true},
		{name: "a drag pans, selects nothing and stops fitting",
			ticks: [][]Intent{{{Kind: IntentPress, X: 20, Y: 5}, {Kind: IntentCursor, X: 20, Y: 5}}, {{Kind: IntentCursor, X: 30, Y: 5}}, {{Kind: IntentCursor, X: 40, Y: 9}}, {{Kind: IntentRelease, X: 40, Y: 9}, {Kind: IntentCursor, X: 40, Y: 9}}},
			want: func(v view) bool {
				return v.selected.Kind == HitNone && !v.dragging && !v.autoFit && v.cam == Camera{X: -20, Y: -4, Zoom: 1}
			}},
		{name: "the drag threshold grows with the display's scale",
			scale: 2,
			ticks: [][]Intent{{{Kind: IntentPress, X: 20, Y: 5}, {Kind: IntentCursor, X: 20, Y: 5}}, {{Kind: IntentCursor, X: 27, Y: 5}}, {{Kind: IntentRelease, X: 27, Y: 5}, {Kind: IntentCursor, X: 27, Y: 5}}},
			want:  func(v view) bool { return v.selected.Kind == HitPod && v.cam.X == 0 }, changed: true},
		{name: "a release without a press does nothing",
			ticks: [][]Intent{{{Kind: IntentRelease, X: 20, Y: 5}, {Kind: IntentCursor, X: 20, Y: 5}}},
			want:  func(v view) bool { return v.selected.Kind == HitNone && v.hover.Kind == HitPod }},
		{name: "the wheel zooms around the cursor within the limits",
			ticks: [][]Intent{{{Kind: IntentZoomAt, X: 100, Y: 50, Factor: 100}, {Kind: IntentCursor, X: 100, Y: 50}}},
			want: func(v view) bool {
				wx, wy := v.cam.ToWorld(100, 50)
				return v.cam.Zoom == MaxZoom && wx == 100 && wy == 50 && !v.autoFit && v.hover.Kind == HitNone
			}},
		{name: "keys zoom around the centre, F fits again",
			ticks: [][]Intent{{{Kind: IntentCursor}, {Kind: IntentZoomCenter, Factor: 1.25}}, {{Kind: IntentCursor}, {Kind: IntentFit}}},
			want:  func(v view) bool { return v.autoFit && v.cam == FitCanvas(bounds, 800, 600, 1) }},
		{name: "a pinch zooms around the fingers, pans with them and is no tap",
			ticks: [][]Intent{{{Kind: IntentPress, X: 20, Y: 5}, {Kind: IntentCursor, X: 20, Y: 5}}, {{Kind: IntentPinch, X: 100, Y: 50, Factor: 2, DX: 10}}, {{Kind: IntentRelease, X: 100, Y: 50}, {Kind: IntentCursor, X: 100, Y: 50}}},
			want: func(v view) bool {
				wx, wy := v.cam.ToWorld(100, 50)
				return v.cam.Zoom == 2 && wx == 90 && wy == 50 && v.selected.Kind == HitNone && !v.autoFit
			}},
		{name: "Escape clears a selection",
			ticks: [][]Intent{{{Kind: IntentPress, X: 60}, {Kind: IntentRelease, X: 60}, {Kind: IntentCursor, X: 60}}, {{Kind: IntentCursor, X: 60}, {Kind: IntentUnselect}}},
			want:  func(v view) bool { return v.selected.Kind == HitNone && v.hover.Kind == HitNode }, changed: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := start()
			if tt.scale != 0 {
				v.scale = tt.scale
			}
			changed := false
			for _, tick := range tt.ticks {
				changed = v.apply(tick, hitGrid, bounds, nil) || changed
			}
			if !tt.want(v) || changed != tt.changed {
				t.Errorf("view %+v, selection changed %v (want %v)", v, changed, tt.changed)
			}
		})
	}
	// Escape with nothing selected reports nothing.
	v := start()
	if v.apply([]Intent{{Kind: IntentUnselect}}, hitGrid, bounds, nil) {
		t.Error("Escape without a selection reported a change")
	}
}

// The frame planner paints only when the picture changes: not while idle,
// not for time passing that no chip or tooltip shows; every frame while
// chips move and once more when they settle; the world picture only when
// its part of the view changed.
func TestFramesPlanRepaints(t *testing.T) {
	v := view{cam: Camera{Zoom: 1}, scale: 1, w: 800, h: 600}
	var f frames
	type frame struct {
		name  string
		setup func()
		now   float64
		timed bool
		busy  bool
		live  int
		want  framePlan
	}
	frames := []frame{
		{name: "first frame", want: framePlan{paint: true, world: true}},
		{name: "idle", want: framePlan{}},
		{name: "time passes, nothing shows it", now: 3, want: framePlan{}},
		{name: "time passes, a timed chip shows it", now: 4, timed: true, want: framePlan{paint: true}},
		{name: "chips start moving", now: 4, timed: true, busy: true, live: 12, want: framePlan{paint: true}},
		{name: "chips still moving", now: 4, timed: true, busy: true, live: 12, want: framePlan{paint: true}},
		{name: "motion ends: one more paint puts them in the picture", now: 4, timed: true, live: 12, want: framePlan{paint: true, world: true, settled: true}},
		{name: "settled", now: 4, timed: true, want: framePlan{}},
		{name: "the cursor hovers a pod: its tooltip", now: 4, timed: true, setup: func() { v.hover, v.cursorX = Hit{Kind: HitPod, Key: "a/p"}, 10 }, want: framePlan{paint: true, world: true}},
		{name: "the tooltip follows the cursor", now: 4, timed: true, setup: func() { v.cursorX = 11 }, want: framePlan{paint: true}},
		{name: "a pan redraws the picture", now: 4, timed: true, setup: func() { v.cam.X = 5 }, want: framePlan{paint: true, world: true}},
	}
	for _, fr := range frames {
		if fr.setup != nil {
			fr.setup()
		}
		got := f.plan(v.key(1, "light", "", fr.now, fr.timed), fr.busy, fr.live)
		got.worldKey, got.prevWorld, got.hadWorld = viewKey{}, viewKey{}, false
		if got != fr.want {
			t.Errorf("%s: plan %+v, want %+v", fr.name, got, fr.want)
		}
	}
}

func TestWheelFactor(t *testing.T) {
	tests := []struct {
		name      string
		dy, notch float64
		lo, hi    float64
	}{
		{"one browser notch in zooms 1.2x", 100, 100, 1.1999, 1.2001},
		{"one browser notch out", -100, 100, 0.8333, 0.8334},
		{"a trackpad's small delta zooms a little", 4, 100, 1.007, 1.008},
		{"a huge delta stops at 2x", 5000, 100, 2, 2},
		{"one native notch", 1, 1, 1.1999, 1.2001},
	}
	for _, tt := range tests {
		if f := WheelFactor(tt.dy, tt.notch); f < tt.lo || f > tt.hi {
			t.Errorf("%s: WheelFactor(%v, %v) = %v, want in [%v, %v]", tt.name, tt.dy, tt.notch, f, tt.lo, tt.hi)
		}
	}
}
