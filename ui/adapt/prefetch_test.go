package adapt_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/schedplay/schedplay/ui"
	"github.com/schedplay/schedplay/ui/adapt"
)

func TestPrefetcher(t *testing.T) {
	r := simulatedLarge(t, 40, 1300, 120)
	n := len(r.Trace())
	past := time.Now().Add(-time.Second) // a slice that is over at once
	t.Run("built in slices, taken by its seek", func(t *testing.T) {
		var prepared []*ui.Scene
		p := &adapt.Prefetcher{Prepare: func(s *ui.Scene, yield func() bool) bool {
			if !yield() { // a pause inside Prepare
				return false
			}
			prepared = append(prepared, s)
			return true
		}}
		// Slices of no time build the scene 512 pods at a time, then
		// Prepare, which pauses once.
		steps := 0
		for !p.Step(r, 10, past) {
			if len(prepared) != 0 {
				t.Fatal("prepared before the build ended")
			}
			if steps++; steps > 100 {
				t.Fatal("the build never ends")
			}
		}
		if steps < 3 {
			t.Errorf("built in %d slices of no time, want one per 512 pods and one in Prepare", steps)
		}
		if len(prepared) != 1 {
			t.Fatalf("Prepare called %d times, want 1", len(prepared))
		}
		got := p.Take(r, 10)
		if got != prepared[0] {
			t.Error("Take did not return the prepared scene")
		}
		if diff := cmp.Diff(r.SceneAt(10), got); diff != "" {
			t.Errorf("prefetched scene (-SceneAt +got):\n%s", diff)
		}
		if p.Take(r, 10) != nil {
			t.Error("a scene was taken twice")
		}
	})
	t.Run("a seek finishes the build of its event", func(t *testing.T) {
		p := &adapt.Prefetcher{}
		if p.Step(r, 20, past) {
			t.Fatal("built within a slice of no time")
		}
		r.SceneAt(n - 1) // playback meanwhile
		got := p.Take(r, 20)
		if got == nil {
			t.Fatal("Take gave up a build of its own event")
		}
		if diff := cmp.Diff(r.SceneAt(20), got); diff != "" {
			t.Errorf("finished scene (-SceneAt +got):\n%s", diff)
		}
	})
	t.Run("a seek elsewhere or a new run stops the build", func(t *testing.T) {
		p := &adapt.Prefetcher{}
		p.Step(r, 30, past)
		if p.Take(r, 31) != nil {
			t.Error("Take returned a scene of another event")
		}
		if p.Take(r, 30) != nil {
			t.Error("the stopped build left a scene")
		}
		other := simulatedLarge(t, 10, 600, 20)
		p.Step(r, 5, past)
		if !p.Step(other, 5, time.Now().Add(time.Hour)) {
			t.Fatal("a build with time to spare did not end")
		}
		if p.Take(r, 5) != nil {
			t.Error("a scene of the old run was taken for it")
		}
	})
	t.Run("cancel ends the goroutine's build", func(t *testing.T) {
		p := &adapt.Prefetcher{}
		p.Step(r, 40, past)
		p.Cancel()
		p.Cancel() // nothing under way: no-op
		if p.Take(r, 40) != nil {
			t.Error("a cancelled build left a scene")
		}
	})
}
