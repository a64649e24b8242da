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

	"github.com/schedplay/schedplay/core/api"
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
	// ConsecutiveErrorsCount counts cycles in a row that failed without a
	// rejecting plugin (an error); while non-zero it drives backoff instead.
	ConsecutiveErrorsCount int
	// GatingPluginEvents are the events the gating plugin registered.
	GatingPluginEvents []framework.ClusterEvent
	backoffExpiration  time.Time
	// seq orders entries whose timestamps are equal: cycles take no
	// simulated time here, while upstream's clock always moves a little
	// between two attempts, so earlier attempts sort first there too.
	seq uint64
	// prio and ts are the pod's priority and Timestamp when it last entered
	// activeQ, for a queue ordered by priority key (OrderByPriority).
	prio int32
	ts   time.Time
}

// Gated reports a pod held back by a PreEnqueue plugin.
func (e *Entry) Gated() bool { return e.GatingPlugin != "" }

// Where names the sub-queue a pod is in.
type Where string

// Sub-queues.
const (
	ActiveQ       Where = "activeQ"
	BackoffQ      Where = "backoffQ"
	Unschedulable Where = "unschedulable"
	Gated         Where = "gated"
)

// Move is a pod an event (or the flush) took out of the unschedulable pods.
type Move struct {
	Pod string
	To  Where
	// Event is the label of the event that moved it.
	Event string
	// Plugin is the rejecting plugin whose hint said Queue; empty when the
	// pod had no rejecting plugin or the event was a wildcard.
	Plugin string
}

type recordedEvent struct {
	event          framework.ClusterEvent
	oldObj, newObj any
}

// PriorityQueue holds pending pods.
type PriorityQueue struct {
	seq            uint64
	less           LessFunc
	initialBackoff time.Duration
	maxBackoff     time.Duration
	active         entryHeap
	backoff        entryHeap
	// errBackoff holds the pods whose last cycle failed with an error (no
	// plugin rejected them): upstream's podErrorBackoffQ, which Pop does not
	// take from when activeQ is empty (popBackoff reads podBackoffQ only);
	// they go to activeQ when their backoff completes (FlushErrorBackoff).
	errBackoff    entryHeap
	unschedulable map[string]*Entry
	gated         map[string]*Entry
	profiles      map[string]*Profile
	profileNames  []string
	// inFlight is the popped pod being scheduled; the events seen meanwhile
	// decide where it goes if it fails (the engine runs one cycle at a time).
	inFlight       *Entry
	inFlightEvents []recordedEvent
	// preempting is set while the in-flight pod's preemption is carried out.
	preempting bool
}

// New returns an empty queue.
func New(less LessFunc, initialBackoff, maxBackoff time.Duration) *PriorityQueue {
	q := &PriorityQueue{less: less, initialBackoff: initialBackoff, maxBackoff: maxBackoff,
		unschedulable: map[string]*Entry{}, gated: map[string]*Entry{}, profiles: map[string]*Profile{}}
	q.active.less = less
	q.backoff.lessEntry = q.lessBackoff
	q.errBackoff.lessEntry = q.lessBackoff
	return q
}

// OrderByPriority declares that the queue's LessFunc orders pods as
// PrioritySort does: higher priority first, then earlier Timestamp. activeQ
// then compares the two, cached on each entry as it enters, instead of
// calling the LessFunc through three pointers per comparison. The order is
// the same, because nothing changes a pod's priority or an entry's
// Timestamp while it is in activeQ. Call it before adding pods.
func (q *PriorityQueue) OrderByPriority() { q.active.byPriority = true }

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
	count := e.UnschedulableCount
	if e.ConsecutiveErrorsCount > 0 {
		count = e.ConsecutiveErrorsCount
	}
	if q.maxBackoff == 0 || count == 0 {
		return time.Time{}
	}
	if e.backoffExpiration.IsZero() {
		e.backoffExpiration = e.Timestamp.Add(q.BackoffDuration(count)).Truncate(BackoffOrderingWindow)
	}
	return e.backoffExpiration
}

func (q *PriorityQueue) lessBackoff(a, b *Entry) bool {
	ta, tb := q.BackoffTime(a), q.BackoffTime(b)
	if !ta.Equal(tb) {
		return ta.Before(tb)
	}
	return lessWithSeq(q.less, a, b)
}

