package engine

import (
	"fmt"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedplay/schedplay/core/scenario"
)

// Stepping a few events at a time must give exactly Run's trace: the page
// simulates incrementally and shows the same story as the CLI.
func TestStepMatchesRun(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			src := []byte(genScenario(seed))
			sc1, err := scenario.Load("gen.yaml", src)
			if err != nil {
				t.Fatal(err)
			}
			want, err := Simulate(sc1, Options{Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			sc2, _ := scenario.Load("gen.yaml", src)
			sim, err := NewSimulation(sc2, Options{Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			steps := 0
			for done := false; !done; steps++ {
				if done, err = sim.Step(3); err != nil {
					t.Fatal(err)
				}
				if steps > 10000 {
					t.Fatal("Step never finished")
				}
			}
			if !sim.Done() {
				t.Error("Done() is false after the last step")
			}
			if diff := cmp.Diff(want.Trace(), sim.Trace()); diff != "" {
				t.Errorf("trace (-Run +Step):\n%s", diff)
			}
		})
	}
}

func TestStepBudget(t *testing.T) {
	sc, err := scenario.Load("gen.yaml", []byte(genScenario(4)))
	if err != nil {
		t.Fatal(err)
	}
	sim, _ := NewSimulation(sc, Options{Seed: 4, MaxEvents: 2})
	done, err := sim.Step(100)
	if !done || err == nil {
		t.Fatalf("Step over the budget = %v, %v; want done with ErrEventBudget", done, err)
	}
}

func TestExplainAt(t *testing.T) {
	data, err := os.ReadFile("../../examples/preemption-basic.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Load("preemption-basic.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	sim, err := Simulate(sc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var unsched, sched = -1, -1
	for _, e := range sim.Trace() {
		if e.Pod == "default/critical" && e.Kind == EvUnschedulable {
			unsched = e.Seq
		}
		if e.Pod == "default/critical" && e.Kind == EvScheduled {
			sched = e.Seq
		}
	}
	if unsched < 0 || sched < 0 {
		t.Fatalf("trace lacks the preemption story: %+v", sim.Trace())
	}

	if a, err := sim.ExplainAt("default/critical", unsched-1); err != nil || a != nil {
		t.Errorf("before the first cycle ended: got %+v, %v; want nil", a, err)
	}

	first, err := sim.ExplainAt("default/critical", unsched)
	if err != nil {
		t.Fatal(err)
	}
	if first.Number != 1 || first.Seq != unsched {
		t.Errorf("first attempt = #%d at %d, want #1 at %d", first.Number, first.Seq, unsched)
	}
	ex := first.Explanation
	if got, want := ex.Message, "0/3 nodes are available: 3 Insufficient cpu."; got != want {
		t.Errorf("message = %q, want %q", got, want)
	}
	if ex.Preemption == nil || len(ex.Preemption.Nominated) != 1 || ex.Preemption.Nominated[0] != "node-b" {
		t.Fatalf("preemption = %+v, want node-b nominated", ex.Preemption)
	}
	if diff := cmp.Diff([]string{"default/low-b2"}, ex.Preemption.Candidates["node-b"].Victims); diff != "" {
		t.Errorf("node-b victims (-want +got):\n%s", diff)
	}

	// The second cycle ran after low-b2 was gone: node-b was feasible.
	last, err := sim.ExplainAt("default/critical", len(sim.Trace())-1)
	if err != nil {
		t.Fatal(err)
	}
	if last.Number != 2 || last.Seq != sched {
		t.Errorf("last attempt = #%d at %d, want #2 at %d", last.Number, last.Seq, sched)
	}
	if diff := cmp.Diff([]string{"node-b"}, last.Explanation.Selected); diff != "" {
		t.Errorf("selected (-want +got):\n%s", diff)
	}
	if last.Explanation.Message != "" {
		t.Errorf("a successful attempt has message %q", last.Explanation.Message)
	}
}
