package adapt_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedplay/schedplay/core/engine"
	"github.com/schedplay/schedplay/core/engine/enginetest"
	"github.com/schedplay/schedplay/core/scenario"
	"github.com/schedplay/schedplay/ui"
	"github.com/schedplay/schedplay/ui/adapt"
)

func runOf(t *testing.T, file string, b adapt.Budget) *adapt.Run {
	t.Helper()
	data, err := os.ReadFile("../../examples/" + file)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Load(file, data)
	if err != nil {
		t.Fatal(err)
	}
	r, err := adapt.NewRun(sc, b)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; !r.Step(2); i++ {
		if i > 1000 {
			t.Fatal("the run never ends")
		}
	}
	return r
}

func seqOf(t *testing.T, r *adapt.Run, kind, pod string) int {
	t.Helper()
	for _, e := range r.Trace() {
		if e.Kind == kind && e.Pod == pod {
			return e.Seq
		}
	}
	t.Fatalf("no %s event for %s", kind, pod)
	return 0
}

func nodeOf(t *testing.T, s *ui.Scene, name string) *ui.Node {
	t.Helper()
	n, ok := s.FindNode(name)
	if !ok {
		t.Fatalf("no node %s", name)
	}
	return n
}

func TestSceneAtPlaysPreemption(t *testing.T) {
	r := runOf(t, "preemption-basic.yaml", adapt.DefaultBudget)
	if r.Stopped != "" {
		t.Fatalf("stopped: %s", r.Stopped)
	}

	// Nominated: critical waits in the queue and its ghost holds node-b.
	s := r.SceneAt(seqOf(t, r, engine.EvNominated, "default/critical"))
	b := nodeOf(t, s, "node-b")
	if len(b.Ghosts) != 1 || b.Ghosts[0].Key() != "default/critical" || !b.Ghosts[0].Ghost {
		t.Errorf("node-b ghosts = %+v, want critical's", b.Ghosts)
	}
	if s.Event == nil || s.Event.Kind != engine.EvNominated || s.Event.Node != "node-b" {
		t.Errorf("event = %+v", s.Event)
	}

	// Preempted: low-b2 counts down its 30 s grace period (no preStop hook:
	// SIGTERM at once, gone at the end) and still holds its cpu.
	s = r.SceneAt(seqOf(t, r, engine.EvPreempted, "default/low-b2"))
	p, ok := s.FindPod("default/low-b2")
	if !ok || p.Termination == nil {
		t.Fatalf("low-b2 = %+v, want terminating", p)
	}
	want := ui.Termination{Started: 0, Stage: "SIGTERM", Next: "gone", StageEnds: 30, Ends: 30}
	if diff := cmp.Diff(want, *p.Termination); diff != "" {
		t.Errorf("termination (-want +got):\n%s", diff)
	}
	if got := p.Termination.Countdown(12, nil); got != "SIGTERM · gone in 18s" {
		t.Errorf("countdown at 12s = %q", got)
	}
	if got := nodeOf(t, s, "node-b").Requested().MilliCPU; got != 4000 {
		t.Errorf("node-b requested cpu while low-b2 terminates = %d, want 4000", got)
	}

	// Unschedulable: critical waits in the unschedulable sub-queue with
	// its FailedScheduling message.
	s = r.SceneAt(seqOf(t, r, engine.EvUnschedulable, "default/critical"))
	if len(s.Pending) != 1 || s.Pending[0].Queue != ui.QueueUnschedulable || s.Pending[0].Reason == "" {
		t.Errorf("pending = %+v, want critical unschedulable with a reason", s.Pending)
	}

	// The end: low-b2 is gone, critical runs on node-b, no ghost is left.
	s = r.SceneAt(len(r.Trace()) - 1)
	if _, ok := s.FindPod("default/low-b2"); ok {
		t.Error("low-b2 is still shown after its deletion")
	}
	c, ok := s.FindPod("default/critical")
	if !ok || c.Node != "node-b" {
		t.Errorf("critical = %+v, want on node-b", c)
	}
	if g := nodeOf(t, s, "node-b").Ghosts; len(g) != 0 {
		t.Errorf("ghosts left on node-b: %+v", g)
	}
	if len(s.Pending) != 0 {
		t.Errorf("pending at the end: %+v", s.Pending)
	}
	if r.SceneAt(-1) != r.Base() {
		t.Error("SceneAt(-1) is not the t=0 view")
	}
}

