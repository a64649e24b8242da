package upstream

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	compbasemetrics "k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/testutil"
	"k8s.io/kubernetes/pkg/scheduler/metrics"

	"github.com/schedplay/schedplay/conformance/contract"
	"github.com/schedplay/schedplay/conformance/internal/scenario"
)

func load(t *testing.T, file string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func node(t *testing.T, ex *contract.Explain, name string) contract.NodeResult {
	t.Helper()
	for _, n := range ex.Nodes {
		if n.Name == name {
			return n
		}
	}
	t.Fatalf("no node %s in %+v", name, ex.Nodes)
	return contract.NodeResult{}
}

// testdata/preempt-pdb.yaml: node-a (2 cpu, empty), node-b (8 cpu, tainted
// dedicated=gpu:NoSchedule), node-c (4 cpu, runs low-1: 3 cpu, priority 100, covered by a
// PDB with minAvailable 1). "big" (3 cpu, priority 1000) fits nowhere:
//   - node-a: 3 cpu > 2 allocatable: NodeResourcesFit "Insufficient cpu"
//     (UnschedulableAndUnresolvable: preemption cannot help there);
//   - node-b: TaintToleration runs before NodeResourcesFit;
//   - node-c: 1 cpu free: NodeResourcesFit "Insufficient cpu" (Unschedulable).
//
// Preemption: only node-c is a candidate; its one lower-priority pod is the victim and
// evicting it violates the PDB (1 healthy, 1 desired -> 0 disruptions allowed).
// The preemption succeeds, so the message has no PostFilter part.
func TestExplainPreemptionWithPDB(t *testing.T) {
	ex, err := Explain(load(t, "../../testdata/preempt-pdb.yaml"), "default/big")
	if err != nil {
		t.Fatal(err)
	}
	if n := node(t, ex, "node-a"); n.Feasible || n.Plugin != "NodeResourcesFit" || !reflect.DeepEqual(n.Reasons, []string{"Insufficient cpu"}) {
		t.Errorf("node-a: %+v", n)
	}
	if n := node(t, ex, "node-b"); n.Feasible || n.Plugin != "TaintToleration" || !reflect.DeepEqual(n.Reasons, []string{"node(s) had untolerated taint(s)"}) {
		t.Errorf("node-b: %+v", n)
	}
	if n := node(t, ex, "node-c"); n.Feasible || n.Plugin != "NodeResourcesFit" {
		t.Errorf("node-c: %+v", n)
	}
	if want := "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu."; ex.Message != want {
		t.Errorf("message %q, want %q", ex.Message, want)
	}
	want := &contract.Preemption{
		Candidates: map[string]contract.Candidate{"node-c": {Victims: []string{"default/low-1"}, PDBViolations: 1}},
		Nominated:  []string{"node-c"},
	}
	if !reflect.DeepEqual(ex.Preemption, want) {
		b, _ := json.Marshal(ex.Preemption)
		t.Errorf("preemption %s", b)
	}
	if len(ex.Selected) != 0 {
		t.Errorf("selected %v", ex.Selected)
	}
}

// "small" (1 cpu, no memory request, priority 0) fits node-a and node-c. NodeResourcesFit
// LeastAllocated counts the non-zero default memory request (200Mi) for a container
// without one: node-a cpu (2000-1000)/2000 = 50, memory (4096-200)/4096 = 95 -> 72;
// node-c cpu (4000-4000)/4000 = 0, memory (8192-400)/8192 = 95 -> 47.
// TaintToleration gives 100 (weight 3) to both; node-a wins.
func TestExplainScores(t *testing.T) {
	ex, err := Explain(load(t, "../../testdata/preempt-pdb.yaml"), "default/small")
	if err != nil {
		t.Fatal(err)
	}
	a, c := node(t, ex, "node-a"), node(t, ex, "node-c")
	if !a.Feasible || a.Scores["NodeResourcesFit"] != 72 || a.Scores["TaintToleration"] != 100 {
		t.Errorf("node-a %+v", a)
	}
	if !c.Feasible || c.Scores["NodeResourcesFit"] != 47 {
		t.Errorf("node-c %+v", c)
	}
	if *a.Total != 72+3*100+a.Scores["NodeResourcesBalancedAllocation"] {
		t.Errorf("node-a total %d", *a.Total)
	}
	if !reflect.DeepEqual(ex.Selected, []string{"node-a"}) || ex.Preemption != nil || ex.Message != "" {
		t.Errorf("selected %v preemption %v message %q", ex.Selected, ex.Preemption, ex.Message)
	}
}

// testdata/unschedulable.yaml: n1 2 cpu, n2 tainted, n3 without allocatable pods.
// A 3-cpu pod exceeds every node's allocatable (UnschedulableAndUnresolvable), so no
// node is a preemption candidate; DynamicResources' PostFilter speaks first.
func TestExplainMessages(t *testing.T) {
	sc := load(t, "../../testdata/unschedulable.yaml")
	cases := []struct {
		pod, msg string
		pre      *contract.Preemption
	}{
		{"default/huge", "0/3 nodes are available: 1 Too many pods, 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
			&contract.Preemption{Candidates: map[string]contract.Candidate{}, Nominated: []string{}}},
		{"default/polite", "0/3 nodes are available: 1 Too many pods, 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: not eligible due to preemptionPolicy=Never.", nil},
		{"default/sel", "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 node(s) didn't match Pod's node affinity/selector. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
			&contract.Preemption{Candidates: map[string]contract.Candidate{}, Nominated: []string{}}},
	}
	for _, c := range cases {
		ex, err := Explain(sc, c.pod)
		if err != nil {
			t.Fatal(err)
		}
		if ex.Message != c.msg {
			t.Errorf("%s: message\n got %q\nwant %q", c.pod, ex.Message, c.msg)
		}
		if !reflect.DeepEqual(ex.Preemption, c.pre) {
			t.Errorf("%s: preemption %+v", c.pod, ex.Preemption)
		}
	}
	n3 := node(t, mustExplain(t, sc, "default/huge"), "n3")
	if !reflect.DeepEqual(n3.Reasons, []string{"Too many pods", "Insufficient cpu"}) {
		t.Errorf("n3 reasons %v", n3.Reasons)
	}
}

func mustExplain(t *testing.T, sc *scenario.Scenario, pod string) *contract.Explain {
	ex, err := Explain(sc, pod)
	if err != nil {
		t.Fatal(err)
	}
	return ex
}

func TestExplainRejectsBoundOrUnknownPod(t *testing.T) {
	sc := load(t, "../../testdata/preempt-pdb.yaml")
	for _, p := range []string{"default/low-1", "default/nope"} {
		if _, err := Explain(sc, p); err == nil {
			t.Errorf("%s accepted", p)
		}
	}
}

// Simulate: big (priority 1000) goes first, preempts low-1 on node-c and is bound there
// once low-1's 30 s grace period is over; small goes to node-a.
func TestSimulatePreemption(t *testing.T) {
	got, err := Simulate(load(t, "../../testdata/preempt-pdb.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want := []contract.SimPod{
		{Namespace: "default", Name: "big", Phase: "Running", Node: "node-c"},
		{Namespace: "default", Name: "low-1", Phase: "Deleted", Node: "node-c"},
		{Namespace: "default", Name: "small", Phase: "Running", Node: "node-a"},
	}
	if !reflect.DeepEqual(got.Pods, want) || len(got.Ambiguities) != 0 {
		t.Errorf("got %+v", got)
	}
}

func TestSimulateUnschedulableStaysPending(t *testing.T) {
	got, err := Simulate(load(t, "../../testdata/unschedulable.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range got.Pods {
		if p.Phase != "Pending" || p.Node != "" {
			t.Errorf("%+v", p)
		}
	}
}

// testdata/finished-pods.yaml: the scheduler never lists Succeeded or Failed pods (the
// informer's field selector; see initialObjects), so web fits on node-a beside
// two finished pods of 900m each, and the finished pods keep their phases.
func TestFinishedPodsAreNotListed(t *testing.T) {
	sc := load(t, "../../testdata/finished-pods.yaml")
	ex, err := Explain(sc, "default/web")
	if err != nil {
		t.Fatal(err)
	}
	if n := node(t, ex, "node-a"); !n.Feasible || !reflect.DeepEqual(ex.Selected, []string{"node-a"}) {
		t.Errorf("node-a: %+v, selected %v", n, ex.Selected)
	}
	if _, err := Explain(sc, "default/report-x"); err == nil {
		t.Error("explain of a finished pod accepted")
	}
	got, err := Simulate(sc)
	if err != nil {
		t.Fatal(err)
	}
	want := []contract.SimPod{
		{Namespace: "default", Name: "backup-29000001-abcde", Phase: "Succeeded", Node: "node-a"},
		{Namespace: "default", Name: "backup-29000002-fghij", Phase: "Failed", Node: "node-a"},
		{Namespace: "default", Name: "report-x", Phase: "Failed"},
		{Namespace: "default", Name: "web", Phase: "Running", Node: "node-a"},
	}
	if !reflect.DeepEqual(got.Pods, want) {
		t.Errorf("got %+v\nwant %+v", got.Pods, want)
	}
}

// batchCounter reads one of upstream's process-wide batching counters.
func batchCounter(t *testing.T, vec *compbasemetrics.CounterVec, label string) float64 {
	t.Helper()
	v, err := testutil.GetCounterMetricValue(vec.WithLabelValues("default-scheduler", label))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// testdata/batch.yaml: 6 identical signable pods, one per node. Each pod after
// the first takes the next node of the previous pod's ranking
// (OpportunisticBatching). Upstream ages that ranking on the wall clock
// (500 ms); the harness ages it on the simulated clock, so a run whose cycles
// take 150 ms each (900 ms in all) still reuses it for every pod and ends as a
// fast run does.
func TestSimulateBatchAgesOnSimulatedClock(t *testing.T) {
	sc := load(t, "../../testdata/batch.yaml")
	metrics.Register() // as scheduler.New does, once per process
	used := batchCounter(t, metrics.BatchAttemptStats, metrics.BatchAttemptHintUsed)
	expired := batchCounter(t, metrics.BatchCacheFlushed, metrics.BatchFlushExpired)
	slow, err := simulate(sc, 150*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if n := batchCounter(t, metrics.BatchAttemptStats, metrics.BatchAttemptHintUsed) - used; n != 5 {
		t.Errorf("%v pods placed by a hint, want 5", n)
	}
	if n := batchCounter(t, metrics.BatchCacheFlushed, metrics.BatchFlushExpired) - expired; n != 0 {
		t.Errorf("%v rankings expired, want 0", n)
	}
	fast, err := Simulate(load(t, "../../testdata/batch.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(slow.Pods, fast.Pods) {
		t.Errorf("slow run %+v\nfast run %+v", slow.Pods, fast.Pods)
	}
	nodes := map[string]bool{}
	for _, p := range fast.Pods {
		if p.Phase != "Running" || nodes[p.Node] {
			t.Errorf("%s: %s on %q, want Running, one pod per node", p.Name, p.Phase, p.Node)
		}
		nodes[p.Node] = true
	}
}
