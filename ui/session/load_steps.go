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
// the canvas keeps the last good scenario.
func (s *Session) LoadInSteps(name, text string, slice time.Duration, pause func(LoadProgress)) LoadReply {
	s.CancelLoad()
	t := &loadTicket{}
	s.loading = t
	last := s.now()
	res := adapt.LoadOver(s.run, &s.cache, name, []byte(text), s.budget, func(done, total int) bool {
		if !t.cancelled && s.now().Sub(last) >= slice {
			pause(LoadProgress{Done: done, Total: total})
			last = s.now()
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
