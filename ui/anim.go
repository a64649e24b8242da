package ui

import (
	"sort"
	"strings"
)

// Tween durations in ticks (Update runs 60 times a second).
const (
	MoveTicks  = 24
	FadeTicks  = 16
	LeaveTicks = 40
)

type tween struct {
	from, to Rect
	tick     int // ticks since the move started; >= MoveTicks when settled
	age      int // ticks since the chip appeared, for the fade-in
	// gone counts ticks since the chip left the layout (0: still there);
	// pod is what to draw while it fades out (scenes are not changed once
	// shown, so it points into the last one that had the chip).
	gone    int
	pod     *Pod
	pending bool
	// mark is the Retarget that last found the chip in its layout, idx
	// the chip's index there.
	mark, idx int
	key       string
	// active: listed in Motion.active (moving, fading in or out); dead:
	// replaced in the map by a new tween for the same key.
	active, dead bool
}

// busy reports whether the tween still changes from tick to tick.
func (t *tween) busy() bool { return t.tick < MoveTicks || t.age < FadeTicks || t.gone > 0 }

// Leaving is a chip fading out after its pod left the scene (deleted,
// evicted, or its ghost cleared).
type Leaving struct {
	Key     string
	Pod     Pod
	Rect    Rect
	Alpha   float64
	Pending bool
}

// Motion animates chips between layouts: when a pod's place changes it
// glides from where it is drawn now to the new place, and new pods fade in.
// It counts ticks, so it is deterministic and needs no clock.
type Motion struct {
	chips map[string]*tween
	// mark numbers the Retargets; at holds the tweens of the last
	// Retarget's layout (laid), chip by chip, so per-chip reads during a
	// frame (hit tests, drawing) need no key lookup.
	mark int
	laid *Layout
	at   []*tween
	// spare is the previous Retarget's at, reused for the next one.
	spare []*tween
	// active lists the tweens that change from tick to tick, so that a tick
	// of a still picture walks a few chips instead of all of them.
	active []*tween
	// Instant cuts instead of tweening (reduced motion): the first Step
	// after a Retarget puts every chip at its place, fully shown, and
	// drops the leaving ones.
	Instant bool
}

func (m *Motion) wake(t *tween) {
	if !t.active {
		t.active = true
		m.active = append(m.active, t)
	}
}

// NewMotion returns an empty Motion.
func NewMotion() *Motion { return &Motion{chips: map[string]*tween{}} }

// Retarget takes the places of a new layout. Pods already shown move from
// their current drawn place; pods that are gone are forgotten.
func (m *Motion) Retarget(l *Layout) {
	m.mark++
	prev := m.at // the tweens of the last layout, chip by chip
	m.laid = l
	m.at = m.spare[:0]
	// A new layout mostly keeps the last one's chips in order, shifted by
	// the few that came or went before them: a chip's tween is first looked
	// for at its index shifted by the last shift found, which spares
	// hashing thousands of keys per event. prev's tweens are the ones of
	// the map still shown (gone 0), each under its key.
	shift := 0
	for i := range l.Chips {
		c := &l.Chips[i]
		var t *tween
		if j := i + shift; j >= 0 && j < len(prev) && prev[j].key == c.Key {
			t = prev[j]
		} else if t = m.chips[c.Key]; t != nil && t.gone == 0 && t.mark == m.mark-1 {
			shift = t.idx - i
		}
		ok := t != nil
		switch {
		case !ok || t.gone > 0:
			if ok {
				t.dead = true
			}
			// The layout's keys share one string per layout: a copy keeps
			// this one from holding it.
			k := strings.Clone(c.Key)
			t = &tween{from: c.Rect, to: c.Rect, tick: MoveTicks, key: k}
			m.chips[k] = t
			m.wake(t)
		case t.to != c.Rect:
			cur, _ := t.rect()
			t.from, t.to, t.tick = cur, c.Rect, 0
			m.wake(t)
		}
		t.pod, t.pending, t.mark, t.idx = c.Pod, c.Pending, m.mark, i
		m.at = append(m.at, t)
	}
	for _, t := range prev {
		if t.mark != m.mark && t.gone == 0 {
			// Settle where it was drawn, then fade out there.
			cur, _ := t.rect()
			t.from, t.to, t.tick, t.gone = cur, cur, MoveTicks, 1
			m.wake(t)
		}
	}
	clear(prev)
	m.spare = prev
}

// ChipAt returns where chip i of layout l is drawn now and its opacity; l
// is normally the layout last given to Retarget, whose tweens are indexed
// by chip, else the chip's key is looked up.
func (m *Motion) ChipAt(l *Layout, i int) (Rect, float64) {
	t := m.tweenAt(l, i)
	if t == nil {
		return l.Chips[i].Rect, 1
	}
	r, ok := t.rect()
	if !ok {
		r = l.Chips[i].Rect
	}
	return r, t.alpha()
}

