package ui

import (
	"math"
	"slices"
	"strings"
	"unsafe"
)

// Rect is an axis-aligned rectangle in world units (CSS pixels at zoom 1).
type Rect struct {
	X, Y, W, H float64
}

// Contains reports whether (x, y) lies inside r.
func (r Rect) Contains(x, y float64) bool {
	return x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H
}

// Union returns the smallest rectangle holding r and o; an empty r is ignored.
func (r Rect) Union(o Rect) Rect {
	if r.W == 0 && r.H == 0 {
		return o
	}
	x0, y0 := math.Min(r.X, o.X), math.Min(r.Y, o.Y)
	x1, y1 := math.Max(r.X+r.W, o.X+o.W), math.Max(r.Y+r.H, o.Y+o.H)
	return Rect{X: x0, Y: y0, W: x1 - x0, H: y1 - y0}
}

// Geometry of the canvas in world units. Cards have a fixed width so that
// text sizes stay the same across scenarios; the camera scales the whole.
const (
	CardW       = 248.0
	CardPad     = 12.0
	CardHeaderH = 24.0
	CardTaintH  = 20.0
	BarRowH     = 20.0
	BarLabelW   = 52.0
	BarValueW   = 92.0
	ChipH       = 24.0
	ChipGap     = 6.0
	ZoneTitleH  = 34.0
	ZonePad     = 14.0
	ZoneGap     = 24.0
	CardGap     = 14.0
	QueueTitleH = 30.0
	QueueChipW  = 170.0
	// QueueLabelW is the column of sub-queue names at the left of the lane.
	QueueLabelW = 124.0
	// ReasonH is the extra height of an unschedulable chip's reason line.
	ReasonH = 16.0
	// LegendH is the height of the legend strip at the bottom of the screen,
	// in CSS pixels.
	LegendH  = 30.0
	barRows  = 3
	chipCols = 2
)

// ChipW is the width of a chip on a node card (two columns per card).
const ChipW = (CardW - 2*CardPad - ChipGap*(chipCols-1)) / chipCols

// ZoneBox is a zone's region.
type ZoneBox struct {
	Name string
	Rect Rect
}

// NodeBox is a node card.
type NodeBox struct {
	Node *Node
	Rect Rect
	// FirstChip and EndChip bound the card's chips in Layout.Chips.
	FirstChip, EndChip int
}

// BarRect returns the rectangle of resource bar i (0 cpu, 1 memory, 2 pods),
// without its label and value text.
func (b NodeBox) BarRect(i int) Rect {
	return Rect{
		X: b.Rect.X + CardPad + BarLabelW,
		Y: b.barsTop() + float64(i)*BarRowH + 5,
		W: CardW - 2*CardPad - BarLabelW - BarValueW,
		H: BarRowH - 10,
	}
}

// TaintLine reports whether the card has a line for taints and the cordon mark.
func (b NodeBox) TaintLine() bool { return hasTaintLine(b.Node) }

func hasTaintLine(n *Node) bool { return len(n.Taints) > 0 || n.Unschedulable }

func (b NodeBox) barsTop() float64 {
	y := b.Rect.Y + CardPad + CardHeaderH
	if b.TaintLine() {
		y += CardTaintH
	}
	return y
}

// ChipBox is a pod chip, on a node card or in the queue lane.
type ChipBox struct {
	Pod     *Pod
	Rect    Rect
	Pending bool
	// Key identifies the chip for animation: the pod's key, or for a
	// nominated pod's ghost on a card "ghost:" and the key.
	Key string
}

// QueueSection is one sub-queue's row group in the lane.
type QueueSection struct {
	// Queue is the sub-queue (QueueActive etc.).
	Queue string
	Count int
	Rect  Rect
}

// Layout is where everything of a scene goes, in world units.
type Layout struct {
	Queue    Rect
	Sections []QueueSection
	Zones    []ZoneBox
	Nodes    []NodeBox
	Chips    []ChipBox
	// QueueChips is how many chips, first in Chips, sit in the queue lane.
	QueueChips int
	Bounds     Rect
}

// queueOrder is the order of the lane's sections: what pops first on top.
var queueOrder = []string{QueueActive, QueueBackoff, QueueUnschedulable, QueueGated}

func queueRank(q string) int {
	for i, o := range queueOrder {
		if o == q {
			return i
		}
	}
	return 0 // not yet queued (the t=0 view): shown as activeQ
}