// stamp records the order in which entries got their timestamps.
func (q *PriorityQueue) stamp(e *Entry) {
	q.seq++
	e.seq = q.seq
}

// lessWithSeq applies less and breaks an exact tie by stamp order.
func lessWithSeq(less LessFunc, a, b *Entry) bool {
	if less(a.QueuedPodInfo, b.QueuedPodInfo) {
		return true
	}
	if less(b.QueuedPodInfo, a.QueuedPodInfo) {
		return false
	}
	return a.seq < b.seq
}

// isBackingOff reports a pod whose backoff has not ended in now's window.
func (q *PriorityQueue) isBackingOff(e *Entry, now time.Time) bool {
	return !q.BackoffTime(e).Before(now.Truncate(BackoffOrderingWindow))
}

// Add puts a new pod in activeQ (or among the gated pods). A gated pod's
// gating plugin counts as rejecting it, so its events can ungate it.
func (q *PriorityQueue) Add(e *Entry, gated bool) {
	q.stamp(e)
	if gated {
		q.gate(e, e.GatingPlugin)
		return
	}
	heap.Push(&q.active, e)
}

func (q *PriorityQueue) gate(e *Entry, plugin string) {
	if plugin != "" {
		if e.UnschedulablePlugins == nil {
			e.UnschedulablePlugins = map[string]bool{}
		}
		e.UnschedulablePlugins[plugin] = true
		if p := q.profile(e.Pod.Spec.SchedulerName); p != nil {
			e.GatingPluginEvents = p.events[plugin]
		}
	}
	e.GatingPlugin = plugin
	q.gated[e.Pod.Key()] = e
}

// Pop returns the next pod: activeQ first, else the head of backoffQ. The
// pod is in flight until it comes back through AddUnschedulable or Done.
// Its rejecting plugins are cleared: the cycle sets them anew.
func (q *PriorityQueue) Pop() (*Entry, Where) {
	var e *Entry
	var from Where
	switch {
	case q.active.Len() > 0:
		e, from = heap.Pop(&q.active).(*Entry), ActiveQ
	case q.backoff.Len() > 0:
		e, from = heap.Pop(&q.backoff).(*Entry), BackoffQ
	default:
		return nil, ""
	}
	e.backoffExpiration = time.Time{}
	e.UnschedulablePlugins, e.PendingPlugins = nil, nil
	q.inFlight, q.inFlightEvents = e, nil
	return e, from
}

// Done ends the in-flight state of a popped pod that will not come back
// (it was bound).
func (q *PriorityQueue) Done(key string) {
	if q.inFlight != nil && q.inFlight.Pod.Key() == key {
		q.inFlight, q.inFlightEvents = nil, nil
	}
}

// AddUnschedulable records a pod whose cycle failed at now. Where it goes
// depends on the events seen while it was in flight, as the queueing hints
// of its rejecting plugins judge them (a pod with none goes back after
// backoff). moveRequested forces a move after backoff.
func (q *PriorityQueue) AddUnschedulable(e *Entry, now time.Time, moveRequested bool) Where {
	if len(e.UnschedulablePlugins) == 0 && len(e.PendingPlugins) == 0 {
		e.ConsecutiveErrorsCount++
	} else {
		e.UnschedulableCount++
		e.ConsecutiveErrorsCount = 0
	}
	e.Timestamp = now
	q.stamp(e)
	e.backoffExpiration = time.Time{}
	strategy, _ := q.inFlightStrategy(e)
	if q.inFlight == e {
		q.inFlight, q.inFlightEvents = nil, nil
	}
	if moveRequested && strategy == queueSkip {
		strategy = queueAfterBackoff
	}
	return q.requeueWithStrategy(e, strategy, now)
}

// inFlightStrategy is upstream's determineSchedulingHintForInFlightPod.
func (q *PriorityQueue) inFlightStrategy(e *Entry) (queueingStrategy, string) {
	if len(e.UnschedulablePlugins) == 0 && len(e.PendingPlugins) == 0 {
		return queueAfterBackoff, ""
	}
	if q.inFlight != e {
		return queueSkip, ""
	}
	strategy, by := queueSkip, ""
	for _, re := range q.inFlightEvents {
		switch s, plugin := q.isPodWorthRequeuing(e, re.event, re.oldObj, re.newObj); s {
		case queueImmediately:
			return s, plugin
		case queueAfterBackoff:
			if strategy == queueSkip {
				strategy, by = s, plugin
			}
			if len(e.PendingPlugins) == 0 {
				return strategy, by
			}
		}
	}
	return strategy, by
}

