package session

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/schedplay/schedplay/core/scenario"
	"github.com/schedplay/schedplay/ui/adapt"
)

// ticking makes the session's clock move by a second at every reading, so
// that a load in steps pauses at each of its steps.
func ticking(s *Session) {
	now := time.Unix(0, 0)
	s.now = func() time.Time { now = now.Add(time.Second); return now }
}

// A load in steps pauses with its progress, in order, and shows its
// scenario at the end; cancelled from a pause, or replaced by a newer load
// there, it answers Cancelled and the canvas keeps the last good scenario.
func TestLoadInSteps(t *testing.T) {
	c := &recorder{}
	s := New(c, adapt.DefaultBudget)
	ticking(s)
	first, second, third := example(t, "preemption-basic.yaml"), example(t, "cordon-and-drain.yaml"), example(t, "partial-node-search.yaml")
	if r := s.Load("a.yaml", first); !r.OK {
		t.Fatalf("load: %+v", r)
	}
	nodes := func() int { return len(c.scene.Nodes) }
	firstNodes, gen := nodes(), s.gen

	var seen []LoadProgress
	r := s.LoadInSteps("b.yaml", []byte(second), time.Millisecond, func(p LoadProgress) { seen = append(seen, p) })
	if !r.OK || r.Cancelled || s.gen != gen+1 || r.Gen != s.gen {
		t.Fatalf("load in steps = %+v (gen %d after %d), want the second scenario shown", r, s.gen, gen)
	}
	if len(seen) < 3 {
		t.Fatalf("paused %d times, want at every step", len(seen))
	}
	// Every step pauses, in order; the last (preparing the run) pauses
	// more than once, after starting the simulation and within its t=0
	// scene.
	total, step := seen[0].Total, 0
	for i, p := range seen {
		if p.Total != total || p.Done != step && p.Done != step+1 || i == 0 && p.Done != 0 {
			t.Fatalf("pause %d said %d of %d after step %d of %d, want the same step or the next", i, p.Done, p.Total, step, total)
		}
		step = p.Done
	}
	if step != total-1 || len(seen) <= total {
		t.Fatalf("paused %d times, the last at step %d of %d; want every step, the last more than once", len(seen), step, total)
	}
	secondNodes, gen := nodes(), s.gen

	// Cancelled at its second pause.
	pauses := 0
	r = s.LoadInSteps("c.yaml", []byte(third), time.Millisecond, func(LoadProgress) {
		if pauses++; pauses == 2 {
			s.CancelLoad()
		}
	})
	if r.OK || !r.Cancelled || s.gen != gen || r.Gen != gen || nodes() != secondNodes || pauses != 2 {
		t.Fatalf("cancelled load = %+v after %d pauses, canvas gen %d with %d nodes; want cancelled, gen %d with %d nodes",
			r, pauses, s.gen, nodes(), gen, secondNodes)
	}

	// Cancelled while preparing the run, after the simulation started.
	lastSteps := 0
	r = s.LoadInSteps("c.yaml", []byte(third), time.Millisecond, func(p LoadProgress) {
		if p.Done == p.Total-1 {
			if lastSteps++; lastSteps == 2 {
				s.CancelLoad()
			}
		}
	})
	if r.OK || !r.Cancelled || s.gen != gen || nodes() != secondNodes || lastSteps != 2 {
		t.Fatalf("load cancelled while preparing its run = %+v, canvas gen %d with %d nodes; want cancelled, gen %d with %d nodes", r, s.gen, nodes(), gen, secondNodes)
	}

	// Replaced by a newer load during a pause (the page loaded an edit).
	var inner LoadReply
	r = s.LoadInSteps("c.yaml", []byte(third), time.Millisecond, func(LoadProgress) {
		if inner.Gen == 0 {
			inner = s.LoadInSteps("a.yaml", []byte(first), time.Hour, func(LoadProgress) {})
		}
	})
	if !r.Cancelled || !inner.OK || s.gen != gen+1 || nodes() != firstNodes {
		t.Fatalf("replaced load = %+v, newer load ok %v, canvas gen %d with %d nodes; want the newer one shown", r, inner.OK, s.gen, nodes())
	}

	// The cache is whole after the cancelled loads: the next load reads
	// what they left off.
	if r := s.LoadInSteps("c.yaml", []byte(third), time.Hour, func(LoadProgress) {}); !r.OK || r.Summary != adapt.Load("c.yaml", []byte(third)).Summary {
		t.Fatalf("load after cancelled loads = %+v", r)
	}

	// Preparing waits while a load in steps is under way.
	r = s.LoadInSteps("b.yaml", []byte(second), time.Millisecond, func(LoadProgress) { s.Prepare(0) })
	if !r.OK {
		t.Fatalf("load with Prepare in its pauses = %+v", r)
	}
}