// cardHeight is the height of a node card with room for chips chips.
func cardHeight(node *Node, chips int) float64 {
	h := CardPad + CardHeaderH + barRows*BarRowH + 8 + CardPad
	if hasTaintLine(node) {
		h += CardTaintH
	}
	rows := (chips + chipCols - 1) / chipCols
	if rows > 0 {
		h += float64(rows)*(ChipH+ChipGap) - ChipGap
	}
	return h
}

// zoneCols is the number of card columns in a zone of n nodes: roughly
// square regions, so that large zones do not become one long strip.
func zoneCols(n int) int {
	c := int(math.Round(math.Sqrt(float64(n))))
	if c < 1 {
		c = 1
	}
	return c
}

// oneZoneCols is the number of card columns that shows a scene of one zone
// largest in a band of the given aspect: three nodes side by side in a
// wide embed rather than two rows of a square grid, one column on a phone.
// Several zones keep roughly square zones (zoneCols) and flow them to the
// aspect instead. The lane above the cards counts as tall as the run's
// most pending pods make it (Room), as arrangeQueue sizes it, so that the
// choice holds for every scene of a run and the cards do not move.
func oneZoneCols(s *Scene, nodes []*Node, aspect float64) int {
	n := len(nodes)
	if n <= 1 {
		return 1
	}
	hs := make([]float64, n)
	for i, node := range nodes {
		hs[i] = cardHeight(node, s.Room.card(node))
	}
	pending := len(s.Pending)
	if s.Room != nil {
		pending = max(pending, s.Room.Pending)
	}
	best, bestZoom := 1, 0.0
	for c := 1; c <= n; c++ {
		w := 2*ZonePad + float64(c)*CardW + float64(c-1)*CardGap
		queueW := math.Max(w, QueueLabelW+2*QueueChipW+3*ChipGap)
		fw := math.Max(w, queueW)
		if aspect/fw <= bestZoom {
			break // wider from here on: no more columns can show it larger
		}
		rows := (n + c - 1) / c
		perRow := max(int((queueW-QueueLabelW-ChipGap)/(QueueChipW+ChipGap)), 1)
		laneRows := max((pending+perRow-1)/perRow, 1)
		fh := QueueTitleH + float64(laneRows)*(ChipH+ChipGap) + 2*ChipGap + ZoneGap
		fh += ZoneTitleH + 2*ZonePad - CardGap
		for r := 0; r < rows; r++ {
			fh += slices.Max(hs[r*c:min((r+1)*c, n)]) + CardGap
		}
		if zoom := math.Min(aspect/fw, 1/fh); zoom > bestZoom*1.0001 {
			best, bestZoom = c, zoom
		}
	}
	return best
}

// Arrange lays the scene out. aspect is the width/height ratio of the screen;
// zones flow left to right and wrap so that the whole is about that shape.
func Arrange(s *Scene, aspect float64) *Layout { return ArrangeYield(s, aspect, nil) }

