// Command liveheap prints the live heap (what a collection has to mark:
// in js/wasm one task's work, docs/performance-web.md) that the page's
// loads leave, natively, split into the loader's cache and the runs: a
// 1 MB load of 500 nodes / 4,332 pods at its t=0 view and at its run's
// end, and an edit of one pod in 500 nodes / 5,000 pods with the old run
// kept beside the new one, as ui/session keeps it while the edit loads.
//
//	go run ./scripts/liveheap
package main

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"strings"

	"github.com/schedplay/schedplay/core/scenario"
	"github.com/schedplay/schedplay/ui/adapt"
)

// cluster is the benches' scenario (web/bench/scenarios.mjs): nodes in 3
// zones and pending pods of 20 apps.
func cluster(nodes, pods int, prefix string) string {
	var b strings.Builder
	for i := range nodes {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Node\nmetadata: {name: node-%d, labels: {topology.kubernetes.io/zone: zone-%d}}\nstatus: {allocatable: {cpu: \"16\", memory: 64Gi, pods: \"110\"}}\n", i, i%3)
	}
	for i := range pods {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Pod\nmetadata: {name: %s%d, labels: {app: app-%d, tier: backend}}\nspec:\n  containers: [{name: c, image: registry.example/app-%d:1.0, resources: {requests: {cpu: 100m, memory: 128Mi}}}]\n", prefix, i, i%20, i%20)
	}
	return b.String()
}

// What the page holds, in package variables so that nothing the compiler
// sees as dead is counted or dropped early.
var (
	cache scenario.Cache
	runs  []*adapt.Run
)

func live(label string) {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/scan/heap:bytes"}}
	metrics.Read(s)
	fmt.Printf("%-48s live %6.1f MB, scannable %6.1f MB\n", label, float64(s[0].Value.Uint64())/1e6, float64(s[1].Value.Uint64())/1e6)
}

func load(text string, prev *adapt.Run) *adapt.Run {
	res := adapt.LoadOver(prev, &cache, "scenario.yaml", []byte(text), adapt.DefaultBudget, nil)
	if !res.OK {
		panic(fmt.Sprintf("the scenario did not load: %s %v", res.Error, res.Diagnostics))
	}
	return res.Run
}

func main() {
	runs = []*adapt.Run{load(cluster(500, 4332, "q-"), nil)}
	live("1 MB loaded (cache, run at t=0)")
	for !runs[0].Step(50) {
	}
	live("1 MB run to its end (cache, run)")
	runs = nil
	live("  the cache alone")
	cache = scenario.Cache{}

	text := cluster(500, 5000, "pod-")
	runs = []*adapt.Run{load(text, nil)}
	for !runs[0].Step(50) {
	}
	live("5,000 pods run to its end (cache, run)")
	edited := strings.Replace(text, "pod-2500, labels: {app: app-0, tier: backend}}\nspec:\n  containers: [{name: c, image: registry.example/app-0:1.0, resources: {requests: {cpu: 100m",
		"pod-2500, labels: {app: app-0, tier: backend}}\nspec:\n  containers: [{name: c, image: registry.example/app-0:1.0, resources: {requests: {cpu: 105m", 1)
	if edited == text {
		panic("the edit found no pod-2500 to change")
	}
	runs = append(runs, load(edited, runs[0]))
	live("one pod edited, at t=0 (cache, old and new run)")
	runs = []*adapt.Run{runs[1]}
	live("  without the old run")
	cache = scenario.Cache{}
	live("  the new run alone")
}
