package session

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/schedplay/schedplay/ui/adapt"
)

func TestStepEvents(t *testing.T) {
	const slice = 30 * time.Millisecond
	for _, c := range []struct {
		n    int
		took time.Duration
		want int
	}{
		{50, 400 * time.Millisecond, 1},               // far over: one event a step
		{50, 15 * time.Millisecond, 25},               // twice a quarter: half as many
		{20, 4 * time.Millisecond, 20},                // between a sixteenth and a quarter: kept
		{1, 0, 2},                                     // cheap: twice as many
		{40, time.Millisecond, maxStepEvents},         // no more than the most
		{maxStepEvents, 0, maxStepEvents},             // already the most
		{3, 200 * time.Millisecond, 1},                // never none
		{8, slice / 4, 8},                             // a quarter exactly: kept
		{8, slice/16 - time.Nanosecond, 16},           // just under a sixteenth: doubled
		{50, slice/4 + time.Millisecond, 44},          // just over a quarter: a little fewer
		{maxStepEvents, 2 * time.Second, 1},           // a step of seconds
		{maxStepEvents, slice / 2, maxStepEvents / 2}, // half the slice: half as many
	} {
		if got := stepEvents(c.n, c.took, slice); got != c.want {
			t.Errorf("stepEvents(%d, %v, %v) = %d, want %d", c.n, c.took, slice, got, c.want)
		}
	}
}

// manyPods is one node and pods pending pods: a run of hundreds of events.
func manyPods(pods int) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus: {allocatable: {cpu: \"64\", memory: 256Gi, pods: \"500\"}}\n")
	for i := range pods {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p-%d}\nspec:\n  containers: [{name: c, image: pause, resources: {requests: {cpu: 10m}}}]\n", i)
	}
	return b.String()
}

// When its steps take long (every reading of the clock 40 ms later, over
// a quarter of a 30 ms slice), Simulate runs fewer events a step, down to
// one, so that a slice ends near its time; once steps are cheap again it
// runs the most a step.
func TestSimulateStepsFollowWhatEventsCost(t *testing.T) {
	s := New(&recorder{}, adapt.DefaultBudget)
	if r := s.Load("many.yaml", manyPods(200)); !r.OK {
		t.Fatalf("load: %+v", r)
	}
	now := time.Unix(0, 0)
	tick := 40 * time.Millisecond
	s.now = func() time.Time { now = now.Add(tick); return now }
	var per []int
	events := s.Simulate(0).Events // the queue's events, there from the start
	for range 4 {
		r := s.Simulate(30 * time.Millisecond)
		if r.Done {
			t.Fatalf("the run ended after %d events, want it longer than the test", r.Events)
		}
		per = append(per, r.Events-events)
		events = r.Events
	}
	// 50 events in the first step, then 50 x 7.5/40 = 9, then 1.
	if want := []int{maxStepEvents, 9, 1, 1}; fmt.Sprint(per) != fmt.Sprint(want) {
		t.Fatalf("events a slice with slow steps = %v, want %v", per, want)
	}
	tick = time.Millisecond
	for range 4 {
		s.Simulate(30 * time.Millisecond)
	}
	if s.step != maxStepEvents {
		t.Fatalf("step after cheap steps = %d, want %d", s.step, maxStepEvents)
	}
}