// ArrangeYield is Arrange calling yield (when not nil) every few dozen
// cards and thousand chips, for laying out a large scene in slices between
// frames; it gives up (nil) when yield returns false.
func ArrangeYield(s *Scene, aspect float64, yield func() bool) *Layout {
	if aspect <= 0 {
		aspect = 16.0 / 9
	}
	// One chip per pending pod, bound pod and ghost: sized once, as growing
	// it chip by chip was most of a layout's garbage at 5,000 pods.
	chips := len(s.Pending)
	for i := range s.Nodes {
		chips += len(s.Nodes[i].Pods) + len(s.Nodes[i].Ghosts)
	}
	l := &Layout{Chips: make([]ChipBox, 0, chips)}
	type zoneShape struct {
		zone  Zone
		cols  int
		rowsH []float64
		w, h  float64
	}
	var shapes []zoneShape
	widest := 0.0
	zones := s.Zones()
	for _, z := range zones {
		sh := zoneShape{zone: z, cols: zoneCols(len(z.Nodes))}
		if len(zones) == 1 {
			sh.cols = oneZoneCols(s, z.Nodes, aspect)
		}
		for i, n := range z.Nodes {
			r := i / sh.cols
			if r == len(sh.rowsH) {
				sh.rowsH = append(sh.rowsH, 0)
			}
			sh.rowsH[r] = math.Max(sh.rowsH[r], cardHeight(n, s.Room.card(n)))
		}
		sh.w = 2*ZonePad + float64(sh.cols)*CardW + float64(sh.cols-1)*CardGap
		sh.h = ZoneTitleH + ZonePad
		for _, rh := range sh.rowsH {
			sh.h += rh + CardGap
		}
		sh.h += ZonePad - CardGap
		widest = math.Max(widest, sh.w)
		shapes = append(shapes, sh)
	}
	// Pick the row width, among the widths of the first k zones, that lets
	// the whole be shown largest on a screen of the given aspect.
	widths := make([]float64, len(shapes))
	heights := make([]float64, len(shapes))
	for i, sh := range shapes {
		widths[i], heights[i] = sh.w, sh.h
	}
	rowW, best, prefix := widest, 0.0, -ZoneGap
	for _, w := range widths {
		prefix += w + ZoneGap
		cand := math.Max(widest, prefix)
		fw, fh := flowSize(widths, heights, cand)
		if zoom := math.Min(aspect/fw, 1/fh); zoom > best*1.0001 {
			rowW, best = cand, zoom
		}
	}

	l.arrangeQueue(s, rowW)
	l.QueueChips = len(l.Chips)
	l.Bounds = l.Queue

	x, y, lineH := 0.0, l.Queue.H+ZoneGap, 0.0
	for _, sh := range shapes {
		if x > 0 && x+sh.w > rowW {
			x, y, lineH = 0, y+lineH+ZoneGap, 0
		}
		zr := Rect{X: x, Y: y, W: sh.w, H: sh.h}
		l.Zones = append(l.Zones, ZoneBox{Name: sh.zone.Name, Rect: zr})
		cy := y + ZoneTitleH
		for r, rh := range sh.rowsH {
			for c := 0; c < sh.cols; c++ {
				i := r*sh.cols + c
				if i >= len(sh.zone.Nodes) {
					break
				}
				n := sh.zone.Nodes[i]
				nb := NodeBox{Node: n, Rect: Rect{X: x + ZonePad + float64(c)*(CardW+CardGap), Y: cy, W: CardW, H: rh}, FirstChip: len(l.Chips)}
				l.addNodeChips(nb)
				nb.EndChip = len(l.Chips)
				l.Nodes = append(l.Nodes, nb)
				if yield != nil && len(l.Nodes)%yieldCards == 0 && !yield() {
					return nil
				}
			}
			cy += rh + CardGap
		}
		l.Bounds = l.Bounds.Union(zr)
		x += sh.w + ZoneGap
		lineH = math.Max(lineH, sh.h)
	}
	if !l.setKeys(yield) {
		return nil
	}
	return l
}

// ghostPrefix starts the key of a nominated pod's ghost on a card.
const ghostPrefix = "ghost:"

// setKeys names every chip: its pod's key, "ghost:" before it for a ghost
// (marked by addNodeChips with the bare prefix).
// The keys are cut out of one string, one allocation per layout instead of
// one per chip (a layout is made per event; Motion copies the keys it keeps).
func (l *Layout) setKeys(yield func() bool) bool {
	paused := func(i int) bool { return yield != nil && i%yieldChips == yieldChips-1 && !yield() }
	n := 0
	for _, c := range l.Chips {
		if c.Key == ghostPrefix {
			n += len(ghostPrefix)
		}
		n += len(c.Pod.Namespace) + 1 + len(c.Pod.Name)
	}
	var b strings.Builder
	b.Grow(n)
	for i, c := range l.Chips {
		if paused(i) {
			return false
		}
		if c.Key == ghostPrefix {
			b.WriteString(ghostPrefix)
		}
		b.WriteString(c.Pod.Namespace)
		b.WriteByte('/')
		b.WriteString(c.Pod.Name)
	}
	all, at := b.String(), 0
	for i := range l.Chips {
		c := &l.Chips[i]
		end := at + len(c.Pod.Namespace) + 1 + len(c.Pod.Name)
		if c.Key == ghostPrefix {
			end += len(ghostPrefix)
		}
		c.Key, at = all[at:end], end
	}
	return true
}

// How many cards and chips ArrangeYield lays out between yields: well under
// a millisecond in the browser.
const (
	yieldCards = 64
	yieldChips = 2048
)

