package scenario

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/schedplay/schedplay/internal/benchdata"
)

// BenchmarkLoadPaste is the loader's part of ui/adapt's BenchmarkPaste (a
// newly pasted 500 nodes / 2,000 pods, nothing of it cached), which also
// runs as WebAssembly: ui/adapt's test binary needs a browser.
func BenchmarkLoadPaste(b *testing.B) {
	c := &Cache{}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		text := benchdata.Paste(500, 2000, fmt.Sprintf("p%d-", i))
		b.StartTimer()
		if _, err := c.Load("s.yaml", text); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCacheEditOnePod is the loader's part of ui/adapt's
// BenchmarkEditOnePod (one pod's cpu request changed in 500 nodes / 5,000
// pods, the copies made ahead), which also runs as WebAssembly.
func BenchmarkCacheEditOnePod(b *testing.B) {
	text := benchdata.Paste(500, 5000, "pod-")
	c := &Cache{}
	if _, err := c.Load("s.yaml", text); err != nil {
		b.Fatal(err)
	}
	at := bytes.Index(text, []byte("name: pod-2500,"))
	at += bytes.Index(text[at:], []byte("cpu: 100m")) + len("cpu: ")
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		c.Prepare()
		edited := slices.Concat(text[:at], fmt.Appendf(nil, "%dm", 101+i%2), text[at+len("100m"):])
		b.StartTimer()
		if _, err := c.Load("s.yaml", edited); err != nil {
			b.Fatal(err)
		}
	}
}
