package ui_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

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

func TestQueueSectionsGhostsAndLeaving(t *testing.T) {
	s := &ui.Scene{
		Nodes: []ui.Node{{Name: "n1", Pods: []ui.Pod{{Namespace: "d", Name: "victim", Node: "n1"}},
			Ghosts: []ui.Pod{{Namespace: "d", Name: "boss", Ghost: true}}}},
		Pending: []ui.Pod{
			{Namespace: "d", Name: "a", Queue: ui.QueueActive},
			{Namespace: "d", Name: "boss", Queue: ui.QueueUnschedulable, Reason: "0/1 nodes are available"},
			{Namespace: "d", Name: "b", Queue: ui.QueueBackoff},
		},
	}
	l := ui.Arrange(s, 1)
	var got []string
	for _, sec := range l.Sections {
		got = append(got, sec.Queue)
	}
	if diff := cmp.Diff([]string{ui.QueueActive, ui.QueueBackoff, ui.QueueUnschedulable}, got); diff != "" {
		t.Errorf("sections in pop order (-want +got):\n%s", diff)
	}
	keys := map[string]ui.ChipBox{}
	for _, c := range l.Chips {
		keys[c.Key] = c
	}
	ghost, ok := keys["ghost:d/boss"]
	if !ok || !l.Nodes[0].Rect.Contains(ghost.Rect.X+1, ghost.Rect.Y+1) {
		t.Errorf("boss's ghost is not on n1's card: %+v", ghost)
	}
	if un := keys["d/boss"]; un.Rect.H <= keys["d/a"].Rect.H {
		t.Error("an unschedulable chip has no room for its reason")
	}

	// The victim is deleted: its chip fades out where it was.
	m := ui.NewMotion()
	m.Retarget(l)
	was := keys["d/victim"].Rect
	s.Nodes[0].Pods = nil
	m.Retarget(ui.Arrange(s, 1))
	if _, ok := m.Rect("d/victim"); ok {
		t.Error("a deleted pod still has a place")
	}
	lv := m.Leaving()
	if len(lv) != 1 || lv[0].Key != "d/victim" || lv[0].Rect != was || lv[0].Alpha != 1 {
		t.Fatalf("leaving = %+v, want the victim at %+v, opaque", lv, was)
	}
	for i := 0; i < ui.LeaveTicks/2; i++ {
		m.Step()
	}
	if a := m.Leaving()[0].Alpha; a <= 0 || a >= 1 {
		t.Errorf("half-way alpha = %v, want between 0 and 1", a)
	}
	for i := 0; i < ui.LeaveTicks; i++ {
		m.Step()
	}
	if len(m.Leaving()) != 0 || m.Busy() {
		t.Error("the fade-out never ends")
	}
}

func TestMotionSettled(t *testing.T) {
	s := &ui.Scene{Nodes: []ui.Node{{Name: "n1"}}, Pending: []ui.Pod{{Namespace: "d", Name: "p"}}}
	m := ui.NewMotion()
	l := ui.Arrange(s, 1)
	m.Retarget(l)
	at := l.Chips[0].Rect
	settlesAfter(t, m, "d/p", at, ui.FadeTicks, "fading in")
	if m.Settled("d/p", ui.Rect{X: at.X + 1, Y: at.Y, W: at.W, H: at.H}) {
		t.Errorf("a chip is settled at a place it is not laid out at")
	}
	if !m.Settled("d/q", at) {
		t.Errorf("a chip Motion does not know is not settled (it is drawn at its place)")
	}

	// Bind it: it glides to the card, and is settled there once it arrives.
	s.Nodes[0].Pods, s.Pending = []ui.Pod{{Namespace: "d", Name: "p", Node: "n1"}}, nil
	l = ui.Arrange(s, 1)
	m.Retarget(l)
	to := l.Chips[0].Rect
	settlesAfter(t, m, "d/p", to, ui.MoveTicks, "gliding")

	// Delete it: fading out is not settled.
	s.Nodes[0].Pods = nil
	m.Retarget(ui.Arrange(s, 1))
	if m.Settled("d/p", to) {
		t.Errorf("a chip fading out is settled")
	}
}

// settlesAfter checks that the chip is not settled at its place while
// doing what, and is after ticks more steps.
func settlesAfter(t *testing.T, m *ui.Motion, key string, at ui.Rect, ticks int, what string) {
	t.Helper()
	if m.Settled(key, at) {
		t.Errorf("a chip %s is settled", what)
	}
	for range ticks {
		m.Step()
	}
	if !m.Settled(key, at) {
		t.Errorf("a chip done %s is not settled", what)
	}
}