func TestRunBudgets(t *testing.T) {
	r := runOf(t, "preemption-basic.yaml", adapt.Budget{Nodes: 2, Pods: 100, Events: 100})
	if want := "not simulated: the scenario has 3 nodes and 6 pods; the playground simulates at most 2 nodes and 100 pods"; r.Stopped != want {
		t.Errorf("stopped = %q, want %q", r.Stopped, want)
	}
	if len(r.Trace()) != 0 {
		t.Error("an over-budget scenario was simulated")
	}

	r = runOf(t, "preemption-basic.yaml", adapt.Budget{Nodes: 10, Pods: 100, Events: 2})
	if want := "stopped at t=0s after 4 events: the playground's budget is 2 events; the trace so far can be played"; r.Stopped != want {
		t.Errorf("stopped = %q, want %q", r.Stopped, want)
	}
}

func TestSpreadOverlay(t *testing.T) {
	r := runOf(t, "topology-spread-one-constraint.yaml", adapt.DefaultBudget)
	got, err := r.Spread(-1, "default/mypod")
	if err != nil || len(got) != 1 {
		t.Fatalf("constraints = %+v", got)
	}
	c := got[0]
	if c.Key != "topology.kubernetes.io/zone" || c.Min != 1 {
		t.Errorf("key %q min %d, want zone and 1", c.Key, c.Min)
	}
	// zoneA holds pod1 and pod2, zoneB pod3; mypod matches its own selector.
	want := []ui.SpreadDomain{{Name: "zoneA", Count: 2, Skew: 2}, {Name: "zoneB", Count: 1, Skew: 1}}
	if diff := cmp.Diff(want, c.Domains); diff != "" {
		t.Errorf("domains (-want +got):\n%s", diff)
	}
	if c.NodeDomain["node3"] != "zoneB" {
		t.Errorf("node3's domain = %q", c.NodeDomain["node3"])
	}
}

