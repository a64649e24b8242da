package ui

// Tween durations in ticks (Update runs 60 times a second).
const (
	MoveTicks = 24
	FadeTicks = 16
)

type tween struct {
	from, to Rect
	tick     int // ticks since the move started; >= MoveTicks when settled
	age      int // ticks since the chip appeared, for the fade-in
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
		key := c.Pod.Key()
		seen[key] = true
		t, ok := m.chips[key]
		switch {
		case !ok:
			m.chips[key] = &tween{from: c.Rect, to: c.Rect, tick: MoveTicks}
		case t.to != c.Rect:
			cur, _ := m.Rect(key)
			t.from, t.to, t.tick = cur, c.Rect, 0
		}
	}
	for key := range m.chips {
		if !seen[key] {
			delete(m.chips, key)
		}
	}
}

// Step advances every animation by one tick.
func (m *Motion) Step() {
	for _, t := range m.chips {
		if t.tick < MoveTicks {
			t.tick++
		}
		if t.age < FadeTicks {
			t.age++
		}
	}
}

// Busy reports whether anything is still moving or fading.
func (m *Motion) Busy() bool {
	for _, t := range m.chips {
		if t.tick < MoveTicks || t.age < FadeTicks {
			return true
		}
	}
	return false
}

// Rect returns where the pod's chip is drawn now.
func (m *Motion) Rect(key string) (Rect, bool) {
	t, ok := m.chips[key]
	if !ok {
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
