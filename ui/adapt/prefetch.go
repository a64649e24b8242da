package adapt

import (
	"time"

	"github.com/schedplay/schedplay/ui"
)

// Prefetcher builds the scene of the event playback shows next ahead of
// time, a slice of a few milliseconds per frame: at 500 nodes / 5,000 pods
// building and laying out a scene takes about 10 ms in the browser, more
// than a frame has left while chips glide. The seek that shows the event
// then takes the built scene (Take).
//
// Each build runs in a goroutine of its own that waits between slices: the
// caller's goroutine hands it a deadline and waits until it pauses or ends,
// so only one of them runs at a time (wasm has one thread; natively the
// channels order them the same way).
type Prefetcher struct {
	// Prepare, if set, is called with a built scene (on the builder's
	// goroutine, inside a Step) and the build's yield: the canvas lays it
	// out ahead, in slices too. It reports false if yield said stop.
	Prepare func(s *ui.Scene, yield func() bool) bool

	job   *buildJob
	ready struct {
		run   *Run
		seq   int
		scene *ui.Scene
	}
}

type buildJob struct {
	run    *Run
	seq    int
	resume chan time.Time // the next slice's deadline; the zero time: stop
	paused chan bool      // after each slice: true once the build has ended
}

// Step builds the scene after event seq of r until deadline, continuing a
// build of the same scene; it reports whether the scene is ready.
func (p *Prefetcher) Step(r *Run, seq int, deadline time.Time) bool {
	if p.ready.scene != nil && p.ready.run == r && p.ready.seq == seq {
		return true
	}
	if p.job != nil && (p.job.run != r || p.job.seq != seq) {
		p.Cancel()
	}
	if p.job == nil {
		p.job = p.start(r, seq)
	}
	return p.slice(deadline) && p.ready.scene != nil && p.ready.run == r && p.ready.seq == seq
}

// Take returns the scene after event seq of r if it is built (finishing a
// build of it under way, whatever its time), else nil; the build ahead of
// any other scene is stopped.
func (p *Prefetcher) Take(r *Run, seq int) *ui.Scene {
	if p.job != nil {
		if p.job.run == r && p.job.seq == seq {
			p.slice(time.Now().Add(time.Hour))
		} else {
			p.Cancel()
		}
	}
	s := p.ready.scene
	ok := s != nil && p.ready.run == r && p.ready.seq == seq
	p.ready.scene = nil
	if !ok {
		return nil
	}
	return s
}

// Cancel stops the build under way, if any.
func (p *Prefetcher) Cancel() {
	if p.job != nil {
		p.slice(time.Time{})
	}
}

// slice lets the build run until deadline; it reports whether it ended.
func (p *Prefetcher) slice(deadline time.Time) bool {
	j := p.job
	j.resume <- deadline
	if <-j.paused {
		p.job = nil
		return true
	}
	return false
}

func (p *Prefetcher) start(r *Run, seq int) *buildJob {
	j := &buildJob{run: r, seq: seq, resume: make(chan time.Time), paused: make(chan bool)}
	go func() {
		defer func() { j.paused <- true }()
		deadline := <-j.resume
		park := func() bool {
			j.paused <- false
			deadline = <-j.resume
			return !deadline.IsZero()
		}
		if deadline.IsZero() {
			return
		}
		yield := func() bool { return time.Now().Before(deadline) || park() }
		s := r.SceneAtYield(seq, yield)
		if s == nil || (p.Prepare != nil && !p.Prepare(s, yield)) {
			return
		}
		p.ready.run, p.ready.seq, p.ready.scene = r, seq, s
	}()
	return j
}