func (m *Motion) tweenAt(l *Layout, i int) *tween {
	if l == m.laid && i < len(m.at) {
		return m.at[i]
	}
	return m.chips[l.Chips[i].Key]
}

// Moving appends to dst the chips of l (by index) that may be drawn away
// from their place in l: those moving or fading in. Every other chip of l
// is drawn at its place. ok is false when l is not the layout last given
// to Retarget.
func (m *Motion) Moving(l *Layout, dst []int) (_ []int, ok bool) {
	if l != m.laid {
		return dst, false
	}
	for _, t := range m.active {
		if !t.dead && t.gone == 0 && t.mark == m.mark {
			dst = append(dst, t.idx)
		}
	}
	return dst, true
}

// Index returns the index in l of the chip with key k, when l is the
// layout last given to Retarget (a look-up, not a scan of l's chips).
func (m *Motion) Index(l *Layout, k string) (int, bool) {
	t := m.chips[k]
	if l != m.laid || t == nil || t.mark != m.mark || t.gone > 0 {
		return 0, false
	}
	return t.idx, true
}

// SettledAt is Settled for chip i of layout l (see ChipAt).
func (m *Motion) SettledAt(l *Layout, i int) bool {
	t := m.tweenAt(l, i)
	return t == nil || t.settledAt(l.Chips[i].Rect)
}

func (t *tween) settledAt(at Rect) bool {
	return t.gone == 0 && t.tick >= MoveTicks && t.age >= FadeTicks && t.to == at
}

// Step advances every animation by one tick.
func (m *Motion) Step() {
	kept := m.active[:0]
	for _, t := range m.active {
		if t.dead {
			t.active = false
			continue
		}
		if m.Instant {
			t.tick, t.age = MoveTicks, FadeTicks
			if t.gone > 0 {
				t.gone = LeaveTicks + 1
			}
		}
		if t.tick < MoveTicks {
			t.tick++
		}
		if t.age < FadeTicks {
			t.age++
		}
		if t.gone > 0 {
			if t.gone++; t.gone > LeaveTicks+1 {
				delete(m.chips, t.key)
				t.active = false
				continue
			}
		}
		if !t.busy() {
			t.active = false
			continue
		}
		kept = append(kept, t)
	}
	clear(m.active[len(kept):])
	m.active = kept
}

// Busy reports whether anything is still moving or fading.
func (m *Motion) Busy() bool {
	for _, t := range m.active {
		if !t.dead && t.busy() {
			return true
		}
	}
	return false
}

// Leaving returns the chips fading out, in key order.
func (m *Motion) Leaving() []Leaving {
	var out []Leaving
	for _, t := range m.active {
		if t.gone > 0 && !t.dead {
			a := 1 - easeOutCubic(float64(t.gone-1)/LeaveTicks)
			out = append(out, Leaving{Key: t.key, Pod: *t.pod, Rect: t.to, Alpha: a, Pending: t.pending})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// Rect returns where the chip is drawn now; chips fading out have none.
func (m *Motion) Rect(key string) (Rect, bool) {
	t, ok := m.chips[key]
	if !ok {
		return Rect{}, false
	}
	return t.rect()
}

func (t *tween) rect() (Rect, bool) {
	if t.gone > 0 {
		return Rect{}, false
	}
	if t.tick >= MoveTicks {
		return t.to, true
	}
	p := easeOutCubic(float64(t.tick) / MoveTicks)
	return Rect{
		X: lerp(t.from.X, t.to.X, p),
		Y: lerp(t.from.Y, t.to.Y, p),
		W: lerp(t.from.W, t.to.W, p),
		H: lerp(t.from.H, t.to.H, p),
	}, true
}

// Alpha returns the chip's opacity, 0 to 1, while it fades in.
func (m *Motion) Alpha(key string) float64 {
	t, ok := m.chips[key]
	if !ok {
		return 1
	}
	return t.alpha()
}

func (t *tween) alpha() float64 { return easeOutCubic(float64(t.age) / FadeTicks) }

func lerp(a, b, p float64) float64 { return a + (b-a)*p }

func easeOutCubic(p float64) float64 {
	if p >= 1 {
		return 1
	}
	q := 1 - p
	return 1 - q*q*q
}

// Settled reports whether the chip is drawn at its laid-out place at full
// opacity: nothing about it moves until the next layout, so a picture of
// it can be reused between frames.
func (m *Motion) Settled(key string, at Rect) bool {
	t, ok := m.chips[key]
	if !ok {
		return true // not animated: drawn at its place
	}
	return t.settledAt(at)
}