func TestChipBoxTimed(t *testing.T) {
	tests := []struct {
		name string
		c    ui.ChipBox
		want bool
		// wantNoText is TimedAt(false): zoomed out too far for chip text.
		wantNoText bool
	}{
		{name: "a running pod", c: ui.ChipBox{Pod: &ui.Pod{Node: "n"}}},
		{name: "a terminating pod counts down", c: ui.ChipBox{Pod: &ui.Pod{Node: "n", Termination: &ui.Termination{}}}, want: true, wantNoText: true},
		{name: "a pod in backoffQ shows the backoff left", c: ui.ChipBox{Pod: &ui.Pod{Queue: ui.QueueBackoff}, Pending: true}, want: true},
		{name: "a pod in activeQ", c: ui.ChipBox{Pod: &ui.Pod{Queue: ui.QueueActive}, Pending: true}},
		{name: "an unschedulable pod shows its reason only", c: ui.ChipBox{Pod: &ui.Pod{Queue: ui.QueueUnschedulable, Reason: "x"}, Pending: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.c.Timed(); got != tt.want {
				t.Errorf("Timed() = %v, want %v", got, tt.want)
			}
			if got := tt.c.TimedAt(true); got != tt.want {
				t.Errorf("TimedAt(true) = %v, want %v", got, tt.want)
			}
			if got := tt.c.TimedAt(false); got != tt.wantNoText {
				t.Errorf("TimedAt(false) = %v, want %v", got, tt.wantNoText)
			}
		})
	}
}

// ChipAt and SettledAt read a chip by its index in the last layout given to Retarget;
// it must agree with the lookup by key at every tick of a move and fade,
// and fall back to the key for any other layout.
func TestMotionChipAtAgreesWithRectAndAlpha(t *testing.T) {
	s := &ui.Scene{Nodes: []ui.Node{{Name: "n1"}}, Pending: []ui.Pod{{Namespace: "d", Name: "p"}, {Namespace: "d", Name: "q"}}}
	m := ui.NewMotion()
	m.Retarget(ui.Arrange(s, 1))
	m.Step()
	s.Nodes[0].Pods, s.Pending = []ui.Pod{{Namespace: "d", Name: "p", Node: "n1"}}, []ui.Pod{{Namespace: "d", Name: "q"}, {Namespace: "d", Name: "r"}}
	after := ui.Arrange(s, 1)
	m.Retarget(after)
	other := ui.Arrange(s, 1) // same places, not the layout Motion indexed
	type drawn struct {
		R ui.Rect
		A float64
	}
	moved := false
	for tick := 0; tick <= ui.MoveTicks; tick++ {
		for i, c := range after.Chips {
			r, ok := m.Rect(c.Key)
			if !ok {
				t.Fatalf("tick %d: chip %s has no place", tick, c.Key)
			}
			want := drawn{r, m.Alpha(c.Key)}
			gr, ga := m.ChipAt(after, i)
			if diff := cmp.Diff(want, drawn{gr, ga}); diff != "" {
				t.Fatalf("tick %d: ChipAt(%s) (-want +got):\n%s", tick, c.Key, diff)
			}
			or, oa := m.ChipAt(other, i)
			if diff := cmp.Diff(want, drawn{or, oa}); diff != "" {
				t.Fatalf("tick %d: ChipAt(%s) on another layout (-want +got):\n%s", tick, c.Key, diff)
			}
			if got, want := m.SettledAt(after, i), m.Settled(c.Key, c.Rect); got != want {
				t.Fatalf("tick %d: SettledAt(%s) = %v, Settled = %v", tick, c.Key, got, want)
			}
			if r != c.Rect {
				moved = true
			}
		}
		m.Step()
	}
	if !moved {
		t.Error("no chip was drawn off its place: the test checked nothing moving")
	}
}

// A pod that leaves and comes back while its old chip fades out: the old
// fade must neither be listed nor forget the new chip when it ends.
func TestMotionChipBackWhileFadingOut(t *testing.T) {
	s := &ui.Scene{Nodes: []ui.Node{{Name: "n1"}}, Pending: []ui.Pod{{Namespace: "d", Name: "p"}}}
	m := ui.NewMotion()
	m.Retarget(ui.Arrange(s, 1))
	for range ui.FadeTicks {
		m.Step()
	}
	if m.Busy() {
		t.Fatal("motion busy after the fade-in")
	}
	pending := s.Pending
	s.Pending = nil
	m.Retarget(ui.Arrange(s, 1))
	m.Step()
	if got := len(m.Leaving()); got != 1 {
		t.Fatalf("%d chips fading out, want 1", got)
	}
	s.Pending = pending
	m.Retarget(ui.Arrange(s, 1))
	if got := m.Leaving(); len(got) != 0 {
		t.Errorf("the returned chip is still listed as fading out: %+v", got)
	}
	for range ui.LeaveTicks + 4 {
		m.Step()
	}
	if _, ok := m.Rect("d/p"); !ok {
		t.Error("the returned chip was forgotten when its old fade ended")
	}
	if m.Busy() || len(m.Leaving()) != 0 {
		t.Errorf("motion busy %v with %d chips fading out after everything settled", m.Busy(), len(m.Leaving()))
	}
}

