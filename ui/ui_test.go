package ui_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedplay/schedplay/ui"
)

func scene() *ui.Scene {
	return &ui.Scene{
		ZoneKey: "topology.kubernetes.io/zone",
		Nodes: []ui.Node{
			{Name: "b1", Zone: "zone-b", Pods: []ui.Pod{{Namespace: "default", Name: "web-1", Node: "b1"}}},
			{Name: "loose"},
			{Name: "a1", Zone: "zone-a"},
			{Name: "a2", Zone: "zone-a", Pods: []ui.Pod{
				{Namespace: "default", Name: "db-0", Node: "a2", Requests: ui.Resources{MilliCPU: 500, Memory: 1 << 30}},
				{Namespace: "default", Name: "db-1", Node: "a2", Requests: ui.Resources{MilliCPU: 250}},
				{Namespace: "default", Name: "db-2", Node: "a2"},
			}},
		},
		Pending: []ui.Pod{{Namespace: "default", Name: "new"}},
	}
}

func TestZones(t *testing.T) {
	s := scene()
	var got [][]string
	for _, z := range s.Zones() {
		names := []string{z.Name}
		for _, n := range z.Nodes {
			names = append(names, n.Name)
		}
		got = append(got, names)
	}
	// Zones sorted by name, nodes in scene order, unlabelled nodes last.
	want := [][]string{{"zone-a", "a1", "a2"}, {"zone-b", "b1"}, {"", "loose"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Zones() (-want +got):\n%s", diff)
	}
}

func TestRequested(t *testing.T) {
	s := scene()
	n, ok := s.FindNode("a2")
	if !ok {
		t.Fatal("node a2 not found")
	}
	want := ui.Resources{MilliCPU: 750, Memory: 1 << 30, Pods: 3}
	if diff := cmp.Diff(want, n.Requested()); diff != "" {
		t.Errorf("Requested() (-want +got):\n%s", diff)
	}
}

func TestArrange(t *testing.T) {
	s := scene()
	l := ui.Arrange(s, 16.0/9)
	if len(l.Zones) != 3 || len(l.Nodes) != 4 || len(l.Chips) != 5 {
		t.Fatalf("Arrange: %d zones, %d nodes, %d chips; want 3, 4, 5", len(l.Zones), len(l.Nodes), len(l.Chips))
	}
	for _, z := range l.Zones {
		if z.Rect.Y < l.Queue.Y+l.Queue.H {
			t.Errorf("zone %q at y=%v overlaps the queue lane ending at %v", z.Name, z.Rect.Y, l.Queue.Y+l.Queue.H)
		}
	}
	// Every card lies inside its zone and every chip inside its card or the lane.
	zoneOf := map[string]ui.Rect{}
	for i, z := range s.Zones() {
		for _, n := range z.Nodes {
			zoneOf[n.Name] = l.Zones[i].Rect
		}
	}
	inside := func(in, out ui.Rect) bool {
		return in.X >= out.X && in.Y >= out.Y && in.X+in.W <= out.X+out.W && in.Y+in.H <= out.Y+out.H
	}
	cards := map[string]ui.Rect{}
	for _, nb := range l.Nodes {
		cards[nb.Node.Name] = nb.Rect
		if !inside(nb.Rect, zoneOf[nb.Node.Name]) {
			t.Errorf("card %s %+v is outside its zone %+v", nb.Node.Name, nb.Rect, zoneOf[nb.Node.Name])
		}
		for i := 0; i < 3; i++ {
			if !inside(nb.BarRect(i), nb.Rect) {
				t.Errorf("bar %d of %s is outside the card", i, nb.Node.Name)
			}
		}
	}
	for _, c := range l.Chips {
		parent := cards[c.Pod.Node]
		if c.Pending {
			parent = l.Queue
		}
		if !inside(c.Rect, parent) {
			t.Errorf("chip %s %+v is outside %+v", c.Pod.Key(), c.Rect, parent)
		}
		if !inside(c.Rect, l.Bounds) {
			t.Errorf("chip %s is outside the bounds", c.Pod.Key())
		}
	}
	// Chips do not overlap.
	for i := range l.Chips {
		for j := i + 1; j < len(l.Chips); j++ {
			a, b := l.Chips[i].Rect, l.Chips[j].Rect
			if a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H {
				t.Errorf("chips %s and %s overlap", l.Chips[i].Pod.Key(), l.Chips[j].Pod.Key())
			}
		}
	}
}

func TestArrangeWrapsManyZones(t *testing.T) {
	s := &ui.Scene{}
	for _, z := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i"} {
		s.Nodes = append(s.Nodes, ui.Node{Name: z + "1", Zone: z})
	}
	l := ui.Arrange(s, 1)
	rows := map[float64]bool{}
	for _, z := range l.Zones {
		rows[z.Rect.Y] = true
	}
	// Nine one-node zones on a square screen wrap into three rows.
	if len(rows) != 3 {
		t.Errorf("nine zones on a square screen use %d rows, want 3", len(rows))
	}
}

