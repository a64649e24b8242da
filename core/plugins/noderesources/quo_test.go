package noderesources

import (
	"math"
	"testing"
)

// quo must equal Go's 64-bit division for every operand, on both sides of
// the 32-bit shortcut, negative values and the extremes included.
func TestQuoMatchesDivision(t *testing.T) {
	values := []int64{0, 1, 2, 3, 7, 99, 100, 101, 1000, 31_999, 32_000, 3_200_000,
		1<<31 - 1, 1 << 31, 1<<32 - 1, 1 << 32, 1<<32 + 1, 64 << 30, 6_871_947_673_600,
		math.MaxInt64, -1, -100, -(1 << 32), math.MinInt64 + 1}
	n := 0
	for _, a := range values {
		for _, b := range values {
			if b == 0 {
				continue
			}
			if got, want := quo(a, b), a/b; got != want {
				t.Errorf("quo(%d, %d) = %d, want %d", a, b, got, want)
			}
			n++
		}
	}
	if n < 500 {
		t.Fatalf("checked %d pairs", n)
	}
}
