package ui

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// focusScene: one pending pod, two zones, node a-2 before a-10 as the
// scene lists them, a ghost of the pending pod on b-1.
func focusScene() *Scene {
	pending := Pod{Namespace: "d", Name: "q", Priority: 100, NominatedNode: "b-1"}
	ghost := pending
	ghost.Ghost = true
	return &Scene{
		ZoneKey: "zone",
		Pending: []Pod{pending},
		Nodes: []Node{
			{Name: "b-1", Zone: "z2", Allocatable: Resources{Pods: 10}, Pods: []Pod{{Namespace: "d", Name: "x", Node: "b-1"}}, Ghosts: []Pod{ghost}},
			{Name: "a-2", Zone: "z1", Allocatable: Resources{Pods: 10}, Pods: []Pod{{Namespace: "d", Name: "y", Node: "a-2"}, {Namespace: "d", Name: "z", Node: "a-2"}}},
			{Name: "a-10", Zone: "z1", Allocatable: Resources{Pods: 10}},
		},
	}
}

func TestFocusOrderFollowsLayout(t *testing.T) {
	l := Arrange(focusScene(), 16.0/9)
	var got []string
	for _, it := range l.FocusOrder() {
		got = append(got, it.Hit.Key)
	}
	want := []string{"d/q", "a-2", "d/y", "d/z", "a-10", "b-1", "d/x"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("focus order (-want +got):\n%s", diff)
	}
}

func TestArrowKeysMoveFocusAndEnterSelects(t *testing.T) {
	l := Arrange(focusScene(), 16.0/9)
	v := view{cam: Camera{Zoom: 1}, scale: 1, w: 1600, h: 900}
	press := func(k IntentKind) bool { return v.apply([]Intent{{Kind: k}}, hitGrid, l.Bounds, l.FocusOrder) }
	steps := []struct {
		key     IntentKind
		focus   string
		changed bool
	}{
		{IntentFocusNext, "d/q", false},
		{IntentFocusNext, "a-2", false},
		{IntentFocusNext, "d/y", false},
		{IntentFocusNextNode, "a-10", false},
		{IntentFocusNextNode, "b-1", false},
		{IntentFocusNextNode, "b-1", false}, // no node after the last: stays
		{IntentFocusPrev, "a-10", false},
		{IntentFocusPrevNode, "a-2", false},
		{IntentOpen, "a-2", true},
		{IntentOpen, "a-2", false}, // already selected
		{IntentUnselect, "a-2", true},
		{IntentUnselect, "", false}, // nothing selected: Esc drops the focus
		{IntentFocusPrev, "d/x", false},
	}
	for i, s := range steps {
		changed := press(s.key)
		if v.focus.Key != s.focus || changed != s.changed {
			t.Fatalf("step %d (intent %d): focus %q changed %v, want %q %v", i, s.key, v.focus.Key, changed, s.focus, s.changed)
		}
	}
	if v.selected.Kind != HitNone {
		t.Errorf("selection %v after Escape, want none", v.selected)
	}
}

func TestFocusMovePansToAnOffscreenStop(t *testing.T) {
	l := Arrange(focusScene(), 16.0/9)
	// Zoomed in on the queue lane: the last card is off screen.
	v := view{cam: Camera{Zoom: 3}, scale: 1, w: 400, h: 300, autoFit: true}
	v.apply([]Intent{{Kind: IntentFocusPrev}}, hitGrid, l.Bounds, l.FocusOrder)
	items := l.FocusOrder()
	r := items[len(items)-1].Rect
	x0, y0 := v.cam.ToScreen(r.X, r.Y)
	x1, y1 := v.cam.ToScreen(r.X+r.W, r.Y+r.H)
	if x0 < 0 || y0 < 0 || x1 > 400 || y1 > 300 || v.cam.Zoom != 3 || v.autoFit {
		t.Errorf("focused chip at (%.0f,%.0f)-(%.0f,%.0f) zoom %v autoFit %v, want on a 400x300 screen at zoom 3", x0, y0, x1, y1, v.cam.Zoom, v.autoFit)
	}
}
