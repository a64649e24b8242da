package ui

import "sort"

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
	// pod is what to draw while it fades out.
	gone    int
	pod     Pod
	pending bool
}

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
}

// NewMotion returns an empty Motion.
func NewMotion() *Motion { return &Motion{chips: map[string]*tween{}} }

// Retarget takes the places of a new layout. Pods already shown move from
// their current drawn place; pods that are gone are forgotten.
func (m *Motion) Retarget(l *Layout) {
	seen := make(map[string]bool, len(l.Chips))
	for _, c := range l.Chips {
		key := c.Key
		seen[key] = true
		t, ok := m.chips[key]
		switch {
		case !ok || t.gone > 0:
			m.chips[key] = &tween{from: c.Rect, to: c.Rect, tick: MoveTicks, pod: *c.Pod, pending: c.Pending}
		case t.to != c.Rect:
			cur, _ := m.Rect(key)
			t.from, t.to, t.tick = cur, c.Rect, 0
		}
		if t := m.chips[key]; t != nil {
			t.pod, t.pending = *c.Pod, c.Pending
		}
	}
	for key, t := range m.chips {
		if !seen[key] && t.gone == 0 {
			// Settle where it was drawn, then fade out there.
			cur, _ := m.Rect(key)
			t.from, t.to, t.tick, t.gone = cur, cur, MoveTicks, 1
		}
	}
}

// Step advances every animation by one tick.
func (m *Motion) Step() {
	for key, t := range m.chips {
		if t.tick < MoveTicks {
			t.tick++
		}
		if t.age < FadeTicks {
			t.age++
		}
		if t.gone > 0 {
			if t.gone++; t.gone > LeaveTicks+1 {
				delete(m.chips, key)
			}
		}
	}
}

// Busy reports whether anything is still moving or fading.
func (m *Motion) Busy() bool {
	for _, t := range m.chips {
		if t.tick < MoveTicks || t.age < FadeTicks || t.gone > 0 {
			return true
		}
	}
	return false
}

// Leaving returns the chips fading out, in key order.
func (m *Motion) Leaving() []Leaving {
	var out []Leaving
	for key, t := range m.chips {
		if t.gone > 0 {
			a := 1 - easeOutCubic(float64(t.gone-1)/LeaveTicks)
			out = append(out, Leaving{Key: key, Pod: t.pod, Rect: t.to, Alpha: a, Pending: t.pending})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// Rect returns where the chip is drawn now; chips fading out have none.
func (m *Motion) Rect(key string) (Rect, bool) {
	t, ok := m.chips[key]
	if !ok || t.gone > 0 {
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
	return easeOutCubic(float64(t.age) / FadeTicks)
}

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
	return t.gone == 0 && t.tick >= MoveTicks && t.age >= FadeTicks && t.to == at
}