// arrangeQueue lays the lane out on top, as wide as the zone rows: one
// section per non-empty sub-queue in pop order (activeQ, backoffQ,
// unschedulable, gated), its name in a left column, its chips in rows.
func (l *Layout) arrangeQueue(s *Scene, rowW float64) {
	queueW := math.Max(rowW, QueueLabelW+2*QueueChipW+3*ChipGap)
	perRow := max(int((queueW-QueueLabelW-ChipGap)/(QueueChipW+ChipGap)), 1)
	groups := make([][]int, len(queueOrder))
	for i := range s.Pending {
		r := queueRank(s.Pending[i].Queue)
		groups[r] = append(groups[r], i)
	}
	y := QueueTitleH
	for r, idx := range groups {
		if len(idx) == 0 {
			continue
		}
		chipH := ChipH
		if queueOrder[r] == QueueUnschedulable || queueOrder[r] == QueueGated {
			chipH += ReasonH // room for the reason line
		}
		rows := (len(idx) + perRow - 1) / perRow
		h := float64(rows)*(chipH+ChipGap) + ChipGap
		l.Sections = append(l.Sections, QueueSection{Queue: queueOrder[r], Count: len(idx), Rect: Rect{X: 0, Y: y, W: queueW, H: h}})
		for j, i := range idx {
			row, c := j/perRow, j%perRow
			p := &s.Pending[i]
			l.Chips = append(l.Chips, ChipBox{
				Pod: p, Pending: true,
				Rect: Rect{X: QueueLabelW + float64(c)*(QueueChipW+ChipGap), Y: y + ChipGap/2 + float64(row)*(chipH+ChipGap), W: QueueChipW, H: chipH},
			})
		}
		y += h
	}
	if len(l.Sections) == 0 {
		y += ChipH + 2*ChipGap // an empty lane still shows where pending pods go
	}
	if s.Room != nil && s.Room.Pending > 0 {
		// As tall as the most pods pending at once take in one section.
		rows := (s.Room.Pending + perRow - 1) / perRow
		y = math.Max(y, QueueTitleH+float64(rows)*(ChipH+ChipGap)+ChipGap)
	}
	l.Queue = Rect{W: queueW, H: y + ChipGap}
}

// flowSize is the size of zones of the given sizes flowed into rows at most
// rowW wide.
func flowSize(widths, heights []float64, rowW float64) (w, h float64) {
	x, y, lineH := 0.0, 0.0, 0.0
	for i := range widths {
		if x > 0 && x+widths[i] > rowW {
			x, y, lineH = 0, y+lineH+ZoneGap, 0
		}
		x += widths[i]
		w = math.Max(w, x)
		x += ZoneGap
		lineH = math.Max(lineH, heights[i])
	}
	return w, y + lineH
}

func (l *Layout) addNodeChips(nb NodeBox) {
	top := nb.barsTop() + barRows*BarRowH + 8
	n := nb.Node
	for i := 0; i < len(n.Pods)+len(n.Ghosts); i++ {
		r, c := i/chipCols, i%chipCols
		cb := ChipBox{Rect: Rect{
			X: nb.Rect.X + CardPad + float64(c)*(ChipW+ChipGap),
			Y: top + float64(r)*(ChipH+ChipGap),
			W: ChipW, H: ChipH,
		}}
		if i < len(n.Pods) {
			cb.Pod = &n.Pods[i]
		} else {
			cb.Pod, cb.Key = &n.Ghosts[i-len(n.Pods)], ghostPrefix // completed by setKeys
		}
		l.Chips = append(l.Chips, cb)
	}
}

// HitKind says what a point on the canvas is over.
type HitKind int

// What a point can be over.
const (
	HitNone HitKind = iota
	HitPod
	HitNode
)

// Hit is the result of a hit test: a pod key or a node name.
type Hit struct {
	Kind HitKind
	Key  string
}

// HitTest returns what lies under the world point (x, y); chips win over the
// card they sit on. rects gives chip i's drawn position (chips move while
// animating); nil means the laid-out position.
func (l *Layout) HitTest(x, y float64, rects func(i int) Rect) Hit {
	for i := len(l.Chips) - 1; i >= 0; i-- {
		r := l.Chips[i].Rect
		if rects != nil {
			r = rects(i)
		}
		if r.Contains(x, y) {
			return Hit{Kind: HitPod, Key: l.Chips[i].Pod.Key()}
		}
	}
	for _, n := range l.Nodes {
		if n.Rect.Contains(x, y) {
			return Hit{Kind: HitNode, Key: n.Node.Name}
		}
	}
	return Hit{}
}