func TestZoneKeyFollowsConstraints(t *testing.T) {
	src := `apiVersion: v1
kind: Node
metadata: {name: n1, labels: {rack: r1}}
status: {allocatable: {cpu: "1", pods: "5"}}
---
apiVersion: v1
kind: Pod
metadata: {name: p, labels: {app: a}}
spec:
  topologySpreadConstraints:
  - {maxSkew: 1, topologyKey: rack, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: a}}}
  containers: [{name: c, image: pause}]
`
	sc, err := scenario.Load("rack.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r, err := adapt.NewRun(sc, adapt.DefaultBudget)
	if err != nil {
		t.Fatal(err)
	}
	s := r.Base()
	if s.ZoneKey != "rack" || s.Nodes[0].Zone != "r1" {
		t.Errorf("zone key %q, n1 zone %q; want rack, r1", s.ZoneKey, s.Nodes[0].Zone)
	}
}

// A scene built in slices is the scene SceneAt builds, also when other
// scenes are built while it waits between slices; a yield that says stop
// gives no scene.
func TestSceneAtYieldMatchesSceneAt(t *testing.T) {
	r := simulatedLarge(t, 40, 1300, 120)
	n := len(r.Trace())
	if n < 50 {
		t.Fatalf("only %d events", n)
	}
	for seq := 0; seq < n; seq += n / 25 {
		want := r.SceneAt(seq)
		yields := 0
		got := r.SceneAtYield(seq, func() bool {
			yields++
			r.SceneAt((seq + 7*yields) % n) // playback moving on meanwhile
			return true
		})
		if yields < 2 {
			t.Fatalf("seq %d: yielded %d times over %d pods", seq, yields, len(r.Sim().StateAt(seq).Pods))
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("seq %d: SceneAtYield (-SceneAt +got):\n%s", seq, diff)
		}
	}
	if s := r.SceneAtYield(n-1, func() bool { return false }); s != nil {
		t.Error("a build told to stop returned a scene")
	}
}

// Scenes share the pod lists of cards that did not change with the scene
// built before them, and gather pods in a reused array: a scene must keep
// its content whatever is built after it.
func TestScenesKeepTheirPodsAfterLaterBuilds(t *testing.T) {
	r, ref := simulatedLarge(t, 30, 700, 80), simulatedLarge(t, 30, 700, 80)
	n := len(r.Trace())
	var kept []*ui.Scene
	var seqs []int
	for seq := 0; seq < n; seq += 7 {
		kept, seqs = append(kept, r.SceneAt(seq)), append(seqs, seq)
		r.SceneAtYield((seq*13)%n, func() bool { r.SceneAt((seq * 31) % n); return true })
	}
	shared := 0
	for i, s := range kept {
		if diff := cmp.Diff(ref.SceneAt(seqs[i]), s); diff != "" {
			t.Fatalf("the scene of event %d changed after later builds (-fresh +kept):\n%s", seqs[i], diff)
		}
		if i > 0 && len(s.Nodes) > 0 && len(s.Nodes[0].Pods) > 0 && &s.Nodes[0].Pods[0] == &kept[i-1].Nodes[0].Pods[0] {
			shared++
		}
	}
	if shared == 0 {
		t.Error("no scene shares a card's pods with an earlier one: the test checked no sharing")
	}
}

// The t=0 view and the first event's scene list the nodes and each card's
// pods alike: cards and pods in another order (the scenario's against the
// engine's) had every chip of the cluster glide to a new place as play
// started, and redrawn.
func TestBaseSceneMatchesTheFirstEvent(t *testing.T) {
	// Pod i on node i%12: in the file, node-10 comes after node-9 and pod-12
	// after pod-0; by name and key they do not.
	r := simulatedLarge(t, 12, 100, 5)
	first := r.SceneAt(0)
	if first.Event.Node != "" {
		t.Fatalf("first event %+v changes a node; the test wants one that does not", first.Event)
	}
	base := r.Base()
	if len(base.Nodes) != len(first.Nodes) {
		t.Fatalf("%d nodes at t=0, %d after the first event", len(base.Nodes), len(first.Nodes))
	}
	for i := range base.Nodes {
		if base.Nodes[i].Name != first.Nodes[i].Name {
			t.Fatalf("node %d is %s at t=0, %s after the first event", i, base.Nodes[i].Name, first.Nodes[i].Name)
		}
		if diff := cmp.Diff(base.Nodes[i].Pods, first.Nodes[i].Pods); diff != "" {
			t.Errorf("node %s's pods (-t=0 +first event):\n%s", base.Nodes[i].Name, diff)
		}
	}
}

// Once the run is done, every scene makes room for the most each card and
// the lane hold: the layout keeps its geometry from the t=0 view to the
// end, and only the pods move. Sized scene by scene, a card that gained a
// row pushed the cards below it at nearly every event (800 of 5,000 chips
// moved on average at 500 nodes).
func TestLayoutKeepsItsGeometryWhileTheRunPlays(t *testing.T) {
	r := simulatedLarge(t, 40, 400, 60) // 10 pods a node, 60 pending: cards gain rows
	prev := ui.Arrange(r.SceneAt(-1), 16.0/9)
	for seq := range r.Trace() {
		l := ui.Arrange(r.SceneAt(seq), 16.0/9)
		if !ui.SameGeometry(prev, l) {
			t.Fatalf("the layout changed its geometry at event %d (%+v): bounds %+v -> %+v, lane %+v -> %+v",
				seq, r.Trace()[seq], prev.Bounds, l.Bounds, prev.Queue, l.Queue)
		}
		prev = l
	}
}

// Pods waiting for their first attempt wait in the lane in the file's
// order, the order they enter the queue: with equal priorities, a pod
// entering it moves no other chip (in key order instead, p10 to p19 sat
// between p1 and p2, and each pod entering pushed them along).
func TestLaneKeepsItsOrderAsPodsEnterTheQueue(t *testing.T) {
	text := "apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus: {allocatable: {cpu: \"100\", memory: 100Gi, pods: \"110\"}}\n"
	var want []string
	for i := 0; i < 25; i++ {
		text += fmt.Sprintf("---\napiVersion: v1\nkind: Pod\nmetadata: {name: p%d}\nspec: {containers: [{name: c, image: pause}]}\n", i)
		want = append(want, fmt.Sprintf("default/p%d", i))
	}
	r := simulated(t, "lane.yaml", text)
	queued := 0
	for seq := -1; seq < len(r.Trace()); seq++ {
		if seq >= 0 && r.Trace()[seq].Kind != "Queued" {
			break
		}
		var got []string
		for _, p := range r.SceneAt(seq).Pending {
			got = append(got, p.Key())
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("the lane after event %d (-file order +lane):\n%s", seq, diff)
		}
		queued++
	}
	if queued < 20 {
		t.Fatalf("only %d scenes before the first attempt: the test checked too few", queued)
	}
}

// The spread overlay agrees with Filter: for every example and generated
// spread scenarios, for each scheduling cycle of each pod, the overlay of
// the pod over the cluster the cycle saw rejects the nodes the cycle's
// PodTopologySpread Filter rejected and keeps the nodes that were feasible;
// and at every event, for every pending pod and node, its verdict is the plugin's Filter verdict.
func TestSpreadOverlayAgreesWithFilter(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts[filepath.Base(f)] = string(data)
	}
	for seed := range uint64(20) {
		texts[fmt.Sprintf("spread-gen-%d", seed)] = enginetest.SpreadScenario(seed)
	}
	cycles, nodes, verdicts := 0, 0, 0
	for name, text := range texts {
		r := simulated(t, name, text)
		sim, last := r.Sim(), len(r.Trace())-1
		for seq := -1; seq <= last; seq++ {
			for _, p := range r.SceneAt(seq).Pending {
				overlay, err := r.Spread(seq, p.Key())
				if err != nil {
					t.Fatalf("%s: Spread(%d, %s): %v", name, seq, p.Key(), err)
				}
				if overlay == nil {
					continue
				}
				v, err := sim.SpreadAt(p.Key(), seq)
				if err != nil {
					t.Fatal(err)
				}
				for _, n := range v.Nodes {
					verdicts++
					if got := ui.SpreadFits(overlay, n.Name); got != n.Fits {
						t.Errorf("%s: after event %d, %s on %s: the overlay says fit=%v, Filter %v (%s)", name, seq, p.Key(), n.Name, got, n.Fits, n.Reason)
					}
				}
			}
		}
		for _, key := range podKeys(r) {
			for i := range sim.Attempts(key, last) {
				a, err := sim.ExplainAttempt(key, last, i+1)
				if err != nil {
					t.Fatalf("%s: %s attempt %d: %v", name, key, i+1, err)
				}
				overlay, err := r.Spread(a.Before, key)
				if err != nil {
					t.Fatal(err)
				}
				if overlay == nil {
					continue
				}
				cycles++
				for _, nr := range a.Explanation.Nodes {
					fits := ui.SpreadFits(overlay, nr.Name)
					switch {
					case nr.Feasible && !fits:
						t.Errorf("%s: %s cycle %d: %s was feasible, the overlay rejects it", name, key, a.Number, nr.Name)
					case nr.Plugin == "PodTopologySpread" && fits:
						t.Errorf("%s: %s cycle %d: Filter rejected %s (%v), the overlay fits it", name, key, a.Number, nr.Name, nr.Reasons)
					case nr.Feasible || nr.Plugin == "PodTopologySpread":
						nodes++
					}
				}
			}
		}
	}
	t.Logf("%d cycles, %d of their nodes and %d verdicts agreed", cycles, nodes, verdicts)
	if cycles < 30 || nodes < 100 || verdicts < 200 {
		t.Errorf("too few checks: %d cycles, %d nodes, %d verdicts", cycles, nodes, verdicts)
	}
}

