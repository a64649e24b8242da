package engine

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
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
		order = append(order, -1, 3, -1) // to the t=0 view and back
		rng := rand.New(rand.NewPCG(seed, 1))
		for range 200 {
			order = append(order, rng.IntN(n)) // jumps
		}
		// Cursors read the checkpoints' rows in place: nothing may change them.
		var saved []rows
		for _, cp := range sim.log.checkpoints {
			saved = append(saved, cp.rows.clone())
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
		sim.Peaks()
		for i, cp := range sim.log.checkpoints {
			if diff := cmp.Diff(saved[i], cp.rows, cmp.AllowUnexported(rows{}, PodState{}, NodeState{})); diff != "" {
				t.Fatalf("seed %d: checkpoint %d changed by reading states (-before +after):\n%s", seed, i, diff)
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
	texts := exampleTexts(t)
	texts["gen-3"], texts["gen-5"], texts["pending"] = genScenario(3), genScenario(5), manyPendingPods(2, 150)
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
		for seq := -1; seq < len(sim.Trace()); seq++ {
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

// Each terminating pod's row carries the plan that times its way out, and
// the trace plays that plan: SIGTERM (when preStop hooks run) at Sigterm,
// SIGKILL when Killed, the deletion at End; PreStop holds until the SIGTERM
// event. Pods deleted before the scenario starts terminate from t=0.
func TestTerminationRowsFollowTheirPlan(t *testing.T) {
	texts := exampleTexts(t)
	texts["deleted-before-start"] = `apiVersion: v1
kind: Node
metadata: {name: n}
status: {allocatable: {cpu: "4", pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: going, deletionTimestamp: "2024-01-01T00:00:20Z", deletionGracePeriodSeconds: 30}
spec: {nodeName: n, containers: [{name: c, image: pause}]}
`
	checked, preStop := 0, 0
	for name, text := range texts {
		sc, err := scenario.Load(name, []byte(text))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sim, err := Simulate(sc, Options{Seed: 1})
		if err != nil && len(sim.Trace()) == 0 {
			t.Fatalf("%s: %v", name, err)
		}
		tr := sim.Trace()
		for seq := -1; seq < len(tr); seq++ {
			for _, p := range sim.StateAt(seq).Pods {
				term := p.Termination
				if term == nil {
					continue
				}
				checked++
				if p.TerminatingUntil == nil || *p.TerminatingUntil != term.End {
					t.Errorf("%s: after event %d, %s ends at %v but TerminatingUntil is %v", name, seq, p.Key, term.End, p.TerminatingUntil)
				}
				if term.Started > term.Sigterm || term.Sigterm > term.End {
					t.Errorf("%s: after event %d, %s: plan out of order %+v", name, seq, p.Key, term)
				}
				var sigterm, killed, deleted *Event
				for i := max(seq, 0); i < len(tr); i++ {
					e := &tr[i]
					if e.Pod != p.Key || Duration(e.T) < term.Started {
						continue
					}
					switch e.Kind {
					case EvPreStopDone:
						if i > seq {
							sigterm = e
						}
					case EvKilled:
						killed = e
					case EvDeleted, EvFailed:
						deleted = e
					}
					if deleted != nil {
						break
					}
				}
				if term.PreStop {
					preStop++
					if sigterm == nil || sigterm.T != term.Sigterm {
						t.Errorf("%s: after event %d, %s runs its preStop hook until %v; the SIGTERM event is %+v", name, seq, p.Key, term.Sigterm, sigterm)
					}
				} else if sigterm != nil {
					t.Errorf("%s: after event %d, %s: SIGTERM still to come (%+v) but the row says the hook is over", name, seq, p.Key, sigterm)
				}
				if (killed != nil) != term.Killed {
					t.Errorf("%s: after event %d, %s: Killed %v, SIGKILL event %+v", name, seq, p.Key, term.Killed, killed)
				}
				if deleted != nil && deleted.T != term.End {
					t.Errorf("%s: after event %d, %s ends at %v, deleted at %v", name, seq, p.Key, term.End, deleted.T)
				}
			}
		}
	}
	if checked < 50 || preStop == 0 {
		t.Errorf("checked %d terminating rows, %d in a preStop hook: too few", checked, preStop)
	}
}

// exampleTexts reads every example, by file name.
func exampleTexts(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("examples: %v", err)
	}
	texts := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts[filepath.Base(f)] = string(data)
	}
	return texts
}

// TestTerminatingAtStartEndInKeyOrder: pods deleted before the start with
// the same deletion time end at the same instant; their deletions follow
// the pods' keys in every run, whatever order the simulation's map of pods
// iterates in.
func TestTerminatingAtStartEndInKeyOrder(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus: {allocatable: {cpu: \"16\", pods: \"20\"}}\n")
	names := []string{"e", "b", "h", "a", "f", "c", "g", "d"}
	for _, n := range names {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Pod\nmetadata: {name: %s, deletionTimestamp: \"2024-01-01T00:00:20Z\", deletionGracePeriodSeconds: 30}\nspec: {nodeName: n, containers: [{name: c, image: pause}]}\n", n)
	}
	sc, err := scenario.Load("same-end", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(names)
	slices.Sort(want)
	for run := 0; run < 20; run++ {
		sim, err := Simulate(sc, Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range sim.Trace() {
			if e.Kind == EvDeleted {
				got = append(got, strings.TrimPrefix(e.Pod, "default/"))
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("run %d: deletions in order %v, want %v", run, got, want)
		}
	}
}