// HitTestMoving looks only at the moving chips and those of the lane or
// card under the point; at every tick of a glide, on a grid over the whole
// layout, it must find what the full HitTest finds at the drawn places.
func TestHitTestMovingMatchesHitTest(t *testing.T) {
	pod := func(name, node string) ui.Pod { return ui.Pod{Namespace: "d", Name: name, Node: node} }
	s := &ui.Scene{ZoneKey: "zone"}
	for n := range 6 {
		node := ui.Node{Name: fmt.Sprintf("n%d", n), Zone: fmt.Sprintf("z%d", n%2)}
		for p := range n + 2 {
			node.Pods = append(node.Pods, pod(fmt.Sprintf("p%d-%d", n, p), node.Name))
		}
		s.Nodes = append(s.Nodes, node)
	}
	for p := range 5 {
		s.Pending = append(s.Pending, pod(fmt.Sprintf("q%d", p), ""))
	}
	m := ui.NewMotion()
	before := ui.Arrange(s, 16.0/9)
	m.Retarget(before)
	for range ui.MoveTicks + ui.FadeTicks {
		m.Step()
	}
	// Two pending pods bound, one pod moved to another card, one deleted,
	// one new pending pod, a ghost: chips glide, fade in and fade out.
	next := *s
	next.Nodes = append([]ui.Node(nil), s.Nodes...)
	next.Nodes[0].Pods = append(append([]ui.Pod(nil), s.Nodes[0].Pods...), pod("q0", "n0"), pod("q1", "n0"))
	next.Nodes[5].Pods = append([]ui.Pod(nil), s.Nodes[5].Pods[1:]...)
	next.Nodes[3].Pods = append(append([]ui.Pod(nil), s.Nodes[3].Pods...), pod("p5-0", "n3"))
	next.Nodes[2].Ghosts = []ui.Pod{{Namespace: "d", Name: "q2", Ghost: true}}
	next.Pending = append(append([]ui.Pod(nil), s.Pending[2:]...), pod("q9", ""))
	after := ui.Arrange(&next, 16.0/9)
	m.Retarget(after)
	rects := func(i int) ui.Rect { r, _ := m.ChipAt(after, i); return r }
	b := after.Bounds
	moved, hits := false, 0
	for tick := 0; tick <= ui.MoveTicks+1; tick++ {
		mv, ok := m.Moving(after, nil)
		if !ok {
			t.Fatal("Moving refused the layout last given to Retarget")
		}
		if tick < ui.MoveTicks && len(mv) == 0 {
			t.Fatalf("tick %d: nothing listed as moving during the glide", tick)
		}
		moved = moved || len(mv) > 0
		for x := b.X - 10; x <= b.X+b.W+10; x += 3 {
			for y := b.Y - 10; y <= b.Y+b.H+10; y += 3 {
				want := after.HitTest(x, y, rects)
				if got := after.HitTestMoving(x, y, mv, rects); got != want {
					t.Fatalf("tick %d at (%v, %v): HitTestMoving = %+v, HitTest = %+v", tick, x, y, got, want)
				}
				if want.Kind == ui.HitPod {
					hits++
				}
			}
		}
		m.Step()
	}
	if !moved || hits == 0 {
		t.Errorf("moved %v, %d chip hits: the test checked nothing", moved, hits)
	}
	if _, ok := m.Moving(before, nil); ok {
		t.Error("Moving accepted a layout other than the last one given to Retarget")
	}
}

