package scenario

import (
	"fmt"
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
