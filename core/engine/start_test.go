package engine

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedplay/schedplay/core/scenario"
)

// startCases are the scenarios StartSimulation is compared on: every
// example and generated ones (bound, pending and nominated pods, a
// Deployment, a timeline), each also under an event budget that stops it.
func startCases(t *testing.T) map[string]*scenario.Scenario {
	t.Helper()
	out := map[string]*scenario.Scenario{}
	for name, src := range exampleTexts(t) {
		sc, err := scenario.Load(name, []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = sc
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

// A run never changes its scenario (it works on copies): a scenario.Cache
// shares the pods of one load's scenario with the next (as admitted), so
// the scenario must stay what its load gave, after the run, its states
// and its explanations.
func TestRunLeavesItsScenario(t *testing.T) {
	for f, text := range exampleTexts(t) {
		src := []byte(text)
		sc, err := scenario.Load(f, src)
		if err != nil {
			t.Fatal(err)
		}
		sim, err := NewSimulation(sc, Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		_ = sim.Run()
		for seq := -1; seq < len(sim.Trace()); seq++ {
			sim.StateAt(seq)
		}
		for _, e := range sim.Trace() {
			if e.Kind == EvScheduled || e.Kind == EvUnschedulable {
				if _, err := sim.ExplainAt(e.Pod, e.Seq); err != nil {
					t.Fatalf("%s: explaining %s: %v", f, e.Pod, err)
				}
			}
		}
		fresh, err := scenario.Load(f, src)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(fresh, sc, cmp.Exporter(func(reflect.Type) bool { return true })); diff != "" {
			t.Errorf("%s: the run changed its scenario (-load +after the run):\n%s", f, diff)
		}
		// A started run holds the scenario's own pending pods until they
		// enter the queue: neither the t=0 answers nor the steps change them.
		sc, err = scenario.Load(f, src)
		if err != nil {
			t.Fatal(err)
		}
		start, err := StartSimulation(sc, Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, ps := range start.StateAt(-1).Pods {
			if start.PodObject(ps.Key) == nil {
				t.Fatalf("%s: no object for %s at t=0", f, ps.Key)
			}
			if _, err := start.SpreadAt(ps.Key, -1); err != nil {
				t.Fatalf("%s: spread of %s at t=0: %v", f, ps.Key, err)
			}
		}
		_ = runAll(t, start, 3)
		if diff := cmp.Diff(fresh, sc, cmp.Exporter(func(reflect.Type) bool { return true })); diff != "" {
			t.Errorf("%s: the started run changed its scenario (-load +after the run):\n%s", f, diff)
		}
	}
}
