package adapt_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/schedplay/schedplay/core/scenario"
	"github.com/schedplay/schedplay/internal/benchdata"
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

// BenchmarkPaste is the bridge's load of a newly pasted 500 nodes / 2,000
// pods (web/bench/longtasks.mjs): nothing of it is in the cache.
func BenchmarkPaste(b *testing.B) {
	c := &scenario.Cache{}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		text := benchdata.Paste(500, 2000, fmt.Sprintf("p%d-", i))
		b.StartTimer()
		if res := adapt.LoadCached(c, "s.yaml", text, adapt.DefaultBudget); !res.OK {
			b.Fatal(res.Diagnostics, res.Error)
		}
	}
}

// BenchmarkEditOnePod is web/bench/longtasks.mjs's edit: one pod's cpu
// request changed in 500 nodes / 5,000 pods, loaded through the Cache with
// the copies made ahead (Prepare, after the previous edit's frame).
func BenchmarkEditOnePod(b *testing.B) {
	text := benchdata.Paste(500, 5000, "pod-")
	c := &scenario.Cache{}
	if res := adapt.LoadCached(c, "s.yaml", text, adapt.DefaultBudget); !res.OK {
		b.Fatal(res.Diagnostics, res.Error)
	}
	benchdata.EditEach(b, text, c.Prepare, func(edited []byte) {
		if res := adapt.LoadCached(c, "s.yaml", edited, adapt.DefaultBudget); !res.OK {
			b.Fatal(res.Diagnostics, res.Error)
		}
	})
}

// loaded5000 is the 500 nodes / 5,000 pods the edits are made in, loaded
// through a Cache: its text, the Cache and the run.
func loaded5000(b *testing.B) ([]byte, *scenario.Cache, *adapt.Run) {
	text := benchdata.Paste(500, 5000, "pod-")
	c := &scenario.Cache{}
	res := adapt.LoadCached(c, "s.yaml", text, adapt.DefaultBudget)
	if !res.OK {
		b.Fatal(res.Diagnostics, res.Error)
	}
	return text, c, res.Run
}

// BenchmarkEditOnePodOverRun is BenchmarkEditOnePod as the page loads it:
// over the run of the text before (LoadOver), which first asks the Cache
// whether the edit moved nothing (Same).
func BenchmarkEditOnePodOverRun(b *testing.B) {
	text, c, run := loaded5000(b)
	benchdata.EditEach(b, text, c.Prepare, func(edited []byte) {
		res := adapt.LoadOver(run, c, "s.yaml", edited, adapt.DefaultBudget, nil)
		if !res.OK || res.Kept {
			b.Fatal("the edit did not load", res.Diagnostics, res.Error)
		}
		run = res.Run
	})
}

// BenchmarkEditComment is web/bench/longtasks.mjs's other edit: a comment
// line added at the end of 500 nodes / 5,000 pods, which keeps the run.
func BenchmarkEditComment(b *testing.B) {
	text, c, run := loaded5000(b)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		c.Prepare()
		edited := fmt.Appendf(slices.Clip(text), "# edit %d\n", i)
		b.StartTimer()
		if res := adapt.LoadOver(run, c, "s.yaml", edited, adapt.DefaultBudget, nil); !res.OK || !res.Kept {
			b.Fatal("the run is not kept", res.Diagnostics, res.Error)
		}
	}
}