// HitTestMoving is HitTest for chips drawn at their places in l but those
// listed in moving (see Motion.Moving): a chip at its place lies in the lane
// or in its card, so only the moving chips and the chips of the lane or card
// under the point are looked at, not thousands.
func (l *Layout) HitTestMoving(x, y float64, moving []int, rects func(i int) Rect) Hit {
	best := -1
	for _, i := range moving {
		if i > best && rects(i).Contains(x, y) {
			best = i
		}
	}
	scan := func(lo, hi int) {
		for i := hi - 1; i >= lo && i > best; i-- {
			if rects(i).Contains(x, y) {
				best = i
				return
			}
		}
	}
	if l.Queue.Contains(x, y) {
		scan(0, l.QueueChips)
	}
	for _, n := range l.Nodes {
		if n.Rect.Contains(x, y) {
			scan(n.FirstChip, n.EndChip)
		}
	}
	if best >= 0 {
		return Hit{Kind: HitPod, Key: l.Chips[best].Pod.Key()}
	}
	for _, n := range l.Nodes {
		if n.Rect.Contains(x, y) {
			return Hit{Kind: HitNode, Key: n.Node.Name}
		}
	}
	return Hit{}
}

// Timed reports whether the chip's picture changes with the clock: a
// termination's countdown and a backoff's time left.
func (c ChipBox) Timed() bool {
	return c.Pod.Termination != nil || (c.Pending && c.Pod.Queue == QueueBackoff)
}

// TimedAt is Timed where chip text is drawn (text true) or too small to be
// (false): the backoff left is only text; a termination also shortens a bar.
func (c ChipBox) TimedAt(text bool) bool {
	return c.Pod.Termination != nil || (text && c.Timed())
}

// SameGeometry reports whether two layouts put the lane, the regions and
// the cards in the same places (chips, and the lane's sections inside it,
// aside): a picture of one can then be updated card by card into the
// other, redrawing the lane whole.
func SameGeometry(a, b *Layout) bool {
	if a == nil || b == nil || a.Queue != b.Queue || a.Bounds != b.Bounds ||
		len(a.Zones) != len(b.Zones) || len(a.Nodes) != len(b.Nodes) {
		return false
	}
	for i := range a.Zones {
		if a.Zones[i] != b.Zones[i] {
			return false
		}
	}
	for i := range a.Nodes {
		if a.Nodes[i].Rect != b.Nodes[i].Rect || a.Nodes[i].Node.Name != b.Nodes[i].Node.Name {
			return false
		}
	}
	return true
}

// SameCard reports whether two nodes' cards look the same: name, figures,
// taints, cordon, and their pods' and ghosts' chips in order.
func SameCard(a, b *Node) bool {
	if a.Name != b.Name || a.Allocatable != b.Allocatable || a.Requested() != b.Requested() ||
		a.Unschedulable != b.Unschedulable || len(a.Taints) != len(b.Taints) ||
		!sameChips(a.Pods, b.Pods) || !sameChips(a.Ghosts, b.Ghosts) {
		return false
	}
	for i := range a.Taints {
		if a.Taints[i] != b.Taints[i] {
			return false
		}
	}
	return true
}

func sameChips(a, b []Pod) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		p, q := &a[i], &b[i]
		if !sameString(p.Name, q.Name) || !sameString(p.Namespace, q.Namespace) || !sameString(p.PriorityClass, q.PriorityClass) ||
			p.Ghost != q.Ghost || (p.Termination == nil) != (q.Termination == nil) {
			return false
		}
	}
	return true
}

// sameString is a == b, quick when both share their bytes: consecutive
// scenes take a pod's strings from the same object, and comparing them
// byte by byte was half of an event's card comparison in the browser.
func sameString(a, b string) bool {
	return len(a) == len(b) && (unsafe.StringData(a) == unsafe.StringData(b) || a == b)
}

// FocusOrder is the keyboard's path through the layout: the queue lane's
// pods as the lane shows them, then each node card followed by its pods,
// cards in the order the regions and rows place them. Ghosts are left
// out: a nominated pod is a stop once, in the lane.
func (l *Layout) FocusOrder() []FocusItem {
	out := make([]FocusItem, 0, len(l.Chips)+len(l.Nodes))
	for i := 0; i < l.QueueChips; i++ {
		out = append(out, FocusItem{Hit: Hit{Kind: HitPod, Key: l.Chips[i].Pod.Key()}, Rect: l.Chips[i].Rect})
	}
	for _, nb := range l.Nodes {
		out = append(out, FocusItem{Hit: Hit{Kind: HitNode, Key: nb.Node.Name}, Rect: nb.Rect})
		for i := nb.FirstChip; i < nb.EndChip; i++ {
			if c := l.Chips[i]; !c.Pod.Ghost {
				out = append(out, FocusItem{Hit: Hit{Kind: HitPod, Key: c.Pod.Key()}, Rect: c.Rect})
			}
		}
	}
	return out
}
