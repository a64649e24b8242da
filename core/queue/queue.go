// Package queue is the scheduling queue of upstream v1.36
// (pkg/scheduler/backend/queue) with time passed in: activeQ ordered by the
// QueueSort plugin, backoffQ ordered by backoff expiry (aligned to 1 s
// windows) then by the activeQ order and popped when activeQ is empty
// (SchedulerPopFromBackoffQ, on by default), and the unschedulable pods
// waiting for a cluster event or the periodic flush.
package queue

import (
	"container/heap"
	"sort"
	"time"

	"github.com/schedplay/schedplay/core/framework"
)

// Upstream constants.
const (
	// BackoffOrderingWindow aligns backoff expiries (backoffQOrderingWindowDuration).
	BackoffOrderingWindow = time.Second
	// DefaultPodMaxInUnschedulablePodsDuration is how long a pod may stay
	// unschedulable before the periodic flush moves it back.
	DefaultPodMaxInUnschedulablePodsDuration = 5 * time.Minute
	// UnschedulableFlushInterval is how often that flush runs.
	UnschedulableFlushInterval = 30 * time.Second
)

// LessFunc orders the active queue.
type LessFunc func(a, b *framework.QueuedPodInfo) bool

// Entry is a queued pod with its backoff bookkeeping.
type Entry struct {
	*framework.QueuedPodInfo
	// UnschedulableCount counts cycles that ended Unschedulable (drives backoff).
	UnschedulableCount int
	backoffExpiration  time.Time
}

// Where names the sub-queue a pod is in.
type Where string

// Sub-queues.
const (
	ActiveQ       Where = "activeQ"
	BackoffQ      Where = "backoffQ"
	Unschedulable Where = "unschedulable"
	Gated         Where = "gated"
)

// PriorityQueue holds pending pods.
type PriorityQueue struct {
	less           LessFunc
	initialBackoff time.Duration
	maxBackoff     time.Duration
	active         entryHeap
	backoff        entryHeap
	unschedulable  map[string]*Entry
	gated          map[string]*Entry
}

// New returns an empty queue.
func New(less LessFunc, initialBackoff, maxBackoff time.Duration) *PriorityQueue {
	q := &PriorityQueue{less: less, initialBackoff: initialBackoff, maxBackoff: maxBackoff,
		unschedulable: map[string]*Entry{}, gated: map[string]*Entry{}}
	q.active.less = less
	q.backoff.lessEntry = q.lessBackoff
	return q
}

// BackoffDuration is initial * 2^(count-1), capped at max; 0 for count 0.
func (q *PriorityQueue) BackoffDuration(count int) time.Duration {
	if count == 0 {
		return 0
	}
	shift := count - 1
	if shift >= 62 || q.initialBackoff > q.maxBackoff>>shift {
		return q.maxBackoff
	}
	return q.initialBackoff << shift
}

// BackoffTime is when e completes its backoff (zero when none applies).
func (q *PriorityQueue) BackoffTime(e *Entry) time.Time {
	if q.maxBackoff == 0 || e.UnschedulableCount == 0 {
		return time.Time{}
	}
	if e.backoffExpiration.IsZero() {
		e.backoffExpiration = e.Timestamp.Add(q.BackoffDuration(e.UnschedulableCount)).Truncate(BackoffOrderingWindow)
	}
	return e.backoffExpiration
}

func (q *PriorityQueue) lessBackoff(a, b *Entry) bool {
	ta, tb := q.BackoffTime(a), q.BackoffTime(b)
	if !ta.Equal(tb) {
		return ta.Before(tb)
	}
	return q.less(a.QueuedPodInfo, b.QueuedPodInfo)
}

// isBackingOff reports a pod whose backoff has not ended in now's window.
func (q *PriorityQueue) isBackingOff(e *Entry, now time.Time) bool {
	return !q.BackoffTime(e).Before(now.Truncate(BackoffOrderingWindow))
}

// Add puts a new pod in activeQ (or among the gated pods).
func (q *PriorityQueue) Add(e *Entry, gated bool) {
	if gated {
		q.gated[e.Pod.Key()] = e
		return
	}
	heap.Push(&q.active, e)
}

