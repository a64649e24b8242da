package scheduler

import (
	"time"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
)

// maxBatchAge is how long a stored ranking may be reused (upstream
// maxBatchAge). Upstream measures it on the wall clock; the simulation has
// no wall clock, so it is measured on the simulated one, on which the
// cycles of one instant take no time.
const maxBatchAge = 500 * time.Millisecond

// Cycle identifies a scheduling cycle to opportunistic batching: upstream
// numbers cycles in its queue (one per pod popped) and ages a stored
// ranking by the clock. Count 0 turns batching off for the cycle.
type Cycle struct {
	Count int64
	Now   time.Time
}

// opportunisticBatch is upstream's OpportunisticBatch
// (pkg/scheduler/framework/runtime/batch.go, KEP-5598, beta and on in
// v1.36): after a cycle that scored several nodes it keeps the ranking
// left once the chosen node is popped; the next pod, if it has the same
// signature, comes in the very next cycle, and no longer fits on the node
// the previous pod took (so one pod per node, and the rest of the ranking
// is unchanged), takes the next node of that ranking as a hint instead of
// searching.
type opportunisticBatch struct {
	state *batchState
	last  lastCycle
}

type batchState struct {
	signature string
	sorted    *sortedNodes
	created   time.Time
}

type lastCycle struct {
	count     int64
	chosen    string
	succeeded bool
}

// sortedNodes is the rest of a cycle's ranking: upstream's
// sortedNodeScores, a max-heap of totals whose next Pop is the next hint.
type sortedNodes struct {
	heap  nodeScoreHeap
	names []string // by the heap entries' index
}

// pop is container/heap's Pop over the totals, as upstream's
// sortedNodeScores.Pop.
func (s *sortedNodes) pop() string {
	h := s.heap
	n := len(h) - 1
	h[0], h[n] = h[n], h[0]
	h[:n].down(0)
	s.heap = h[:n]
	return s.names[h[n].index]
}

// nodeHint returns the next node of the stored ranking when the state
// still applies to pod, or "" (upstream OpportunisticBatch.GetNodeHint and
// batchStateCompatible, whose checks come in the same order). The
// signature is made only if it is compared.
func (b *opportunisticBatch) nodeHint(fwk filterRunner, state *framework.CycleState, pod *api.Pod, snapshot *framework.Snapshot, c Cycle, sign signer) string {
	if b.state == nil || b.state.sorted == nil || len(b.state.sorted.heap) == 0 {
		return ""
	}
	if c.Count != b.last.count+1 || !b.last.succeeded {
		return "" // another pod's cycle came between, or the last one failed
	}
	if sig := sign.signature(); sig == "" || sig != b.state.signature {
		return ""
	}
	if c.Now.After(b.state.created.Add(maxBatchAge)) {
		return ""
	}
	// Only when the last pod's node can no longer take this one is the
	// rest of the ranking still right: otherwise that node might still
	// rank first.
	last, err := snapshot.Get(b.last.chosen)
	if err != nil {
		return ""
	}
	if !fwk.RunFilterPlugins(state, pod, last).IsRejected() {
		return ""
	}
	return b.state.sorted.pop()
}

// store records a successful cycle's choice and, when the pod was not
// placed by the hint, keeps the rest of its ranking for the next pod
// (upstream OpportunisticBatch.StoreScheduleResults). rest is nil when a
// single node was feasible. It reports whether the hint was used.
func (b *opportunisticBatch) store(c Cycle, hint, chosen string, rest ranking, sign signer) bool {
	b.last = lastCycle{count: c.Count, chosen: chosen, succeeded: true}
	if hint == chosen {
		return true
	}
	b.state = nil
	if rest == nil {
		return false
	}
	if sig := sign.signature(); sig != "" {
		if sorted := rest.rest(); len(sorted.heap) > 0 {
			b.state = &batchState{signature: sig, sorted: sorted, created: c.Now}
		}
	}
	return false
}

// filterRunner is the framework's Filter without nominated pods, which is
// what upstream's batch asks of the last pod's node.
type filterRunner interface {
	RunFilterPlugins(state *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) *framework.Status
}

// signer gives the cycle's pod signature.
type signer interface{ signature() string }

// cycleSignature is upstream's PodSignature, which the queue makes when
// the pod is queued; here it is made when a cycle first needs it, at most
// once.
type cycleSignature struct {
	pod    *api.Pod
	fwk    signingFramework
	sig    string
	signed bool
}

type signingFramework interface {
	SignPod(pod *api.Pod) (string, *framework.Status)
}

func (c *cycleSignature) signature() string {
	if !c.signed {
		c.sig, _ = c.fwk.SignPod(c.pod)
		c.signed = true
	}
	return c.sig
}

// ranking is a scored cycle's score heap, copied only when kept.
type ranking interface{ rest() *sortedNodes }

// rankingAfter is the heap selectHostIndex built over feasible's totals.
type rankingAfter struct {
	feasible []*framework.NodeInfo
	heap     nodeScoreHeap
}

// rest copies the heap and pops the chosen node, as upstream's
// schedulePod pops it before storing the rest.
func (r *rankingAfter) rest() *sortedNodes {
	sorted := &sortedNodes{heap: append(nodeScoreHeap(nil), r.heap...), names: make([]string, len(r.feasible))}
	for i, ni := range r.feasible {
		sorted.names[i] = ni.Node().Name
	}
	sorted.pop()
	return sorted
}