// requeueWithStrategy places a pod that is in no sub-queue: skip keeps it
// waiting; after backoff it goes to backoffQ while backing off; otherwise
// to activeQ. Both moves run the PreEnqueue plugins again, which may gate it.
func (q *PriorityQueue) requeueWithStrategy(e *Entry, s queueingStrategy, now time.Time) Where {
	if s == queueSkip {
		if e.Gated() {
			q.gated[e.Pod.Key()] = e
			return Gated
		}
		q.unschedulable[e.Pod.Key()] = e
		return Unschedulable
	}
	if !q.runPreEnqueue(e) {
		return Gated
	}
	if s == queueAfterBackoff && q.isBackingOff(e, now) {
		if len(e.UnschedulablePlugins) == 0 && len(e.PendingPlugins) == 0 {
			heap.Push(&q.errBackoff, e)
		} else {
			heap.Push(&q.backoff, e)
		}
		return BackoffQ
	}
	heap.Push(&q.active, e)
	return ActiveQ
}

// runPreEnqueue re-checks the PreEnqueue plugins; a failing one gates the pod.
func (q *PriorityQueue) runPreEnqueue(e *Entry) bool {
	p := q.profile(e.Pod.Spec.SchedulerName)
	if p == nil || p.PreEnqueue == nil {
		if e.Gated() {
			q.gated[e.Pod.Key()] = e // cannot tell: it stays gated
			return false
		}
		return true
	}
	if st := p.PreEnqueue(e.Pod); !st.IsSuccess() {
		q.gate(e, st.Plugin())
		return false
	}
	e.GatingPlugin, e.GatingPluginEvents = "", nil
	return true
}

// MoveAllToActiveOrBackoffQueue tells the queue about a cluster event
// (oldObj nil for an add, newObj nil for a delete). Every waiting pod that
// passes preCheck (nil: all) and whose rejecting plugins' hints say Queue
// goes to backoffQ or activeQ; a gated pod is only looked at if its gating
// plugin registered the event. A pod in flight keeps the event for
// AddUnschedulable. Events no plugin registered are ignored. Moves come
// back in key order (upstream walks a map).
func (q *PriorityQueue) MoveAllToActiveOrBackoffQueue(ev framework.ClusterEvent, oldObj, newObj any, now time.Time, preCheck func(*api.Pod) bool) []Move {
	if !q.isEventOfInterest(ev) {
		return nil
	}
	var moves []Move
	for _, e := range q.waiting() {
		if preCheck != nil && !preCheck(e.Pod) {
			continue
		}
		if e.Gated() && !framework.ClusterEventIsWildCard(ev) && !framework.MatchAnyClusterEvent(ev, e.GatingPluginEvents) {
			continue
		}
		if m, ok := q.move(e, ev, oldObj, newObj, now); ok {
			moves = append(moves, m)
		}
	}
	if q.inFlight != nil && !q.preempting {
		q.inFlightEvents = append(q.inFlightEvents, recordedEvent{event: ev, oldObj: oldObj, newObj: newObj})
	}
	return moves
}

// SetPreempting marks the stretch in which the in-flight pod's preemption is
// carried out. Upstream runs it asynchronously and DefaultPreemption's
// PreEnqueue holds the preemptor back until the last victim's deletion has
// started, so the events caused before that (lower-priority nominations
// cleared, the other victims updated or gone) never requeue the preemptor.
func (q *PriorityQueue) SetPreempting(on bool) { q.preempting = on }

// move asks the hints about one waiting pod and moves it if they say so.
func (q *PriorityQueue) move(e *Entry, ev framework.ClusterEvent, oldObj, newObj any, now time.Time) (Move, bool) {
	s, plugin := q.isPodWorthRequeuing(e, ev, oldObj, newObj)
	if s == queueSkip {
		return Move{}, false
	}
	key := e.Pod.Key()
	delete(q.unschedulable, key)
	delete(q.gated, key)
	to := q.requeueWithStrategy(e, s, now)
	if to == Gated {
		return Move{}, false
	}
	return Move{Pod: key, To: to, Event: ev.Label(), Plugin: plugin}, true
}

