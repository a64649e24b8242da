package adapt

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedplay/schedplay/ui"
)

// TestLaneKeepsTheTakenOrder checks the lane's chips come out in the
// order taken, each once, whether every chip was taken (put in order in
// place) or some were not.
func TestLaneKeepsTheTakenOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 3, 7, 64, 513} {
		for _, all := range []bool{true, false} {
			w := waitingPods{at: map[string]int32{}}
			keys := make([]string, n)
			for i := range keys {
				keys[i] = fmt.Sprintf("ns/p%d", i)
				w.put(keys[i], ui.Pod{Namespace: "ns", Name: fmt.Sprintf("p%d", i)})
			}
			perm := rng.Perm(n)
			if !all && n > 0 {
				perm = perm[:n/2]
			}
			var want []string
			for _, i := range perm {
				w.take(keys[i])
				w.take(keys[i]) // a second take puts nothing
				want = append(want, keys[i])
			}
			var got []string
			for _, vp := range w.lane() {
				got = append(got, vp.Namespace+"/"+vp.Name)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%d chips, all taken %v: lane %v, want %v", n, all, got, want)
			}
		}
	}
}
