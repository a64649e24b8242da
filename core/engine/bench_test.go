package engine

import (
	"fmt"
	"testing"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
	"github.com/schedplay/schedplay/core/scenario"
	"github.com/schedplay/schedplay/core/scheduler"
)

// benchScenario is scheduler_perf's SchedulingBasic shape: nodes spread
// over 3 zones, some pods already running, many pending pods with small
// requests. spread adds a zone DoNotSchedule constraint to every pending pod.
func benchScenario(nodes, running, pending int, spread bool) *scenario.Scenario {
	sc := &scenario.Scenario{Config: config.Default(), T0: scenario.DefaultT0}
	for i := 0; i < nodes; i++ {
		sc.Nodes = append(sc.Nodes, st.MakeNode().Name(fmt.Sprintf("node-%05d", i)).Zone(fmt.Sprintf("zone-%d", i%3)).
			Capacity(map[string]string{"cpu": "32", "memory": "64Gi", "pods": "110"}).Obj())
	}
	for i := 0; i < running; i++ {
		sc.Pods = append(sc.Pods, st.MakePod().Name(fmt.Sprintf("init-%05d", i)).Label("app", "init").Node(fmt.Sprintf("node-%05d", i%nodes)).
			Req(map[string]string{"cpu": "100m", "memory": "500Mi"}).Obj())
	}
	for i := 0; i < pending; i++ {
		w := st.MakePod().Name(fmt.Sprintf("pod-%05d", i)).Label("app", "bench").Req(map[string]string{"cpu": "100m", "memory": "500Mi"})
		if spread {
			w.SpreadConstraint(1, api.LabelTopologyZone, api.DoNotSchedule, st.LabelSelector(map[string]string{"app": "bench"}), nil, nil, nil, nil)
		}
		sc.Pods = append(sc.Pods, w.Obj())
	}
	return sc
}

// BenchmarkScheduleOneCycle5000Nodes times one real cycle (with upstream's
// node sampling: 10% of 5000 nodes) and reports the cost per node filtered.
func BenchmarkScheduleOneCycle5000Nodes(b *testing.B) {
	sc := benchScenario(5000, 5000, 1, false)
	c := BuildCluster(sc, sc.Pods)
	fwk, err := NewFramework(&sc.Config.Profiles[0], c)
	if err != nil {
		b.Fatal(err)
	}
	s := &scheduler.Scheduler{Framework: fwk}
	pod := sc.Pods[len(sc.Pods)-1]
	var evaluated int
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := s.SchedulePod(scheduler.Cycle{}, framework.NewCycleState(), pod, c.Snapshot)
		if err != nil {
			b.Fatal(err)
		}
		evaluated += res.EvaluatedNodes
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(evaluated), "ns/node")
}

// BenchmarkExplain5000Nodes times explain, which filters every node and
// scores every feasible one.
func BenchmarkExplain5000Nodes(b *testing.B) {
	sc := benchScenario(5000, 5000, 1, false)
	key := sc.Pods[len(sc.Pods)-1].Key()
	b.ReportAllocs()
	b.ResetTimer() // building the scenario is not explaining
	for i := 0; i < b.N; i++ {
		if _, err := Explain(sc, key); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(5000*b.N), "ns/node")
}

func benchSimulate(b *testing.B, spread bool) {
	const pending = 10000
	sc := benchScenario(5000, 1000, pending, spread)
	b.ReportAllocs()
	// CPU time, besides wall time, because on a shared machine it moves
	// far less. Read before the timer: in WebAssembly it is a file read.
	cpu0, th0 := processCPU(), threadCPU()
	b.ResetTimer() // building the scenario (quantity parsing) is not scheduling
	for i := 0; i < b.N; i++ {
		sim, err := Simulate(sc, Options{MaxEvents: 10 * pending})
		if err != nil {
			b.Fatal(err)
		}
		if i == 0 {
			running := 0
			for _, p := range sim.Result().Pods {
				if p.Phase == PhaseRunning {
					running++
				}
			}
			if running != 1000+pending {
				b.Fatalf("%d pods running, want %d", running, 1000+pending)
			}
		}
	}
	b.ReportMetric(float64(pending*b.N)/b.Elapsed().Seconds(), "pods/s")
	if cpu := processCPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(pending*b.N)/cpu.Seconds(), "pods/cpu-s")
	}
	// The thread running Go (WebAssembly only): the engine's own work,
	// its collector included, without V8's compiler threads.
	if cpu := threadCPU() - th0; cpu > 0 {
		b.ReportMetric(float64(pending*b.N)/cpu.Seconds(), "pods/thread-cpu-s")
	}
}

// BenchmarkSimulate10000PodsOn5000Nodes is scheduler_perf's
// SchedulingBasic 5000Nodes_10000Pods (upstream threshold: 680 pods/s).
func BenchmarkSimulate10000PodsOn5000Nodes(b *testing.B) { benchSimulate(b, false) }

// BenchmarkSimulate10000PodsOn5000NodesZoneSpread adds a zone spread
// constraint to every pod (upstream's TopologySpreading threshold: 460 pods/s).
func BenchmarkSimulate10000PodsOn5000NodesZoneSpread(b *testing.B) { benchSimulate(b, true) }

// BenchmarkStartSimulation5000Pods is BenchmarkNewSimulation5000Pods up
// to the t=0 state (ui/adapt's start: the pods are queued as the first
// steps).
func BenchmarkStartSimulation5000Pods(b *testing.B) {
	sc := benchScenario(500, 0, 5000, false)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := StartSimulation(sc, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNewSimulation5000Pods is starting the simulation of ui/adapt's
// BenchmarkEditOnePod (500 nodes, 5,000 pending pods): what a load does
// before its t=0 scene. It also runs as WebAssembly.
func BenchmarkNewSimulation5000Pods(b *testing.B) {
	sc := benchScenario(500, 0, 5000, false)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewSimulation(sc, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckpointRows is one checkpoint's copy of the state log's rows
// (the run's first event and every checkpointEvery events make one) at
// 5,000 nodes and 11,000 pods. It also runs as WebAssembly.
func BenchmarkCheckpointRows(b *testing.B) {
	sim, err := NewSimulation(benchScenario(5000, 1000, 10000, false), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if c := sim.log.cur.clone(); len(c.pods) != 11000 {
			b.Fatalf("%d pod rows, want 11000", len(c.pods))
		}
	}
}
