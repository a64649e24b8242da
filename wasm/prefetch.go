package main

import (
	"fmt"
	"strconv"
	"time"

	"github.com/schedplay/schedplay/ui/adapt"
)

// Playback shows each event by building its scene and laying it out, about
// 10 ms at 500 nodes / 5,000 pods in the browser: more than a frame has
// left while chips glide. So the page builds the next event's scene ahead,
// a slice of a few milliseconds per frame (prefetch), and the seek that
// shows the event finds it built.

// prefetchJob is one scene being built in slices by its own goroutine,
// which waits in resume between slices: a deadline for the next slice, or
// the zero time to give up. It answers on paused after each slice: true
// once it is finished (built, or given up).
type prefetchJob struct {
	seq    int
	run    *adapt.Run
	resume chan time.Time
	paused chan bool
}

// prepareMs is about what laying out a scene takes at 500 nodes: started
// only with that much of a slice left.
const prepareMs = 4

// prefetch(seq, ms) builds the scene after event seq for up to ms
// milliseconds, continuing the build of an earlier call. Reply {ok, done}:
// ok false when there is nothing to build (no run, seq out of range or
// shown already), done true once the scene is ready for seek.
func (a *app) prefetch(args []string) (string, error) {
	if len(args) != 2 {
		return "", fmt.Errorf("want 2 arguments (seq, milliseconds), got %d", len(args))
	}
	seq, err := strconv.Atoi(args[0])
	if err != nil {
		return "", fmt.Errorf("parsing seq: %w", err)
	}
	ms, err := strconv.ParseFloat(args[1], 64)
	if err != nil {
		return "", fmt.Errorf("parsing milliseconds: %w", err)
	}
	if a.run == nil || seq < 0 || seq >= len(a.run.Trace()) || seq == a.seq {
		return `{"ok":false,"done":true}`, nil
	}
	if a.next != nil && a.nextSeq == seq {
		return `{"ok":true,"done":true}`, nil
	}
	if a.job != nil && (a.job.seq != seq || a.job.run != a.run) {
		a.cancelJob()
	}
	if a.job == nil {
		a.job = a.startJob(seq)
	}
	if a.slice(time.Now().Add(time.Duration(ms * float64(time.Millisecond)))) {
		return `{"ok":true,"done":true}`, nil
	}
	return `{"ok":true,"done":false}`, nil
}

// slice runs the job until deadline; it reports whether the job finished.
func (a *app) slice(deadline time.Time) bool {
	j := a.job
	j.resume <- deadline
	if <-j.paused {
		a.job = nil
		return true
	}
	return false
}

func (a *app) startJob(seq int) *prefetchJob {
	j := &prefetchJob{seq: seq, run: a.run, resume: make(chan time.Time), paused: make(chan bool)}
	go func() {
		deadline := <-j.resume
		park := func() bool {
			j.paused <- false
			deadline = <-j.resume
			return !deadline.IsZero()
		}
		yield := func() bool { return time.Now().Before(deadline) || park() }
		if deadline.IsZero() {
			j.paused <- true
			return
		}
		s := j.run.SceneAtYield(seq, yield)
		if s != nil && (time.Until(deadline) >= prepareMs*time.Millisecond || park()) && a.run == j.run {
			a.next, a.nextSeq = s, seq
			if a.selected == "" { // else show copies the scene to add the overlay
				a.game.Prepare(s)
			}
		}
		j.paused <- true
	}()
	return j
}

// cancelJob stops a build under way.
func (a *app) cancelJob() {
	if a.job != nil {
		a.slice(time.Time{})
	}
}

// settleJob, before seq is shown, finishes a build of seq under way (its
// slices so far are not lost) or stops a build of another event.
func (a *app) settleJob(seq int) {
	switch {
	case a.job == nil:
	case a.job.seq == seq && a.job.run == a.run:
		a.slice(time.Now().Add(time.Hour))
	default:
		a.cancelJob()
	}
}