// Retarget finds each chip's tween by its index in the last layout,
// shifted, before hashing its key: over random playback (pods bound, moved,
// deleted, new, nominated), the tween found by index must be the one under
// the chip's key, and every chip that left must fade out.
func TestRetargetFindsTheTweenOfEachKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	s := &ui.Scene{}
	for n := range 8 {
		s.Nodes = append(s.Nodes, ui.Node{Name: fmt.Sprintf("n%d", n)})
	}
	next := 0
	m := ui.NewMotion()
	var last *ui.Layout
	for step := range 120 {
		ns := &ui.Scene{Nodes: make([]ui.Node, len(s.Nodes))}
		for i, n := range s.Nodes {
			ns.Nodes[i] = ui.Node{Name: n.Name, Pods: append([]ui.Pod(nil), n.Pods...)}
		}
		ns.Pending = append([]ui.Pod(nil), s.Pending...)
		for range 1 + rng.IntN(4) {
			switch k := rng.IntN(5); {
			case k == 0 || len(ns.Pending) == 0: // a new pending pod
				ns.Pending = append(ns.Pending, ui.Pod{Namespace: "d", Name: fmt.Sprintf("p%d", next)})
				next++
			case k == 1: // bound
				i := rng.IntN(len(ns.Pending))
				p := ns.Pending[i]
				ns.Pending = append(ns.Pending[:i:i], ns.Pending[i+1:]...)
				n := &ns.Nodes[rng.IntN(len(ns.Nodes))]
				p.Node = n.Name
				n.Pods = append(n.Pods, p)
			case k == 2: // deleted from a node
				n := &ns.Nodes[rng.IntN(len(ns.Nodes))]
				if len(n.Pods) > 0 {
					i := rng.IntN(len(n.Pods))
					n.Pods = append(n.Pods[:i:i], n.Pods[i+1:]...)
				}
			case k == 3: // a ghost comes or goes
				n := &ns.Nodes[rng.IntN(len(ns.Nodes))]
				if len(n.Ghosts) > 0 {
					n.Ghosts = nil
				} else {
					g := ns.Pending[rng.IntN(len(ns.Pending))]
					g.Ghost = true
					for i := range ns.Nodes { // a pod is nominated to one node
						if len(ns.Nodes[i].Ghosts) > 0 && ns.Nodes[i].Ghosts[0].Name == g.Name {
							ns.Nodes[i].Ghosts = nil
						}
					}
					n.Ghosts = []ui.Pod{g}
				}
			default: // moved to another node's card
				from, to := &ns.Nodes[rng.IntN(len(ns.Nodes))], &ns.Nodes[rng.IntN(len(ns.Nodes))]
				if len(from.Pods) > 0 && from != to {
					p := from.Pods[0]
					from.Pods = from.Pods[1:]
					p.Node = to.Name
					to.Pods = append(to.Pods, p)
				}
			}
		}
		l := ui.Arrange(ns, 16.0/9)
		m.Retarget(l)
		for i, c := range l.Chips {
			r, ok := m.Rect(c.Key)
			gr, ga := m.ChipAt(l, i)
			if !ok || gr != r || ga != m.Alpha(c.Key) {
				t.Fatalf("step %d: chip %d (%s): by index %v %v, by key %v %v (%v)", step, i, c.Key, gr, ga, r, m.Alpha(c.Key), ok)
			}
			if j, ok := m.Index(l, c.Key); !ok || j != i {
				t.Fatalf("step %d: Index(%s) = %d, %v; want %d", step, c.Key, j, ok, i)
			}
		}
		if last != nil {
			if _, ok := m.Index(last, l.Chips[0].Key); ok {
				t.Fatalf("step %d: Index answered for a layout other than the last one", step)
			}
		}
		if last != nil {
			now := map[string]bool{}
			for _, c := range l.Chips {
				now[c.Key] = true
			}
			leaving := map[string]bool{}
			for _, lv := range m.Leaving() {
				leaving[lv.Key] = true
			}
			for _, c := range last.Chips {
				if !now[c.Key] && !leaving[c.Key] {
					t.Fatalf("step %d: chip %s left without fading out", step, c.Key)
				}
				if _, ok := m.Index(l, c.Key); !now[c.Key] && ok {
					t.Fatalf("step %d: Index found %s, which left", step, c.Key)
				}
			}
		}
		for range rng.IntN(ui.MoveTicks) {
			m.Step()
		}
		s, last = ns, l
	}
}

func TestInstantMotionCuts(t *testing.T) {
	s := &ui.Scene{Nodes: []ui.Node{{Name: "n1"}}, Pending: []ui.Pod{{Namespace: "d", Name: "p"}, {Namespace: "d", Name: "gone"}}}
	m := ui.NewMotion()
	m.Instant = true
	m.Retarget(ui.Arrange(s, 1))
	m.Step()
	if a := m.Alpha("d/p"); a != 1 || m.Busy() {
		t.Fatalf("after one tick a new chip has alpha %v (busy %v), want 1 and still", a, m.Busy())
	}
	// Bind one pod, delete the other: one tick puts it in place, nothing fades.
	s.Nodes[0].Pods, s.Pending = []ui.Pod{{Namespace: "d", Name: "p", Node: "n1"}}, nil
	after := ui.Arrange(s, 1)
	m.Retarget(after)
	m.Step()
	if r, _ := m.Rect("d/p"); r != after.Chips[0].Rect || m.Busy() || len(m.Leaving()) != 0 {
		t.Errorf("after one tick: chip at %+v (want %+v), busy %v, %d leaving: want a cut", r, after.Chips[0].Rect, m.Busy(), len(m.Leaving()))
	}
}
