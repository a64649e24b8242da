package engine

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/schedplay/schedplay/core/scenario"
)

// startCases are the scenarios StartSimulation is compared on: every
// example and generated ones (bound, pending and nominated pods, a
// Deployment, a timeline), each also under an event budget that stops it.
func startCases(t *testing.T) map[string]*scenario.Scenario {
	t.Helper()
	out := map[string]*scenario.Scenario{}
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples found: %v", err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc, err := scenario.Load(f, src)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[filepath.Base(f)] = sc
	}
	for seed := uint64(0); seed < 12; seed++ {
		sc, err := scenario.Load("gen.yaml", []byte(genScenario(seed)))
		if err != nil {
			t.Fatal(err)
		}
		out[fmt.Sprint("gen", seed)] = sc
	}
	return out
}

// runAll steps sim by n events at a time to its end, checking that the
// trace only ever grows by appending to what it was.
func runAll(t *testing.T, sim *Simulation, n int) error {
	t.Helper()
	for {
		before := append([]Event(nil), sim.Trace()...)
		done, err := sim.Step(n)
		got := sim.Trace()
		if len(got) < len(before) {
			t.Fatalf("a step shortened the trace")
		}
		for i := range before {
			if !reflect.DeepEqual(got[i], before[i]) {
				t.Fatalf("a step changed event %d:\n got %+v\nwant %+v", i, got[i], before[i])
			}
		}
		if done || err != nil {
			return err
		}
	}
}

func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestStartSimulationRunsAsNewSimulation: a run started by StartSimulation,
// whose pending pods enter the queue as its first steps, shows the same t=0
// state before any step and gives the same trace, states, final result and
// error as NewSimulation's, stepped by any amount.
func TestStartSimulationRunsAsNewSimulation(t *testing.T) {
	for name, sc := range startCases(t) {
		for _, maxEvents := range []int{0, 3} {
			opts := Options{Seed: 5, MaxEvents: maxEvents}
			want, err := NewSimulation(sc, opts)
			if err != nil {
				t.Fatal(err)
			}
			wantStart := asJSON(t, want.StateAt(-1))
			wantErr := fmt.Sprint(want.Run())
			wantTrace := asJSON(t, want.Trace())
			for _, step := range []int{1, 7, 50} {
				t.Run(fmt.Sprintf("%s/max%d/step%d", name, maxEvents, step), func(t *testing.T) {
					got, err := StartSimulation(sc, opts)
					if err != nil {
						t.Fatal(err)
					}
					if s := asJSON(t, got.StateAt(-1)); s != wantStart {
						t.Fatalf("t=0 state differs:\n got %s\nwant %s", s, wantStart)
					}
					if err := fmt.Sprint(runAll(t, got, step)); err != wantErr {
						t.Fatalf("error %s, want %s", err, wantErr)
					}
					if s := asJSON(t, got.Trace()); s != wantTrace {
						t.Fatalf("trace differs:\n got %s\nwant %s", s, wantTrace)
					}
					if g, w := asJSON(t, got.Result()), asJSON(t, want.Result()); g != w {
						t.Fatalf("result differs:\n got %s\nwant %s", g, w)
					}
					for seq := -1; seq < len(want.Trace()); seq++ {
						if g, w := asJSON(t, got.StateAt(seq)), asJSON(t, want.StateAt(seq)); g != w {
							t.Fatalf("state after event %d differs:\n got %s\nwant %s", seq, g, w)
						}
					}
				})
			}
		}
	}
}

// TestStartSimulationQueuesNothingYet: before its first step a started run
// has no pod in the queue and no Queued event, so the t=0 view is all the
// start did.
func TestStartSimulationQueuesNothingYet(t *testing.T) {
	sc := benchScenario(5, 0, 40, false)
	sim, err := StartSimulation(sc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(sim.Trace()); n != 0 {
		t.Fatalf("%d events before the first step", n)
	}
	if n := sim.queue.Len(); n != 0 {
		t.Fatalf("%d pods queued before the first step", n)
	}
	if _, err := sim.Step(10); err != nil {
		t.Fatal(err)
	}
	if n := len(sim.Trace()); n != 10 {
		t.Fatalf("%d events after a step of 10, want the first 10 pods queued", n)
	}
}