// An edit that changes no object (comment and blank lines) keeps the run
// and what it simulated, and from then on the positions are the edited
// text's: the warnings the page marks, the objects' and the lesson's. A
// real change after it simulates anew.
func TestEditChangingNoObjectKeepsTheRun(t *testing.T) {
	c := &recorder{}
	s := New(c, adapt.DefaultBudget)
	ticking(s)
	text := example(t, "cordon-and-drain.yaml") + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\n"
	if r := s.Load("s.yaml", text); !r.OK || r.Kept {
		t.Fatalf("load: %+v", r)
	}
	for !s.Simulate(time.Hour).Done {
	}
	run, events := s.run, len(s.run.Trace())
	warning := func(r LoadReply) adapt.Diagnostic {
		t.Helper()
		for _, d := range r.Diagnostics {
			if d.Severity == "warning" && strings.Contains(d.Msg, "ConfigMap") {
				return d
			}
		}
		t.Fatalf("no warning about the ConfigMap in %+v", r.Diagnostics)
		return adapt.Diagnostic{}
	}
	before := warning(s.Load("s.yaml", text))
	gen := s.gen

	edited := "# two lines\n\n" + strings.Replace(text, "\n---\n", "\n---\n# a comment\n", 1) + "# the end\n"
	r := s.LoadInSteps("s.yaml", []byte(edited), time.Millisecond, func(LoadProgress) {})
	if !r.OK || !r.Kept || s.run != run || len(s.run.Trace()) != events || !s.run.Done() {
		t.Fatalf("edit changing no object: kept %v, same run %v, %d events of %d; want the run kept, simulated", r.Kept, s.run == run, len(s.run.Trace()), events)
	}
	if s.gen != gen+1 || c.scene != run.Base() {
		t.Fatalf("the kept run's t=0 view is not shown (gen %d after %d)", s.gen, gen)
	}
	fresh, err := scenario.Load("s.yaml", []byte(edited))
	if err != nil {
		t.Fatal(err)
	}
	want := fresh.Warnings[len(fresh.Warnings)-1]
	if got := warning(r); got.Line != before.Line+3 || got.Line != want.Line || got.Col != want.Col {
		t.Errorf("warning at %d:%d after the edit, was %d:%d; want the edited text's %d:%d", got.Line, got.Col, before.Line, before.Col, want.Line, want.Col)
	}
	sc := s.run.Scenario()
	if !reflect.DeepEqual(sc.Positions, fresh.Positions) || sc.Lesson == nil || !reflect.DeepEqual(sc.Lesson, fresh.Lesson) {
		t.Errorf("the kept run's positions are not the edited text's")
	}

	// A comment written on at the end moves nothing: the run is kept
	// without a load (scenario.Cache.Same), its positions still the text's.
	written := edited + "# more\n"
	r = s.LoadInSteps("s.yaml", []byte(written), time.Millisecond, func(LoadProgress) { t.Fatal("a load in steps ran") })
	if !r.OK || !r.Kept || s.run != run || len(s.run.Trace()) != events {
		t.Fatalf("a comment written on: kept %v, same run %v; want the run kept", r.Kept, s.run == run)
	}
	if fresh, err = scenario.Load("s.yaml", []byte(written)); err != nil {
		t.Fatal(err)
	}
	if sc := s.run.Scenario(); !reflect.DeepEqual(sc.Positions, fresh.Positions) || !reflect.DeepEqual(sc.Warnings, fresh.Warnings) {
		t.Errorf("the kept run's positions are not the text's after a comment written on")
	}

	// A real change: a new run, simulated from the start.
	r = s.LoadInSteps("s.yaml", []byte(strings.Replace(edited, "# the end\n", "---\napiVersion: v1\nkind: Pod\nmetadata: {name: late}\nspec: {containers: [{name: c, image: pause}]}\n", 1)), time.Millisecond, func(LoadProgress) {})
	if !r.OK || r.Kept || s.run == run || len(s.run.Trace()) == events && s.run.Done() {
		t.Fatalf("a real change: kept %v, same run %v; want a new run", r.Kept, s.run == run)
	}
}

// A load's pause clock reads the clock only every few steps when steps are
// quick, yet ends each slice soon after it is over; slow steps pause at
// every step.
func TestPauseClock(t *testing.T) {
	for _, tc := range []struct {
		name string
		step time.Duration
	}{{"quick", 5 * time.Microsecond}, {"mixed", 0}, {"slow", 40 * time.Millisecond}} {
		now, reads := time.Unix(0, 0), 0
		c := pauseClock{now: func() time.Time { reads++; return now }, slice: 30 * time.Millisecond}
		c.start()
		began, pauses, longest := now, 0, time.Duration(0)
		const steps = 20000
		for i := range steps {
			d := tc.step
			if d == 0 { // every 1,000th step takes 5 ms
				d = 5 * time.Microsecond
				if i%1000 == 999 {
					d = 5 * time.Millisecond
				}
			}
			now = now.Add(d)
			if c.due() {
				pauses++
				longest = max(longest, now.Sub(began))
				c.start()
				began = now
			}
		}
		switch tc.name {
		case "slow":
			if pauses != steps {
				t.Errorf("%s: paused %d times in %d steps of %v, want every step", tc.name, pauses, steps, tc.step)
			}
		default:
			if pauses == 0 || reads > steps/8 {
				t.Errorf("%s: %d pauses, %d readings of the clock in %d steps; want pauses and at most %d readings", tc.name, pauses, reads, steps, steps/8)
			}
			if longest > c.slice+c.slice/4+5*time.Millisecond {
				t.Errorf("%s: a slice ran %v, want at most a quarter over %v (and one slow step)", tc.name, longest, c.slice)
			}
		}
	}
}
