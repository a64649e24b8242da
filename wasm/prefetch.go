//go:build js && wasm

package main

import "time"

// prefetch(seq, ms) builds the scene after event seq for up to ms
// milliseconds, continuing the build of an earlier call (adapt.Prefetcher:
// playback calls it once per frame for the next event). Reply {ok, done}:
// ok false when there is nothing to build (no run, seq out of range or
// shown already), done true once the scene is ready for seek.
func (a *app) prefetch(args []string) (string, error) {
	seq, ms, err := seqAnd(args, "milliseconds")
	if err != nil {
		return "", err
	}
	if a.run == nil || seq < 0 || seq >= len(a.run.Trace()) || seq == a.seq {
		return `{"ok":false,"done":true}`, nil
	}
	if a.pre.Step(a.run, seq, time.Now().Add(time.Duration(ms*float64(time.Millisecond)))) {
		return `{"ok":true,"done":true}`, nil
	}
	return `{"ok":true,"done":false}`, nil
}