// Pop returns the next pod: activeQ first, else the head of backoffQ.
func (q *PriorityQueue) Pop() (*Entry, Where) {
	if q.active.Len() > 0 {
		e := heap.Pop(&q.active).(*Entry)
		e.backoffExpiration = time.Time{}
		return e, ActiveQ
	}
	if q.backoff.Len() > 0 {
		e := heap.Pop(&q.backoff).(*Entry)
		e.backoffExpiration = time.Time{}
		return e, BackoffQ
	}
	return nil, ""
}

// AddUnschedulable records a pod whose cycle failed at now. moveRequested
// says a relevant cluster event happened during its cycle: then it goes to
// backoffQ (or activeQ) instead of waiting.
func (q *PriorityQueue) AddUnschedulable(e *Entry, now time.Time, moveRequested bool) Where {
	e.Timestamp = now
	e.UnschedulableCount++
	e.backoffExpiration = time.Time{}
	if moveRequested {
		return q.requeue(e, now)
	}
	q.unschedulable[e.Pod.Key()] = e
	return Unschedulable
}

func (q *PriorityQueue) requeue(e *Entry, now time.Time) Where {
	if q.isBackingOff(e, now) {
		heap.Push(&q.backoff, e)
		return BackoffQ
	}
	heap.Push(&q.active, e)
	return ActiveQ
}

// MoveUnschedulable moves the unschedulable pods that match to backoffQ or
// activeQ, in key order (upstream walks a map; sorting keeps runs repeatable).
func (q *PriorityQueue) MoveUnschedulable(now time.Time, match func(*Entry) bool) map[string]Where {
	moved := map[string]Where{}
	for _, k := range sortedKeys(q.unschedulable) {
		e := q.unschedulable[k]
		if match != nil && !match(e) {
			continue
		}
		delete(q.unschedulable, k)
		moved[k] = q.requeue(e, now)
	}
	return moved
}

// FlushUnschedulableLeftover moves pods that have waited at least
// DefaultPodMaxInUnschedulablePodsDuration.
func (q *PriorityQueue) FlushUnschedulableLeftover(now time.Time) map[string]Where {
	return q.MoveUnschedulable(now, func(e *Entry) bool {
		return now.Sub(e.Timestamp) >= DefaultPodMaxInUnschedulablePodsDuration
	})
}

// Delete removes a pod wherever it is.
func (q *PriorityQueue) Delete(key string) {
	delete(q.unschedulable, key)
	delete(q.gated, key)
	q.active.remove(key)
	q.backoff.remove(key)
}

// Snapshot lists the pods of each sub-queue: activeQ in pop order, backoffQ
// in backoff order, unschedulable and gated by key.
func (q *PriorityQueue) Snapshot() map[Where][]*Entry {
	out := map[Where][]*Entry{}
	out[ActiveQ] = q.active.sorted()
	out[BackoffQ] = q.backoff.sorted()
	for _, k := range sortedKeys(q.unschedulable) {
		out[Unschedulable] = append(out[Unschedulable], q.unschedulable[k])
	}
	for _, k := range sortedKeys(q.gated) {
		out[Gated] = append(out[Gated], q.gated[k])
	}
	return out
}

// Len counts pods that can still be popped (activeQ and backoffQ).
func (q *PriorityQueue) Len() int { return q.active.Len() + q.backoff.Len() }

// UnschedulableLen counts waiting unschedulable pods.
func (q *PriorityQueue) UnschedulableLen() int { return len(q.unschedulable) }

func sortedKeys(m map[string]*Entry) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

type entryHeap struct {
	items     []*Entry
	less      LessFunc
	lessEntry func(a, b *Entry) bool
}

func (h *entryHeap) Len() int { return len(h.items) }
func (h *entryHeap) Less(i, j int) bool {
	if h.lessEntry != nil {
		return h.lessEntry(h.items[i], h.items[j])
	}
	return h.less(h.items[i].QueuedPodInfo, h.items[j].QueuedPodInfo)
}
func (h *entryHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *entryHeap) Push(x any)    { h.items = append(h.items, x.(*Entry)) }
func (h *entryHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}

func (h *entryHeap) remove(key string) {
	for i, e := range h.items {
		if e.Pod.Key() == key {
			heap.Remove(h, i)
			return
		}
	}
}

func (h *entryHeap) sorted() []*Entry {
	c := &entryHeap{items: append([]*Entry(nil), h.items...), less: h.less, lessEntry: h.lessEntry}
	heap.Init(c)
	var out []*Entry
	for c.Len() > 0 {
		out = append(out, heap.Pop(c).(*Entry))
	}
	return out
}
