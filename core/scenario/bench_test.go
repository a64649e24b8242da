package scenario

import (
	"fmt"
	"testing"
)

// benchCluster is web/bench/longtasks.mjs's and ui/adapt's paste: nodes
// nodes in 3 zones and pods pending pods of 20 apps, written in flow style,
// the pods' names prefixed with prefix.
func benchCluster(nodes, pods int, prefix string) []byte {
	var b []byte
	for i := range nodes {
		b = fmt.Appendf(b, "---\napiVersion: v1\nkind: Node\nmetadata: {name: node-%d, labels: {topology.kubernetes.io/zone: zone-%d}}\nstatus: {allocatable: {cpu: \"16\", memory: 64Gi, pods: \"110\"}}\n", i, i%3)
	}
	for i := range pods {
		b = fmt.Appendf(b, "---\napiVersion: v1\nkind: Pod\nmetadata: {name: %s%d, labels: {app: app-%d, tier: backend}}\nspec:\n  containers: [{name: c, image: registry.example/app-%d:1.0, resources: {requests: {cpu: 100m, memory: 128Mi}}}]\n", prefix, i, i%20, i%20)
	}
	return b
}

// BenchmarkLoadPaste is the loader's part of ui/adapt's BenchmarkPaste (a
// newly pasted 500 nodes / 2,000 pods, nothing of it cached), which also
// runs as WebAssembly: ui/adapt's test binary needs a browser.
func BenchmarkLoadPaste(b *testing.B) {
	c := &Cache{}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		text := benchCluster(500, 2000, fmt.Sprintf("p%d-", i))
		b.StartTimer()
		if _, err := c.Load("s.yaml", text); err != nil {
			b.Fatal(err)
		}
	}
}
