package scenario

import (
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
	benchdata.EditEach(b, text, c.Prepare, func(edited []byte) {
		if _, err := c.Load("s.yaml", edited); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkCacheSameComment is Same deciding that a comment line added at
// the end of 500 nodes / 5,000 pods keeps the last scenario (ui/adapt's
// BenchmarkEditComment without the rest), which also runs as WebAssembly.
func BenchmarkCacheSameComment(b *testing.B) {
	text := benchdata.Paste(500, 5000, "pod-")
	c := &Cache{}
	last, err := c.Load("s.yaml", text)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		edited := fmt.Appendf(slices.Clip(text), "# edit %d\n", i)
		b.StartTimer()
		if c.Same("s.yaml", edited) != last {
			b.Fatal("the comment did not keep the scenario")
		}
	}
}

// BenchmarkCacheEditMovesAll is an edit above every document of 500 nodes
// / 5,000 pods (a comment line at the top, there and gone by turns): each
// document moved, so its positions differ and it is parsed and read again.
func BenchmarkCacheEditMovesAll(b *testing.B) {
	text := benchdata.Paste(500, 5000, "pod-")
	c := &Cache{}
	if _, err := c.Load("s.yaml", text); err != nil {
		b.Fatal(err)
	}
	moved := append([]byte("# a note\n"), text...)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		edited := text
		if i%2 == 0 {
			edited = moved
		}
		if _, err := c.Load("s.yaml", edited); err != nil {
			b.Fatal(err)
		}
	}
}
