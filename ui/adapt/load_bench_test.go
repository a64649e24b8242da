package adapt_test

import (
	"fmt"
	"testing"

	"github.com/schedplay/schedplay/core/scenario"
	"github.com/schedplay/schedplay/ui/adapt"
)

// BenchmarkEditPath is the bridge's load of an edit at 50 nodes / 300 pods
// (web/bench/figures.mjs): the cached load with the copies made ahead
// (Prepare runs after the previous edit's frame, outside the timing) and
// the run's set-up (Load prepares the run and builds its t=0 scene).
func BenchmarkEditPath(b *testing.B) {
	text := largeScenario(50, 300, 30)
	c := &scenario.Cache{}
	if res := adapt.LoadCached(c, "s.yaml", []byte(text), adapt.DefaultBudget); !res.OK {
		b.Fatal(res.Diagnostics, res.Error)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		c.Prepare()
		edited := fmt.Appendf([]byte(text), "---\napiVersion: v1\nkind: Pod\nmetadata: {name: x%d}\nspec:\n  containers: [{name: c, image: pause}]\n", i)
		b.StartTimer()
		if res := adapt.LoadCached(c, "s.yaml", edited, adapt.DefaultBudget); !res.OK {
			b.Fatal(res.Diagnostics, res.Error)
		}
	}
}

// pasteScenario is web/bench/longtasks.mjs's paste: nodes nodes in 3
// zones and pods pending pods of 20 apps, the names prefixed with prefix.
func pasteScenario(nodes, pods int, prefix string) []byte {
	var b []byte
	for i := range nodes {
		b = fmt.Appendf(b, "---\napiVersion: v1\nkind: Node\nmetadata: {name: node-%d, labels: {topology.kubernetes.io/zone: zone-%d}}\nstatus: {allocatable: {cpu: \"16\", memory: 64Gi, pods: \"110\"}}\n", i, i%3)
	}
	for i := range pods {
		b = fmt.Appendf(b, "---\napiVersion: v1\nkind: Pod\nmetadata: {name: %s%d, labels: {app: app-%d, tier: backend}}\nspec:\n  containers: [{name: c, image: registry.example/app-%d:1.0, resources: {requests: {cpu: 100m, memory: 128Mi}}}]\n", prefix, i, i%20, i%20)
	}
	return b
}

// BenchmarkPaste is the bridge's load of a newly pasted 500 nodes / 2,000
// pods (web/bench/longtasks.mjs): nothing of it is in the cache.
func BenchmarkPaste(b *testing.B) {
	c := &scenario.Cache{}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		text := pasteScenario(500, 2000, fmt.Sprintf("p%d-", i))
		b.StartTimer()
		if res := adapt.LoadCached(c, "s.yaml", text, adapt.DefaultBudget); !res.OK {
			b.Fatal(res.Diagnostics, res.Error)
		}
	}
}