func TestHitTest(t *testing.T) {
	s := scene()
	l := ui.Arrange(s, 16.0/9)
	var db1, queueChip ui.ChipBox
	for _, c := range l.Chips {
		switch c.Pod.Name {
		case "db-1":
			db1 = c
		case "new":
			queueChip = c
		}
	}
	var a1 ui.NodeBox
	for _, n := range l.Nodes {
		if n.Node.Name == "a1" {
			a1 = n
		}
	}
	moved := ui.Rect{X: -1000, Y: -1000, W: 10, H: 10}
	movedDB1 := func(i int) ui.Rect {
		if l.Chips[i].Key == "default/db-1" {
			return moved
		}
		return l.Chips[i].Rect
	}
	tests := []struct {
		name  string
		x, y  float64
		rects func(int) ui.Rect
		want  ui.Hit
	}{
		{name: "chip on a card", x: db1.Rect.X + 1, y: db1.Rect.Y + 1, want: ui.Hit{Kind: ui.HitPod, Key: "default/db-1"}},
		{name: "chip in the queue", x: queueChip.Rect.X + 2, y: queueChip.Rect.Y + 2, want: ui.Hit{Kind: ui.HitPod, Key: "default/new"}},
		{name: "card without chips", x: a1.Rect.X + 5, y: a1.Rect.Y + 5, want: ui.Hit{Kind: ui.HitNode, Key: "a1"}},
		{name: "empty space", x: -50, y: -50, want: ui.Hit{}},
		{
			name: "animated chip is hit where it is drawn", x: -995, y: -995,
			rects: movedDB1,
			want:  ui.Hit{Kind: ui.HitPod, Key: "default/db-1"},
		},
		{
			name: "card under a chip that moved away", x: db1.Rect.X + 1, y: db1.Rect.Y + 1,
			rects: movedDB1,
			want:  ui.Hit{Kind: ui.HitNode, Key: "a2"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := l.HitTest(tt.x, tt.y, tt.rects)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("HitTest(%v, %v) (-want +got):\n%s", tt.x, tt.y, diff)
			}
		})
	}
}

func TestPodTooltip(t *testing.T) {
	base := ui.Pod{Namespace: "default", Name: "p", Priority: 100, PriorityClass: "low", Requests: ui.Resources{MilliCPU: 1500, Memory: 1 << 30}}
	head := []string{"default/p", "priority 100 (low)", "requests cpu 1500m, memory 1Gi"}
	with := func(f func(p *ui.Pod)) *ui.Pod {
		p := base
		f(&p)
		return &p
	}
	tests := []struct {
		name string
		pod  *ui.Pod
		now  float64
		want []string
	}{
		{"activeQ", with(func(p *ui.Pod) { p.Queue = ui.QueueActive }), 0, []string{"pending in activeQ"}},
		{"backoff left", with(func(p *ui.Pod) { p.Queue, p.BackoffUntil = ui.QueueBackoff, 12.5 }), 10, []string{"pending in backoffQ: 2.5s of backoff left"}},
		{"unschedulable with reason", with(func(p *ui.Pod) {
			p.Queue, p.Reason, p.NominatedNode = ui.QueueUnschedulable, "0/3 nodes are available: 3 Insufficient cpu.", "node-b"
		}), 0, []string{"pending in unschedulable", "nominated to node-b", "0/3 nodes are available: 3 Insufficient cpu."}},
		{"victim in preStop", with(func(p *ui.Pod) {
			p.Node = "node-b"
			p.Termination = &ui.Termination{Started: 0, Stage: "preStop", Next: "SIGTERM", StageEnds: 10, Ends: 30}
		}), 4, []string{"on node-b", "terminating: preStop · SIGTERM in 6s", "gone in 26s"}},
		{"evicted, last stage", with(func(p *ui.Pod) {
			p.Node = "node-a"
			p.Termination = &ui.Termination{Started: 0, Stage: "SIGTERM", Next: "gone", StageEnds: 30, Ends: 30, Eviction: true}
		}), 20, []string{"on node-a", "evicted: SIGTERM · gone in 10s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := append(append([]string{}, head...), tt.want...)
			if diff := cmp.Diff(want, ui.PodTooltip(tt.pod, tt.now, nil)); diff != "" {
				t.Errorf("tooltip (-want +got):\n%s", diff)
			}
		})
	}
}

