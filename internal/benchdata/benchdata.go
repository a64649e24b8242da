// Package benchdata writes the generated scenarios that benchmarks of
// several packages load, so that they measure the same text as the page's
// benchmarks (web/bench/longtasks.mjs).
package benchdata

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
)

// Paste is web/bench/longtasks.mjs's paste: nodes nodes in 3 zones and
// pods pending pods of 20 apps, in flow style, one object per document,
// the pods' names prefixed with prefix.
func Paste(nodes, pods int, prefix string) []byte {
	var b []byte
	for i := range nodes {
		b = fmt.Appendf(b, "---\napiVersion: v1\nkind: Node\nmetadata: {name: node-%d, labels: {topology.kubernetes.io/zone: zone-%d}}\nstatus: {allocatable: {cpu: \"16\", memory: 64Gi, pods: \"110\"}}\n", i, i%3)
	}
	for i := range pods {
		b = fmt.Appendf(b, "---\napiVersion: v1\nkind: Pod\nmetadata: {name: %s%d, labels: {app: app-%d, tier: backend}}\nspec:\n  containers: [{name: c, image: registry.example/app-%d:1.0, resources: {requests: {cpu: 100m, memory: 128Mi}}}]\n", prefix, i, i%20, i%20)
	}
	return b
}

// EditOnePod is web/bench/longtasks.mjs's edit of a Paste with the prefix
// "pod-": pod-2500's cpu request (100m) changed to 101m or 102m (by the
// parity of i), so that consecutive edits differ.
func EditOnePod(text []byte, i int) []byte {
	at := bytes.Index(text, []byte("name: pod-2500,"))
	at += bytes.Index(text[at:], []byte("cpu: 100m")) + len("cpu: ")
	return slices.Concat(text[:at], fmt.Appendf(nil, "%dm", 101+i%2), text[at+len("100m"):])
}

// EditEach is b's loop over EditOnePod's edits of text: prepare before
// each edit, untimed (the copies a Cache makes ahead), then load it.
func EditEach(b *testing.B, text []byte, prepare func(), load func(edited []byte)) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		prepare()
		edited := EditOnePod(text, i)
		b.StartTimer()
		load(edited)
	}
}
