package session

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/schedplay/schedplay/ui"
	"github.com/schedplay/schedplay/ui/adapt"
)

// The warm-up's made-up cluster loads without a diagnostic and its run
// goes the way the scheduler goes: every pod ends bound (the Deployment's
// replicas spread over the zones, the pending pods placed), so the
// warm-up runs the code a real load runs and is not refused on the way.
func TestWarmTextSchedulesEveryPod(t *testing.T) {
	res := adapt.Load("warm.yaml", warmText(warmNodes, warmPods))
	if !res.OK || len(res.Diagnostics) > 0 {
		t.Fatalf("load: ok=%v error=%q diagnostics=%+v", res.OK, res.Error, res.Diagnostics)
	}
	// The Deployment's 24 pods come from its controller, after t=0.
	if res.Summary.Nodes != warmNodes || res.Summary.Pods != warmPods {
		t.Fatalf("summary %+v, want %d nodes and %d pods", res.Summary, warmNodes, warmPods)
	}
	for !res.Run.Step(1000) {
	}
	if res.Run.Stopped != "" {
		t.Fatalf("stopped: %s", res.Run.Stopped)
	}
	end := res.Run.SceneAt(len(res.Run.Trace()) - 1)
	bound := 0
	for _, n := range end.Nodes {
		bound += len(n.Pods)
	}
	if want := warmPods + 24; len(end.Pending) > 0 || bound != want {
		t.Errorf("at the end %d pods bound and %d pending, want all %d bound", bound, len(end.Pending), want)
	}
}

// Warm works in slices of about the time given and then says it is done;
// whatever the session shows, caches and answers stays as it was.
func TestWarmLeavesTheSessionAlone(t *testing.T) {
	c := &recorder{}
	s := New(c, adapt.DefaultBudget)
	if r := s.Load("a.yaml", example(t, "preemption-basic.yaml")); !r.OK {
		t.Fatalf("load: %+v", r)
	}
	s.Simulate(time.Minute)
	s.Seek(2, 0)
	before, _ := json.Marshal(s.Outline())
	gen, scene, scenes, prepared := s.Gen(), s.Scene(), c.scenes, c.prepared
	trace := len(s.Trace(0))

	tick := time.Unix(0, 0)
	s.now = func() time.Time { tick = tick.Add(time.Millisecond); return tick }
	calls := 0
	for done := false; !done; calls++ {
		if calls > 100000 {
			t.Fatal("the warm-up never ends")
		}
		out, err := s.Call("warm", []string{"5"})
		if err != nil {
			t.Fatal(err)
		}
		var r struct{ OK, Done bool }
		if err := json.Unmarshal([]byte(out), &r); err != nil || !r.OK {
			t.Fatalf("warm = %s (%v)", out, err)
		}
		done = r.Done
	}
	if calls < 10 {
		t.Errorf("the warm-up took %d slices of 5 clock readings, want it spread over many", calls)
	}
	after, _ := json.Marshal(s.Outline())
	if s.Gen() != gen || s.Scene() != scene || c.scenes != scenes || c.prepared != prepared || len(s.Trace(0)) != trace || string(after) != string(before) {
		t.Errorf("the warm-up changed the session: gen %d→%d, scenes %d→%d, prepared %d→%d, trace %d→%d, outline changed %v",
			gen, s.Gen(), scenes, c.scenes, prepared, c.prepared, trace, len(s.Trace(0)), string(after) != string(before))
	}
	if !s.Warm(time.Millisecond) {
		t.Error("done once, the warm-up is not done any more")
	}
	checkWarmPictures(t, c.warmDrawn, scene)
}

// checkWarmPictures checks the warm-up had the canvas draw the made-up
// cluster's first scene (every pod pending) and its last (every pod bound),
// warmDraws times each, laid out, and nothing of the session's own (shown).
func checkWarmPictures(t *testing.T, got []warmPicture, shown *ui.Scene) {
	t.Helper()
	if len(got) != 2*warmDraws {
		t.Fatalf("the warm-up drew %d pictures, want %d", len(got), 2*warmDraws)
	}
	for i, p := range got {
		if p.scene == shown || p.layout == nil {
			t.Fatalf("picture %d: the scene shown, or no layout", i)
		}
		bound := 0
		for _, n := range p.scene.Nodes {
			bound += len(n.Pods)
		}
		pending, wantPending := len(p.scene.Pending), warmPods-warmPods/4
		if i%2 == 1 {
			wantPending = 0
		}
		if len(p.scene.Nodes) != warmNodes || pending != wantPending || len(p.layout.Chips) != pending+bound {
			t.Errorf("picture %d: %d nodes, %d pending, %d bound, %d chips laid out; want %d nodes, %d pending, a chip each",
				i, len(p.scene.Nodes), pending, bound, len(p.layout.Chips), warmNodes, wantPending)
		}
	}
}

// The page's warm-up worker runs the session without a canvas: the
// warm-up does all but drawing.
func TestWarmWithoutACanvas(t *testing.T) {
	s := New(nil, adapt.DefaultBudget)
	if !s.Warm(0) {
		t.Fatal("Warm(0) did not do it all")
	}
}

// A load in steps under way comes first: Warm waits without starting.
func TestWarmWaitsForALoad(t *testing.T) {
	s := New(&recorder{}, adapt.DefaultBudget)
	ticking(s)
	var warm []bool
	r := s.LoadInSteps("a.yaml", []byte(example(t, "preemption-basic.yaml")), time.Nanosecond, func(LoadProgress) {
		warm = append(warm, s.Warm(time.Hour))
	})
	if !r.OK || len(warm) == 0 {
		t.Fatalf("load: ok=%v, %d pauses", r.OK, len(warm))
	}
	for i, done := range warm {
		if done {
			t.Fatalf("Warm during the load's pause %d said done", i)
		}
	}
	if s.warming != nil {
		t.Error("Warm started during a load")
	}
	if !s.Warm(0) {
		t.Error("after the load, Warm(0) did not do it all")
	}
}
