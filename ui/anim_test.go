package ui_test

import (
	"testing"

	"github.com/schedplay/schedplay/ui"
)

func TestMotionGlidesToTheNewPlace(t *testing.T) {
	s := &ui.Scene{Nodes: []ui.Node{{Name: "n1"}}, Pending: []ui.Pod{{Namespace: "d", Name: "p"}}}
	m := ui.NewMotion()
	before := ui.Arrange(s, 1)
	m.Retarget(before)
	from, _ := m.Rect("d/p")
	if from != before.Chips[0].Rect {
		t.Fatalf("a new chip starts at %+v, want its place %+v", from, before.Chips[0].Rect)
	}
	if a := m.Alpha("d/p"); a != 0 {
		t.Errorf("a new chip starts with alpha %v, want 0 (fading in)", a)
	}

	// Bind the pod: it moves from the queue lane to the node card.
	s.Nodes[0].Pods, s.Pending = []ui.Pod{{Namespace: "d", Name: "p", Node: "n1"}}, nil
	after := ui.Arrange(s, 1)
	m.Retarget(after)
	to := after.Chips[0].Rect
	prevDist := dist(from, to)
	for i := 0; i < ui.MoveTicks; i++ {
		if !m.Busy() {
			t.Fatalf("motion settled after %d ticks, want %d", i, ui.MoveTicks)
		}
		m.Step()
		r, _ := m.Rect("d/p")
		if d := dist(r, to); d > prevDist {
			t.Fatalf("tick %d: chip moved away from its target (%v > %v)", i, d, prevDist)
		} else {
			prevDist = d
		}
	}
	if r, _ := m.Rect("d/p"); r != to {
		t.Errorf("after %d ticks the chip is at %+v, want %+v", ui.MoveTicks, r, to)
	}
	if m.Busy() {
		t.Error("motion still busy after settling")
	}

	// A pod that disappears is forgotten.
	s.Nodes[0].Pods = nil
	m.Retarget(ui.Arrange(s, 1))
	if _, ok := m.Rect("d/p"); ok {
		t.Error("a removed pod still has a chip")
	}
}

func dist(a, b ui.Rect) float64 {
	dx, dy := a.X-b.X, a.Y-b.Y
	return dx*dx + dy*dy
}
