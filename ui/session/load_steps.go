package session

import (
	"time"

	"github.com/schedplay/schedplay/ui/adapt"
)

// loadTicket is one load in steps; cancelled stops it at its next step.
type loadTicket struct{ cancelled bool }

// LoadProgress is how far a load in steps has got: Done of Total steps
// (reading each document twice over, then preparing the run).
type LoadProgress struct {
	Done  int `json:"done"`
	Total int `json:"total"`
}

// LoadInSteps is Load for a page that must stay responsive while a large
// scenario loads: whenever about slice of work has gone by since the last
// pause, it calls pause with the progress so far, and the browser build
// returns to the event loop in pause (the page's other calls then run, so
// the session changes only once the load is complete). CancelLoad, Load or
// a newer LoadInSteps stop it at its next step: it answers Cancelled and
// the canvas keeps the last good scenario. The text is the caller's bytes,
// which the loaded scenario may go on reading: they must not change.
func (s *Session) LoadInSteps(name string, text []byte, slice time.Duration, pause func(LoadProgress)) LoadReply {
	s.CancelLoad()
	t := &loadTicket{}
	s.loading = t
	clock := pauseClock{now: s.now, slice: slice}
	clock.start()
	res := adapt.LoadOver(s.run, &s.cache, name, text, s.budget, func(done, total int) bool {
		if !t.cancelled && clock.due() {
			pause(LoadProgress{Done: done, Total: total})
			clock.start()
		}
		return !t.cancelled
	})
	if s.loading == t {
		s.loading = nil
	}
	if res.Cancelled {
		return LoadReply{Result: res, Gen: s.gen, Budget: s.budget}
	}
	return s.loaded(res)
}

// CancelLoad stops the load in steps under way, if any.
func (s *Session) CancelLoad() {
	if s.loading != nil {
		s.loading.cancelled = true
		s.loading = nil
	}
}

// pauseClock tells a load in steps when a slice of work has gone by. It
// reads the clock only every few steps: a load of 5,000 documents takes
// some 11,000 steps, and in the browser each reading is a call out of
// WebAssembly (~15 ms a load read at every step). The stride doubles while
// a stride's steps take under an eighth of the slice and halves when they
// take over a quarter, so a slice overruns by about a quarter at most
// when steps cost alike.
type pauseClock struct {
	now   func() time.Time
	slice time.Duration
	// last is the last reading, began the slice's start; steps counts the
	// steps since the last reading, stride how many pass between readings.
	last, began   time.Time
	steps, stride int
}

// maxStride bounds the steps between readings of the clock, and so how
// far a slice can overrun when steps turn dear at once (a file of small
// documents, then large ones): 16 of them. Reading every 16th step saves
// most of what reading at every step cost.
const maxStride = 16

func (c *pauseClock) start() {
	c.began = c.now()
	c.last, c.steps = c.began, 0
	c.stride = max(c.stride, 1)
}

// due counts a step and reports whether the slice is over.
func (c *pauseClock) due() bool {
	if c.steps++; c.steps < c.stride {
		return false
	}
	now := c.now()
	switch took := now.Sub(c.last); {
	case took < c.slice/8:
		c.stride = min(2*c.stride, maxStride)
	case took > c.slice/4:
		c.stride = max(c.stride/2, 1)
	}
	c.last, c.steps = now, 0
	return now.Sub(c.began) >= c.slice
}
