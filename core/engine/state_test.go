package engine

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedplay/schedplay/core/scenario"
)

// StateAt keeps a cursor between calls; whatever order the events are asked
// for in (playback forward, scrubbing back, jumps past checkpoints), each
// state must be the one a fresh look-up from the nearest checkpoint gives.
func TestStateAtCursorMatchesFreshLookups(t *testing.T) {
	// Generated scenarios, and one long enough for several checkpoints.
	texts := map[uint64]string{3: genScenario(3), 5: genScenario(5), 0: manyPendingPods(2, 150)}
	for _, seed := range []uint64{3, 5, 0} {
		sc, err := scenario.Load("gen.yaml", []byte(texts[seed]))
		if err != nil {
			t.Fatal(err)
		}
		sim, err := Simulate(sc, Options{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		n := len(sim.Trace())
		var order []int
		for i := range n {
			order = append(order, i) // playback
		}
		for i := n - 1; i >= 0; i -= 7 {
			order = append(order, i) // scrubbing back
		}
		rng := rand.New(rand.NewPCG(seed, 1))
		for range 200 {
			order = append(order, rng.IntN(n)) // jumps
		}
		var reused *State
		for _, seq := range order {
			got := sim.StateAt(seq)
			kept := sim.log.at
			sim.log.at = stateCursor{}
			want := sim.StateAt(seq)
			sim.log.at = kept
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(PodState{}, NodeState{})); diff != "" {
				t.Fatalf("seed %d: StateAt(%d) through the cursor (-want +got):\n%s", seed, seq, diff)
			}
			// Refilling the last state's slices gives the same state.
			reused = sim.StateAtInto(seq, reused)
			if diff := cmp.Diff(want, reused, cmp.AllowUnexported(PodState{}, NodeState{})); diff != "" {
				t.Fatalf("seed %d: StateAtInto(%d) over an earlier state (-want +got):\n%s", seed, seq, diff)
			}
		}
		if seed == 0 && len(sim.log.checkpoints) < 3 {
			t.Errorf("the long scenario has %d checkpoints in %d events, want 3 or more to jump between", len(sim.log.checkpoints), n)
		}
	}
}

// manyPendingPods is nodes small nodes and pods pending pods, more than fit:
// a trace of several hundred events over a few hundred rows.
func manyPendingPods(nodes, pods int) string {
	var b strings.Builder
	for i := range nodes {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Node\nmetadata: {name: n%d}\nstatus: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}\n", i)
	}
	for i := range pods {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p%d}\nspec:\n  containers: [{name: c, image: pause, resources: {requests: {cpu: 100m, memory: 64Mi}}}]\n", i)
	}
	return b.String()
}

// Peaks walks the deltas; it must agree with counting every state.
func TestPeaksMatchesEveryState(t *testing.T) {
	texts := map[string]string{"gen-3": genScenario(3), "gen-5": genScenario(5), "pending": manyPendingPods(2, 150)}
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("examples: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts[filepath.Base(f)] = string(data)
	}
	nominated := 0
	for name, text := range texts {
		sc, err := scenario.Load(name, []byte(text))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sim, err := Simulate(sc, Options{Seed: 1})
		if err != nil && len(sim.Trace()) == 0 {
			t.Fatalf("%s: %v", name, err)
		}
		wantNodes, wantPending := map[string]int{}, 0
		for seq := range sim.Trace() {
			held, pending := map[string]int{}, 0
			for _, p := range sim.StateAt(seq).Pods {
				switch p.Phase {
				case PhaseRunning:
					held[p.Node]++
				case PhaseDeleted, PhaseFailed:
				default:
					pending++
					if p.NominatedNode != "" {
						held[p.NominatedNode]++
						nominated++
					}
				}
			}
			for n, c := range held {
				wantNodes[n] = max(wantNodes[n], c)
			}
			wantPending = max(wantPending, pending)
		}
		gotNodes, gotPending := sim.Peaks()
		for n, c := range gotNodes { // nodes that held nothing may be listed with 0
			if c == 0 && wantNodes[n] == 0 {
				delete(gotNodes, n)
			}
		}
		if diff := cmp.Diff(wantNodes, gotNodes); diff != "" || gotPending != wantPending {
			t.Errorf("%s: Peaks per node (-every state +Peaks):\n%s\npending %d, want %d", name, diff, gotPending, wantPending)
		}
	}
	if nominated == 0 {
		t.Error("no state had a nominated pod: the test checked no ghost")
	}
}
