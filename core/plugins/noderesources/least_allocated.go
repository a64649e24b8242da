package noderesources

import (
	"math"
	"math/bits"

	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
)

// leastResourceScorer favours nodes with more room left: per resource
// (capacity-requested)*100/capacity, weighted and averaged.
func leastResourceScorer(resources []config.ResourceSpec) func(requested, allocated, allocatable []int64) int64 {
	return weightedScorer(resources, leastRequestedScore)
}

// leastRequestedScore is 0 for an overcommitted resource.
func leastRequestedScore(requested, capacity int64) int64 {
	if capacity == 0 || requested > capacity {
		return 0
	}
	return mulDiv(capacity-requested, framework.MaxNodeScore, capacity)
}

// mulDiv is a*m/b for non-negative a, m and b > 0, as upstream's int64
// arithmetic computes it, except that a*m past int64 (a node's capacity
// near 2^63) is held in 128 bits instead of wrapping into a score outside
// 0..100.
func mulDiv(a, m, b int64) int64 {
	if uint64(a) <= math.MaxInt64/uint64(m) { // unsigned: see quo
		return quo(a*m, b)
	}
	hi, lo := bits.Mul64(uint64(a), uint64(m))
	q, _ := bits.Div64(hi, lo, uint64(b)) // hi < b: a <= b and m < 2^63
	return int64(q)
}

// quo is a / b. When both are non-negative and fit in 32 bits (millicores,
// a weighted sum of scores) it divides in 32 bits, which the CPU does
// several times faster than a 64-bit division; the quotient is the same.
// Other non-negative operands (bytes of memory) divide unsigned: in
// WebAssembly a signed 64-bit division is a runtime call (it checks
// MinInt64 / -1) and an unsigned one an instruction.
func quo(a, b int64) int64 {
	if uint64(a)|uint64(b) < 1<<32 {
		return int64(uint32(a) / uint32(b))
	}
	if a >= 0 && b > 0 {
		return int64(uint64(a) / uint64(b))
	}
	return a / b
}
