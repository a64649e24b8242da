package engine

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/schedplay/schedplay/core/scenario"
)

// genScenario writes a random scenario: priority classes, nodes, bound and
// pending pods, sometimes a Deployment and a timeline.
func genScenario(seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 7))
	var b strings.Builder
	for i, v := range []int{10, 100, 1000} {
		fmt.Fprintf(&b, "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: p%d}\nvalue: %d\n---\n", i, v)
	}
	nodes := 2 + r.IntN(4)
	free := make([]int, nodes)
	for i := range nodes {
		free[i] = 2 + r.IntN(3)
		fmt.Fprintf(&b, "apiVersion: v1\nkind: Node\nmetadata: {name: n%d, labels: {kubernetes.io/hostname: n%d, topology.kubernetes.io/zone: z%d}}\nstatus: {allocatable: {cpu: \"%d\", memory: 8Gi, pods: \"10\"}}\n---\n", i, i, i%2, free[i])
	}
	pods := 3 + r.IntN(10)
	for i := range pods {
		cpu := 1 + r.IntN(2)
		bound := ""
		// Bound pods only where they fit: the input itself must be valid.
		if n := r.IntN(nodes); r.IntN(3) == 0 && free[n] >= cpu {
			free[n] -= cpu
			bound = fmt.Sprintf("  nodeName: n%d\n", n)
		}
		fmt.Fprintf(&b, "apiVersion: v1\nkind: Pod\nmetadata: {name: pod%d}\nspec:\n%s  priorityClassName: p%d\n  terminationGracePeriodSeconds: %d\n  containers: [{name: c, image: pause, resources: {requests: {cpu: \"%d\"}}}]\n---\n",
			i, bound, r.IntN(3), r.IntN(20), cpu)
	}
	if r.IntN(2) == 0 {
		fmt.Fprintf(&b, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: %d\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      priorityClassName: p0\n      containers: [{name: c, image: pause, resources: {requests: {cpu: \"1\"}}}]\n---\n", 1+r.IntN(4))
	}
	b.WriteString("apiVersion: schedplay.dev/v1alpha1\nkind: Timeline\nspec:\n  actions:\n")
	fmt.Fprintf(&b, "  - {at: %ds, cordon: n0}\n", 5+r.IntN(20))
	fmt.Fprintf(&b, "  - {at: %ds, create: {apiVersion: v1, kind: Pod, metadata: {name: late}, spec: {priorityClassName: p2, containers: [{name: c, image: pause, resources: {requests: {cpu: \"2\"}}}]}}}\n", 10+r.IntN(30))
	fmt.Fprintf(&b, "  - {at: %ds, pressure: {node: n1, resource: memory, threshold: soft, evictionMaxPodGracePeriod: 3, limit: 0, usage: {pod0: 1Gi, pod1: 2Gi}}}\n", 20+r.IntN(30))
	fmt.Fprintf(&b, "  - {at: %ds, addNode: {apiVersion: v1, kind: Node, metadata: {name: extra}, status: {allocatable: {cpu: \"4\", pods: \"10\"}}}}\n", 30+r.IntN(60))
	return b.String()
}

func TestProperties(t *testing.T) {
	for seed := uint64(0); seed < 60; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			src := genScenario(seed)
			sc, err := scenario.Load("gen.yaml", []byte(src))
			if err != nil {
				t.Fatalf("load: %v\n%s", err, src)
			}
			sim, err := Simulate(sc, Options{Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			trace := sim.Trace()
			prio := map[string]int32{}
			for _, p := range sim.pods {
				prio[p.pod.Key()] = p.pod.PriorityValue()
			}
			deleted := map[string]bool{}
			for i, e := range trace {
				// No node holds more than its allocatable, terminating pods counted.
				for _, n := range sim.StateAt(i).Nodes {
					if n.Requested.CPU > n.Allocatable.CPU || n.Requested.Pods > n.Allocatable.Pods {
						t.Fatalf("event %d: node %s holds %+v > allocatable %+v", i, n.Name, n.Requested, n.Allocatable)
					}
				}
				if e.Kind == EvNominated {
					for _, v := range e.Victims {
						if prio[v] >= prio[e.Pod] {
							t.Errorf("victim %s (priority %d) not lower than preemptor %s (%d)", v, prio[v], e.Pod, prio[e.Pod])
						}
					}
				}
				if e.Kind == EvDeleted || e.Kind == EvFailed {
					if e.Reason == "" {
						t.Errorf("event %d: %s without a reason", i, e.Kind)
					}
					deleted[e.Pod] = true
				}
			}
			for _, p := range sim.Result().Pods {
				key := p.Namespace + "/" + p.Name
				switch p.Phase {
				case PhaseRunning, PhasePending:
				case PhaseDeleted:
					if !deleted[key] && sim.pods[key].pod.DeletionTimestamp == nil {
						t.Errorf("pod %s is Deleted without a Deleted event", key)
					}
				case PhaseFailed:
					// Only the kubelet's evictions fail pods, and they say so.
					if !deleted[key] || p.Reason != ReasonEvicted {
						t.Errorf("pod %s is Failed (reason %q) without a Failed event", key, p.Reason)
					}
				default:
					t.Errorf("pod %s ends in phase %q", key, p.Phase)
				}
			}
			for _, p := range sc.Pods {
				if sim.pods[p.Key()] == nil {
					t.Errorf("input pod %s is lost", p.Key())
				}
			}
			// Same seed, same trace, byte for byte.
			sc2, _ := scenario.Load("gen.yaml", []byte(src))
			sim2, err := Simulate(sc2, Options{Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			a, _ := json.Marshal(trace)
			b, _ := json.Marshal(sim2.Trace())
			if string(a) != string(b) {
				t.Errorf("same seed, different traces")
			}
		})
	}
}

// TestStateAt checks that scrubbing agrees with the live simulation at
// every event: a run stopped after event i and StateAt(i) of a full run.
func TestStateAtMatchesReplay(t *testing.T) {
	sc, err := scenario.Load("gen.yaml", []byte(genScenario(3)))
	if err != nil {
		t.Fatal(err)
	}
	sim, err := Simulate(sc, Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	last := sim.StateAt(len(sim.Trace()) - 1)
	final := map[string]PodState{}
	for _, p := range last.Pods {
		final[p.Key] = p
	}
	for _, p := range sim.Result().Pods {
		got := final[p.Namespace+"/"+p.Name]
		if got.Phase != p.Phase || got.Node != p.Node || got.NominatedNode != p.NominatedNode {
			t.Errorf("%s/%s: StateAt %+v, result %+v", p.Namespace, p.Name, got, p)
		}
	}
	first := sim.StateAt(0)
	if first.Seq != 0 || len(first.Nodes) == 0 {
		t.Errorf("StateAt(0) = %+v", first)
	}
}

func BenchmarkStateAt(b *testing.B) {
	sc, err := scenario.Load("gen.yaml", []byte(genScenario(5)))
	if err != nil {
		b.Fatal(err)
	}
	sim, err := Simulate(sc, Options{Seed: 5})
	if err != nil {
		b.Fatal(err)
	}
	n := len(sim.Trace())
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sim.StateAt(i % n)
	}
}