// waiting lists unschedulable and gated pods in key order.
func (q *PriorityQueue) waiting() []*Entry {
	out := make([]*Entry, 0, len(q.unschedulable)+len(q.gated))
	for _, k := range sortedKeys(q.unschedulable) {
		out = append(out, q.unschedulable[k])
	}
	for _, k := range sortedKeys(q.gated) {
		out = append(out, q.gated[k])
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pod.Key() < out[j].Pod.Key() })
	return out
}

// Update tells the queue that a pending pod changed (newPod is the queued
// pod after the change, oldPod a copy from before). In flight, the change
// is kept for AddUnschedulable; waiting, the hints judge each specific
// update event until one moves it; in activeQ or backoffQ nothing changes.
func (q *PriorityQueue) Update(oldPod, newPod *api.Pod, now time.Time) []Move {
	events := framework.PodSchedulingPropertiesChange(newPod, oldPod)
	key := newPod.Key()
	if q.inFlight != nil && q.inFlight.Pod.Key() == key {
		if q.preempting {
			return nil
		}
		for _, ev := range events {
			q.inFlightEvents = append(q.inFlightEvents, recordedEvent{event: ev, oldObj: oldPod, newObj: newPod})
		}
		return nil
	}
	e := q.unschedulable[key]
	if e == nil {
		e = q.gated[key]
	}
	if e == nil {
		return nil
	}
	e.PodInfo = framework.NewPodInfo(newPod)
	for _, ev := range events {
		if m, ok := q.move(e, ev, oldPod, newPod, now); ok {
			return []Move{m}
		}
	}
	return nil
}

// MoveUnschedulable moves the unschedulable pods that match to backoffQ or
// activeQ, in key order.
func (q *PriorityQueue) MoveUnschedulable(now time.Time, match func(*Entry) bool) map[string]Where {
	moved := map[string]Where{}
	for _, k := range sortedKeys(q.unschedulable) {
		e := q.unschedulable[k]
		if match != nil && !match(e) {
			continue
		}
		delete(q.unschedulable, k)
		moved[k] = q.requeueWithStrategy(e, queueAfterBackoff, now)
	}
	return moved
}

// FlushUnschedulableLeftover moves pods that have waited at least
// DefaultPodMaxInUnschedulablePodsDuration (the UnschedulableTimeout
// wildcard event: gated pods only run their PreEnqueue plugins again).
func (q *PriorityQueue) FlushUnschedulableLeftover(now time.Time) map[string]Where {
	moved := map[string]Where{}
	for _, e := range q.waiting() {
		if now.Sub(e.Timestamp) < DefaultPodMaxInUnschedulablePodsDuration {
			continue
		}
		if m, ok := q.move(e, framework.EventUnschedulableTimeout, nil, nil, now); ok {
			moved[m.Pod] = m.To
		}
	}
	return moved
}

// Delete removes a pod wherever it is.
func (q *PriorityQueue) Delete(key string) {
	delete(q.unschedulable, key)
	delete(q.gated, key)
	q.active.remove(key)
	q.backoff.remove(key)
	q.errBackoff.remove(key)
	q.Done(key)
}

// Snapshot lists the pods of each sub-queue: activeQ in pop order, backoffQ
// in backoff order, unschedulable and gated by key.
func (q *PriorityQueue) Snapshot() map[Where][]*Entry {
	out := map[Where][]*Entry{}
	out[ActiveQ] = q.active.sorted()
	out[BackoffQ] = q.backoff.sorted()
	if q.errBackoff.Len() > 0 {
		out[BackoffQ] = append(out[BackoffQ], q.errBackoff.sorted()...)
		sort.SliceStable(out[BackoffQ], func(i, j int) bool { return q.lessBackoff(out[BackoffQ][i], out[BackoffQ][j]) })
	}
	for _, k := range sortedKeys(q.unschedulable) {
		out[Unschedulable] = append(out[Unschedulable], q.unschedulable[k])
	}
	for _, k := range sortedKeys(q.gated) {
		out[Gated] = append(out[Gated], q.gated[k])
	}
	return out
}

// Len counts pods that can still be popped (activeQ and backoffQ, without
// the pods backing off after an error).
func (q *PriorityQueue) Len() int { return q.active.Len() + q.backoff.Len() }

