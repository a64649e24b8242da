package queue

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
	"github.com/schedplay/schedplay/core/plugins/queuesort"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// entry is a pod a plugin rejected (a pod without rejectors is an error
// case and goes straight back after backoff).
func entry(name string, prio int32, ts time.Time) *Entry {
	return &Entry{QueuedPodInfo: &framework.QueuedPodInfo{PodInfo: framework.NewPodInfo(st.MakePod().Name(name).Priority(prio).Obj()), Timestamp: ts,
		UnschedulablePlugins: map[string]bool{"NodeResourcesFit": true}}}
}

func newQueue() *PriorityQueue {
	return New((&queuesort.PrioritySort{}).Less, time.Second, 10*time.Second)
}

func TestBackoffDurationDoublesToMax(t *testing.T) {
	q := newQueue()
	var got []time.Duration
	for c := 0; c <= 6; c++ {
		got = append(got, q.BackoffDuration(c))
	}
	want := []time.Duration{0, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 10 * time.Second, 10 * time.Second}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if d := q.BackoffDuration(1000); d != 10*time.Second {
		t.Errorf("huge count: %v, want the max", d)
	}
}

func keys(es []*Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Pod.Name)
	}
	return out
}

func TestPopOrder(t *testing.T) {
	q := newQueue()
	q.Add(entry("low-early", 1, t0), false)
	q.Add(entry("high-late", 10, t0.Add(time.Second)), false)
	q.Add(entry("low-late", 1, t0.Add(2*time.Second)), false)
	q.Add(entry("gated", 100, t0), true)
	var got []string
	for e, _ := q.Pop(); e != nil; e, _ = q.Pop() {
		got = append(got, e.Pod.Name)
	}
	if diff := cmp.Diff([]string{"high-late", "low-early", "low-late"}, got); diff != "" {
		t.Errorf("pop order (-want +got):\n%s", diff)
	}
}

func TestMovedPodsWaitInBackoffQAndArePoppedWhenActiveQIsEmpty(t *testing.T) {
	q := newQueue()
	a, b, c := entry("a", 1, t0), entry("b", 5, t0), entry("c", 9, t0)
	q.AddUnschedulable(a, t0, false)
	q.AddUnschedulable(a, t0, false) // second failure: 2 s backoff
	q.AddUnschedulable(b, t0, false)
	if w := q.AddUnschedulable(c, t0, true); w != BackoffQ {
		t.Errorf("a pod failing while a move was requested went to %s, want backoffQ", w)
	}
	moved := q.MoveUnschedulable(t0, nil)
	if diff := cmp.Diff(map[string]Where{"default/a": BackoffQ, "default/b": BackoffQ}, moved); diff != "" {
		t.Errorf("moved (-want +got):\n%s", diff)
	}
	q.Add(entry("fresh", 0, t0), false)
	var got []string
	for e, _ := q.Pop(); e != nil; e, _ = q.Pop() {
		got = append(got, e.Pod.Name)
	}
	// activeQ first; then backoffQ by expiry (b and c at 1 s: higher priority first), then a at 2 s.
	if diff := cmp.Diff([]string{"fresh", "c", "b", "a"}, got); diff != "" {
		t.Errorf("pop order (-want +got):\n%s", diff)
	}
}

func TestBackoffEndsAfterItsOrderingWindow(t *testing.T) {
	for _, tt := range []struct {
		after time.Duration
		want  Where
	}{
		// Backoff ends at t0+1s; upstream treats the whole [1s, 2s) window as still backing off.
		{1500 * time.Millisecond, BackoffQ},
		{2 * time.Second, ActiveQ},
	} {
		q := newQueue()
		q.AddUnschedulable(entry("a", 1, t0), t0, false)
		if moved := q.MoveUnschedulable(t0.Add(tt.after), nil); moved["default/a"] != tt.want {
			t.Errorf("after %v: moved = %v, want %s", tt.after, moved, tt.want)
		}
	}
}

func TestFlushLeftoverAfterFiveMinutes(t *testing.T) {
	q := newQueue()
	q.AddUnschedulable(entry("old", 1, t0), t0, false)
	q.AddUnschedulable(entry("new", 1, t0), t0.Add(time.Minute), false)
	if moved := q.FlushUnschedulableLeftover(t0.Add(5*time.Minute - time.Nanosecond)); len(moved) != 0 {
		t.Errorf("flushed too early: %v", moved)
	}
	moved := q.FlushUnschedulableLeftover(t0.Add(5 * time.Minute))
	if diff := cmp.Diff(map[string]Where{"default/old": ActiveQ}, moved); diff != "" {
		t.Errorf("flushed (-want +got):\n%s", diff)
	}
	if q.UnschedulableLen() != 1 {
		t.Errorf("the newer pod should still wait")
	}
}

// A queue ordered by cached priority keys pops exactly as one calling
// PrioritySort's Less, through pushes, pops, failed cycles (new
// timestamps, equal ones included) and moves back from backoff.
func TestOrderByPriorityKeepsPrioritySortOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	plain, keyed := newQueue(), newQueue()
	keyed.OrderByPriority()
	type pair struct{ plain, keyed *Entry }
	var inFlight []pair
	now := t0
	var gotPlain, gotKeyed []string
	for step := 0; step < 3000; step++ {
		switch r := rng.IntN(10); {
		case r < 4: // a new pod, often with a tied priority or timestamp
			name := fmt.Sprintf("p%04d", step)
			prio, ts := int32(rng.IntN(3)), t0.Add(time.Duration(rng.IntN(5))*time.Second)
			plain.Add(entry(name, prio, ts), false)
			keyed.Add(entry(name, prio, ts), false)
		case r < 8:
			a, wa := plain.Pop()
			b, wb := keyed.Pop()
			if (a == nil) != (b == nil) || wa != wb {
				t.Fatalf("step %d: plain popped %v from %s, keyed %v from %s", step, a, wa, b, wb)
			}
			if a != nil {
				gotPlain, gotKeyed = append(gotPlain, a.Pod.Name), append(gotKeyed, b.Pod.Name)
				inFlight = append(inFlight, pair{a, b})
			}
		default: // a failed cycle comes back with a new timestamp
			if len(inFlight) == 0 {
				continue
			}
			i := rng.IntN(len(inFlight))
			p := inFlight[i]
			inFlight = append(inFlight[:i], inFlight[i+1:]...)
			now = now.Add(time.Duration(rng.IntN(3)) * time.Second)
			plain.AddUnschedulable(p.plain, now, true)
			keyed.AddUnschedulable(p.keyed, now, true)
		}
	}
	if diff := cmp.Diff(gotPlain, gotKeyed); diff != "" {
		t.Errorf("pop order (-LessFunc +keys):\n%s", diff)
	}
	if len(gotPlain) < 1000 {
		t.Errorf("only %d pops compared", len(gotPlain))
	}
}