// podKeys are the keys of every pod the run's trace names.
func podKeys(r *adapt.Run) []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range r.Trace() {
		if e.Pod != "" && !seen[e.Pod] {
			seen[e.Pod] = true
			out = append(out, e.Pod)
		}
	}
	return out
}

// Playing a run (its steps, every scene, the spread overlay of every pod)
// never changes the scenario: a scenario.Cache shares one load's pods,
// as admitted, with the next.
func TestRunLeavesItsScenario(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples found: %v", err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c := &scenario.Cache{}
		res := adapt.LoadCached(c, f, src, adapt.DefaultBudget)
		if !res.OK {
			t.Fatalf("%s: %v %s", f, res.Diagnostics, res.Error)
		}
		run := res.Run
		for !run.Step(5) {
		}
		for seq := -1; seq < len(run.Trace()); seq++ {
			run.SceneAt(seq)
			for _, p := range res.Scenario.Pods {
				if _, err := run.Spread(seq, p.Key()); err != nil {
					t.Fatalf("%s: spread of %s: %v", f, p.Key(), err)
				}
			}
		}
		fresh, err := scenario.Load(f, src)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(fresh, res.Scenario, cmp.Exporter(func(reflect.Type) bool { return true })); diff != "" {
			t.Errorf("%s: playing the run changed its scenario (-load +after):\n%s", filepath.Base(f), diff)
		}
	}
}
