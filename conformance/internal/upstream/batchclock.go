package upstream

import (
	"reflect"
	"time"
	"unsafe"

	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// batchClock makes OpportunisticBatch age its stored ranking on the contract's
// simulated clock instead of the wall clock.
//
// Upstream (pkg/scheduler/framework/runtime/batch.go) stamps a stored ranking
// with time.Now() and throws it away once time.Now() is 500 ms past that
// (maxBatchAge); it does not use the clock injected with scheduler.WithClock.
// The harness takes milliseconds of wall-clock time per cycle (more on a loaded
// machine), so a run of identical pods saw its ranking expire after a number
// of pods that changed from run to run. Before each cycle's GetNodeHint,
// batchClock rewrites the stored ranking's creationTime so that its wall-clock
// age equals its age on the simulated clock: the instant of the cycle that
// stored it to the instant of this one (cycles of one instant take no time, as
// in schedplay). Upstream's expiry check itself is unchanged.
type batchClock struct {
	// stored is, per profile, the ranking the last cycle found.
	stored map[framework.Framework]stamp
	// prev is the simulated instant of the previous cycle, the one that may
	// have stored the ranking this cycle finds.
	prev time.Time
}

// stamp is a stored ranking (its *batchState, by address; the state is live
// while it is compared, so a new one has another address) and the simulated
// instant of the cycle that stored it.
type stamp struct {
	state uintptr
	at    time.Time
}

func newBatchClock() *batchClock { return &batchClock{stored: map[framework.Framework]stamp{}} }

// beforeCycle is called in the cycle's SchedulePod, just before upstream's
// findNodesThatFitPod asks for a node hint; now is the cycle's simulated
// instant. It does nothing when the profile has no batch state (the feature
// gate is off or nothing is stored).
func (c *batchClock) beforeCycle(f framework.Framework, now time.Time) {
	defer func() { c.prev = now }()
	created, state, ok := batchCreationTime(f)
	if !ok {
		delete(c.stored, f)
		return
	}
	st, seen := c.stored[f]
	if !seen || st.state != state {
		// Stored by the previous cycle (StoreScheduleResults runs after
		// SchedulePod; a hinted cycle keeps the state it used).
		st = stamp{state: state, at: c.prev}
		c.stored[f] = st
	}
	created.Set(reflect.ValueOf(time.Now().Add(-now.Sub(st.at))))
}

// batchCreationTime reaches frameworkImpl.batch.state.creationTime, writable,
// and the state's address; ok is false when there is no stored state or the
// framework's layout is not the one this harness was written against.
func batchCreationTime(f framework.Framework) (created reflect.Value, state uintptr, ok bool) {
	v := reflect.ValueOf(f)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return reflect.Value{}, 0, false
	}
	b := v.Elem().FieldByName("batch")
	if !b.IsValid() || b.Kind() != reflect.Pointer || b.IsNil() {
		return reflect.Value{}, 0, false
	}
	s := b.Elem().FieldByName("state")
	if !s.IsValid() || s.Kind() != reflect.Pointer || s.IsNil() {
		return reflect.Value{}, 0, false
	}
	ct := s.Elem().FieldByName("creationTime")
	if !ct.IsValid() || ct.Type() != reflect.TypeOf(time.Time{}) {
		return reflect.Value{}, 0, false
	}
	// The fields are unexported: reach the same memory through a writable value.
	return reflect.NewAt(ct.Type(), unsafe.Pointer(ct.UnsafeAddr())).Elem(), s.Pointer(), true
}