// NextErrorBackoff is when the first pod backing off after an error goes
// back to activeQ: the first flush (every BackoffOrderingWindow) after its
// backoff expiry, as isPodBackingoff judges it; false when there is none.
func (q *PriorityQueue) NextErrorBackoff() (time.Time, bool) {
	if q.errBackoff.Len() == 0 {
		return time.Time{}, false
	}
	return q.BackoffTime(q.errBackoff.items[0]).Truncate(BackoffOrderingWindow).Add(BackoffOrderingWindow), true
}

// FlushErrorBackoff moves the pods backing off after an error whose backoff
// completed by now to activeQ (upstream's flushBackoffQCompleted, for the
// queue Pop does not take from), and returns their keys (a pod a
// PreEnqueue plugin rejects is gated instead).
func (q *PriorityQueue) FlushErrorBackoff(now time.Time) []string {
	var keys []string
	for q.errBackoff.Len() > 0 && !q.isBackingOff(q.errBackoff.items[0], now) {
		e := heap.Pop(&q.errBackoff).(*Entry)
		if q.runPreEnqueue(e) { // moveToActiveQ runs the PreEnqueue plugins
			heap.Push(&q.active, e)
		}
		keys = append(keys, e.Pod.Key())
	}
	return keys
}

// RepeatErrorBackoff stands for the retries upstream's flushBackoffQCompleted
// makes, up to and including until, of the pods backing off after an error
// for which same says a retry would fail the same way (nothing they depend
// on changed since their last cycle): each such retry counts as one more
// consecutive error at its flush time, so the pod's backoff grows as
// upstream's does (to the maximum) and it comes back when upstream's would.
// Once the backoff is at its maximum the retries are periodic and are
// counted in one step. It returns how many retries it stood for.
func (q *PriorityQueue) RepeatErrorBackoff(until time.Time, same func(*Entry) bool) int {
	repeats := 0
	for _, e := range q.errBackoff.items {
		if !same(e) || e.ConsecutiveErrorsCount == 0 {
			continue
		}
		for {
			flush := q.BackoffTime(e).Truncate(BackoffOrderingWindow).Add(BackoffOrderingWindow)
			if flush.After(until) {
				break
			}
			saturated := q.BackoffDuration(e.ConsecutiveErrorsCount) == q.maxBackoff
			e.ConsecutiveErrorsCount++
			e.Timestamp, e.backoffExpiration = flush, time.Time{}
			repeats++
			if !saturated {
				continue
			}
			// Flush times are on the ordering window's grid, so at the
			// maximum backoff each retry is one period after the last.
			period := q.BackoffTime(e).Truncate(BackoffOrderingWindow).Add(BackoffOrderingWindow).Sub(flush)
			if period <= 0 {
				break
			}
			if k := int64(until.Sub(flush) / period); k > 1 {
				e.ConsecutiveErrorsCount += int(min(k-1, 1<<30))
				e.Timestamp, e.backoffExpiration = flush.Add(time.Duration(k-1)*period), time.Time{}
				repeats += int(k - 1)
			}
		}
	}
	heap.Init(&q.errBackoff)
	return repeats
}

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
	// byPriority compares the keys cached by Push (see OrderByPriority).
	byPriority bool
}

func (h *entryHeap) Len() int { return len(h.items) }
func (h *entryHeap) Less(i, j int) bool {
	if h.lessEntry != nil {
		return h.lessEntry(h.items[i], h.items[j])
	}
	if h.byPriority {
		return lessByKey(h.items[i], h.items[j])
	}
	return lessWithSeq(h.less, h.items[i], h.items[j])
}
func (h *entryHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *entryHeap) Push(x any) {
	e := x.(*Entry)
	if h.byPriority {
		e.prio, e.ts = e.Pod.PriorityValue(), e.Timestamp
	}
	h.items = append(h.items, e)
}

// lessByKey is lessWithSeq for PrioritySort's order on the cached keys:
// less(a, b), else not less(b, a), else the stamp order.
func lessByKey(a, b *Entry) bool {
	if a.prio != b.prio {
		return a.prio > b.prio
	}
	if a.ts.Before(b.ts) {
		return true
	}
	if b.ts.Before(a.ts) {
		return false
	}
	return a.seq < b.seq
}
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
	c := &entryHeap{items: append([]*Entry(nil), h.items...), less: h.less, lessEntry: h.lessEntry, byPriority: h.byPriority}
	heap.Init(c)
	var out []*Entry
	for c.Len() > 0 {
		out = append(out, heap.Pop(c).(*Entry))
	}
	return out
}