func TestClearedNomination(t *testing.T) {
	tests := []struct {
		name      string
		e         *ui.SceneEvent
		node, lbl string
		ok        bool
	}{
		{"cleared", &ui.SceneEvent{Kind: "NominationCleared", Pod: "default/mid", Node: "node-b"}, "node-b", "× mid: nomination cleared", true},
		{"other event", &ui.SceneEvent{Kind: "Nominated", Pod: "default/mid", Node: "node-b"}, "", "", false},
		{"no event", nil, "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			node, lbl, ok := ui.ClearedNomination(tt.e, nil)
			if diff := cmp.Diff([]any{tt.node, tt.lbl, tt.ok}, []any{node, lbl, ok}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestSameCard(t *testing.T) {
	base := func() ui.Node {
		return ui.Node{Name: "n1", Allocatable: ui.Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 10},
			Taints: []ui.Taint{{Key: "k", Effect: "NoSchedule"}},
			Pods:   []ui.Pod{{Namespace: "d", Name: "a", PriorityClass: "high", Requests: ui.Resources{MilliCPU: 100}}}}
	}
	tests := []struct {
		name   string
		change func(n *ui.Node)
		want   bool
	}{
		{name: "a copy", change: func(*ui.Node) {}, want: true},
		{name: "labels are not on the card", change: func(n *ui.Node) { n.Labels = map[string]string{"x": "y"} }, want: true},
		{name: "another pod", change: func(n *ui.Node) { n.Pods = append(n.Pods, ui.Pod{Namespace: "d", Name: "b"}) }},
		{name: "the pod's class (its colour)", change: func(n *ui.Node) { n.Pods[0].PriorityClass = "low" }},
		{name: "the pod terminating", change: func(n *ui.Node) { n.Pods[0].Termination = &ui.Termination{} }},
		{name: "a ghost", change: func(n *ui.Node) { n.Ghosts = []ui.Pod{{Namespace: "d", Name: "g", Ghost: true}} }},
		{name: "the engine's requested total", change: func(n *ui.Node) { n.Used = &ui.Resources{MilliCPU: 900} }},
		{name: "cordoned", change: func(n *ui.Node) { n.Unschedulable = true }},
		{name: "a taint's effect", change: func(n *ui.Node) { n.Taints = []ui.Taint{{Key: "k", Effect: "NoExecute"}} }},
		{name: "equal names in other bytes", change: func(n *ui.Node) {
			p := &n.Pods[0]
			p.Namespace, p.Name, p.PriorityClass = strings.Clone(p.Namespace), strings.Clone(p.Name), strings.Clone(p.PriorityClass)
		}, want: true},
		{name: "another name of the same length", change: func(n *ui.Node) { n.Pods[0].Name = "z" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := base(), base()
			tt.change(&b)
			if got := ui.SameCard(&a, &b); got != tt.want {
				t.Errorf("SameCard = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSameGeometry(t *testing.T) {
	s := scene()
	a := ui.Arrange(s, 16.0/9)
	if !ui.SameGeometry(a, ui.Arrange(s, 16.0/9)) {
		t.Errorf("the same scene laid out twice differs")
	}
	if ui.SameGeometry(a, ui.Arrange(s, 0.5)) {
		t.Errorf("another aspect keeps the geometry")
	}
	// Two more pods on b1 (one now) add a chip row: the card grows.
	grown := scene()
	grown.Nodes[0].Pods = append(grown.Nodes[0].Pods, ui.Pod{Namespace: "d", Name: "x"}, ui.Pod{Namespace: "d", Name: "y"})
	// One more on b1 fills its row: same places.
	same := scene()
	same.Nodes[0].Pods = append(same.Nodes[0].Pods, ui.Pod{Namespace: "d", Name: "x"})
	if !ui.SameGeometry(a, ui.Arrange(same, 16.0/9)) {
		t.Errorf("a chip in a card's free slot changes the geometry")
	}
	if ui.SameGeometry(a, ui.Arrange(grown, 16.0/9)) {
		t.Errorf("a card that grew keeps the geometry")
	}
	if ui.SameGeometry(a, nil) {
		t.Errorf("no layout has the same geometry")
	}
	// With room made for ten pending pods, the lane keeps its size whether
	// one pod waits in activeQ or two, one of them in backoffQ (another
	// section inside the lane).
	one, two := scene(), scene()
	one.Room, two.Room = &ui.Room{Pending: 10}, &ui.Room{Pending: 10}
	two.Pending = append(two.Pending, ui.Pod{Namespace: "default", Name: "later", Queue: ui.QueueBackoff})
	if !ui.SameGeometry(ui.Arrange(one, 16.0/9), ui.Arrange(two, 16.0/9)) {
		t.Errorf("a pod more in the lane's room changes the geometry")
	}
	// Room for more chips on a card: the card stays as tall as the most.
	roomy := scene()
	roomy.Room = &ui.Room{Cards: map[string]int{"b1": 3}}
	if !ui.SameGeometry(ui.Arrange(roomy, 16.0/9), ui.Arrange(func() *ui.Scene { g := scene(); g.Nodes[0].Pods = grown.Nodes[0].Pods; g.Room = roomy.Room; return g }(), 16.0/9)) {
		t.Errorf("a card with room for three chips grew when its third came")
	}
}

// Each card's chip range holds exactly its pods and ghosts, inside the
// card; the lane's chips come first: the world picture's card-by-card
// redraw only looks at the chips of the cards it redraws.
func TestArrangeChipRangesByCard(t *testing.T) {
	s := scene()
	s.Nodes[0].Ghosts = append(s.Nodes[0].Ghosts, ui.Pod{Namespace: "default", Name: "new", Ghost: true})
	l := ui.Arrange(s, 16.0/9)
	owner := make([]string, len(l.Chips))
	for i := 0; i < l.QueueChips; i++ {
		if !l.Chips[i].Pending || !l.Queue.Contains(l.Chips[i].Rect.X, l.Chips[i].Rect.Y) {
			t.Errorf("chip %d (%s) counted in the lane is not a pending chip in it", i, l.Chips[i].Key)
		}
		owner[i] = "queue"
	}
	next := l.QueueChips
	for _, nb := range l.Nodes {
		if nb.FirstChip != next {
			t.Errorf("card %s starts at chip %d, want %d", nb.Node.Name, nb.FirstChip, next)
		}
		if got, want := nb.EndChip-nb.FirstChip, len(nb.Node.Pods)+len(nb.Node.Ghosts); got != want {
			t.Errorf("card %s has %d chips in its range, want %d", nb.Node.Name, got, want)
		}
		for i := nb.FirstChip; i < nb.EndChip; i++ {
			c := l.Chips[i].Rect
			if !nb.Rect.Contains(c.X, c.Y) || !nb.Rect.Contains(c.X+c.W, c.Y+c.H) {
				t.Errorf("chip %s at %+v is outside its card %s at %+v", l.Chips[i].Key, c, nb.Node.Name, nb.Rect)
			}
			owner[i] = nb.Node.Name
		}
		next = nb.EndChip
	}
	for i, o := range owner {
		if o == "" {
			t.Errorf("chip %d (%s) belongs to no range", i, l.Chips[i].Key)
		}
	}
	if next != len(l.Chips) {
		t.Errorf("ranges end at chip %d of %d", next, len(l.Chips))
	}
	// Keys are cut out of one string per layout: each must still be its own.
	ghosts := 0
	for i, c := range l.Chips {
		want := c.Pod.Key()
		if i >= l.QueueChips && c.Pod.Ghost {
			want = "ghost:" + want
			ghosts++
		}
		if c.Key != want {
			t.Errorf("chip %d has key %q, want %q", i, c.Key, want)
		}
	}
	if ghosts != 1 {
		t.Errorf("%d ghost chips, want 1", ghosts)
	}
}

func TestPodHasKey(t *testing.T) {
	p := ui.Pod{Namespace: "team-a", Name: "web-1"}
	for _, tt := range []struct {
		key  string
		want bool
	}{
		{"team-a/web-1", true},
		{"team-a/web-10", false},
		{"team-a/web-", false},
		{"team-b/web-1", false},
		{"team-aweb-1", false},
		{"team-a-web-1", false},
		{"team/a/web-1", false},
		{"", false},
	} {
		if got := p.HasKey(tt.key); got != tt.want || got != (p.Key() == tt.key) {
			t.Errorf("HasKey(%q) = %v, want %v (Key() is %q)", tt.key, got, tt.want, p.Key())
		}
	}
}

// Laid out in slices, a scene gets the layout Arrange gives it; told to
// stop, ArrangeYield gives none.
func TestArrangeYield(t *testing.T) {
	s := &ui.Scene{ZoneKey: "zone"}
	for n := range 150 {
		node := ui.Node{Name: fmt.Sprintf("n%03d", n), Zone: fmt.Sprintf("z%d", n%3)}
		for p := range 20 {
			node.Pods = append(node.Pods, ui.Pod{Namespace: "d", Name: fmt.Sprintf("p%d-%d", n, p), Node: node.Name})
		}
		s.Nodes = append(s.Nodes, node)
	}
	s.Pending = []ui.Pod{{Namespace: "d", Name: "q"}}
	s.Nodes[7].Ghosts = []ui.Pod{{Namespace: "d", Name: "q", Ghost: true}}
	yields := 0
	got := ui.ArrangeYield(s, 16.0/9, func() bool { yields++; return true })
	if yields < 3 {
		t.Errorf("%d yields over 150 cards and 3,000 chips", yields)
	}
	if diff := cmp.Diff(ui.Arrange(s, 16.0/9), got); diff != "" {
		t.Errorf("ArrangeYield (-Arrange +got):\n%s", diff)
	}
	for stopAt := 1; stopAt <= yields; stopAt++ {
		n := 0
		if l := ui.ArrangeYield(s, 16.0/9, func() bool { n++; return n < stopAt }); l != nil {
			t.Errorf("stopped at yield %d, still laid out", stopAt)
		}
	}
}

func TestOneZoneFillsTheBand(t *testing.T) {
	three := func(pending int, room *ui.Room) *ui.Scene {
		s := &ui.Scene{Room: room}
		for _, n := range []string{"n1", "n2", "n3"} {
			s.Nodes = append(s.Nodes, ui.Node{Name: n})
		}
		for i := range pending {
			s.Pending = append(s.Pending, ui.Pod{Namespace: "default", Name: fmt.Sprintf("p%d", i)})
		}
		return s
	}
	places := func(l *ui.Layout) (xs, ys map[float64]bool, at map[string]ui.Rect) {
		xs, ys, at = map[float64]bool{}, map[float64]bool{}, map[string]ui.Rect{}
		for _, nb := range l.Nodes {
			xs[nb.Rect.X], ys[nb.Rect.Y] = true, true
			at[nb.Node.Name] = nb.Rect
		}
		return xs, ys, at
	}
	// A wide, short band (a 400×300 embed between its caption and legend)
	// shows three nodes side by side; a tall one (a phone) one above another.
	if _, ys, _ := places(ui.Arrange(three(1, nil), 3.5)); len(ys) != 1 {
		t.Errorf("three nodes in a wide band take %d rows, want 1", len(ys))
	}
	if xs, _, _ := places(ui.Arrange(three(1, nil), 0.4)); len(xs) != 1 {
		t.Errorf("three nodes in a tall band take %d columns, want 1", len(xs))
	}
	// The scenes of one run share their Room: the columns chosen for the
	// lane at its fullest hold when the lane empties, so no card moves.
	room := &ui.Room{Pending: 40}
	_, _, full := places(ui.Arrange(three(40, room), 1.2))
	_, _, empty := places(ui.Arrange(three(0, room), 1.2))
	if diff := cmp.Diff(full, empty); diff != "" {
		t.Errorf("cards moved as the lane emptied (-full +empty):\n%s", diff)
	}
}
