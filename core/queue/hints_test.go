package queue

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

// fakeExt registers events with fixed hints.
type fakeExt struct {
	name   string
	events []framework.ClusterEventWithHint
}

func (f fakeExt) Name() string { return f.name }
func (f fakeExt) EventsToRegister() ([]framework.ClusterEventWithHint, error) {
	return f.events, nil
}

func fixed(h framework.QueueingHint, err error) framework.QueueingHintFn {
	return func(*api.Pod, any, any) (framework.QueueingHint, error) { return h, err }
}

var (
	podDelete = framework.ClusterEvent{Resource: framework.Pod, ActionType: framework.Delete}
	nodeAdd   = framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Add}
)

func hintQueue(t *testing.T, exts ...framework.EnqueueExtensions) *PriorityQueue {
	t.Helper()
	q := newQueue()
	m, err := BuildQueueingHintMap(exts)
	if err != nil {
		t.Fatal(err)
	}
	q.RegisterProfile("", &Profile{Hints: m})
	return q
}

func rejected(name string, plugins ...string) *Entry {
	e := entry(name, 0, t0)
	e.UnschedulablePlugins = map[string]bool{}
	for _, p := range plugins {
		e.UnschedulablePlugins[p] = true
	}
	return e
}

func TestBuildQueueingHintMapAddsUpdateNodeTaintForNodeAdd(t *testing.T) {
	m, err := BuildQueueingHintMap([]framework.EnqueueExtensions{
		fakeExt{"AddOnly", []framework.ClusterEventWithHint{{Event: nodeAdd, QueueingHintFn: fixed(framework.QueueSkip, nil)}}},
		fakeExt{"AddAndTaint", []framework.ClusterEventWithHint{{Event: framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Add | framework.UpdateNodeTaint}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, eh := range m {
		for _, fn := range eh.Fns {
			got[eh.Event.Label()] = append(got[eh.Event.Label()], fn.PluginName)
		}
	}
	want := map[string][]string{"NodeAdd": {"AddOnly"}, "NodeUpdateNodeTaint": {"AddOnly"}, "NodeAdd|UpdateNodeTaint": {"AddAndTaint"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestMoveAllByHints(t *testing.T) {
	exts := []framework.EnqueueExtensions{
		fakeExt{"Fit", []framework.ClusterEventWithHint{{Event: podDelete, QueueingHintFn: fixed(framework.Queue, nil)}}},
		fakeExt{"Skipper", []framework.ClusterEventWithHint{{Event: podDelete, QueueingHintFn: fixed(framework.QueueSkip, nil)}}},
		fakeExt{"Broken", []framework.ClusterEventWithHint{{Event: podDelete, QueueingHintFn: fixed(framework.QueueSkip, errors.New("boom"))}}},
		fakeExt{"NoHint", []framework.ClusterEventWithHint{{Event: podDelete}}},
		fakeExt{"Deaf", []framework.ClusterEventWithHint{{Event: nodeAdd}}},
	}
	for _, tt := range []struct {
		name    string
		plugins []string
		event   framework.ClusterEvent
		want    []Move
	}{
		{"rejector says Queue", []string{"Fit"}, framework.EventAssignedPodDelete, []Move{{Pod: "default/p", To: ActiveQ, Event: "AssignedPodDelete", Plugin: "Fit"}}},
		{"rejector says QueueSkip", []string{"Skipper"}, framework.EventAssignedPodDelete, nil},
		{"any rejector saying Queue is enough", []string{"Skipper", "Fit"}, framework.EventAssignedPodDelete, []Move{{Pod: "default/p", To: ActiveQ, Event: "AssignedPodDelete", Plugin: "Fit"}}},
		{"a hint error counts as Queue", []string{"Broken"}, framework.EventAssignedPodDelete, []Move{{Pod: "default/p", To: ActiveQ, Event: "AssignedPodDelete", Plugin: "Broken"}}},
		{"no hint means Queue", []string{"NoHint"}, framework.EventAssignedPodDelete, []Move{{Pod: "default/p", To: ActiveQ, Event: "AssignedPodDelete", Plugin: "NoHint"}}},
		{"only the rejectors' hints count", []string{"Deaf"}, framework.EventAssignedPodDelete, nil},
		{"a pod without rejectors moves on any interesting event", nil, framework.EventAssignedPodDelete, []Move{{Pod: "default/p", To: ActiveQ, Event: "AssignedPodDelete"}}},
		{"an event no plugin registered moves nothing, not even those", nil, framework.EventAssignedPodAdd, nil},
		{"wildcard moves everyone", []string{"Skipper"}, framework.EventUnschedulableTimeout, []Move{{Pod: "default/p", To: ActiveQ, Event: "UnschedulableTimeout"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q := hintQueue(t, exts...)
			e := rejected("p", tt.plugins...)
			e.UnschedulableCount = 1
			q.unschedulable[e.Pod.Key()] = e
			// Long after the backoff: activeQ.
			got := q.MoveAllToActiveOrBackoffQueue(tt.event, st.MakePod().Name("other").Node("n").Obj(), nil, t0.Add(DefaultPodMaxInUnschedulablePodsDuration), nil)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestMoveRespectsBackoffAndPreCheck(t *testing.T) {
	ext := fakeExt{"Fit", []framework.ClusterEventWithHint{{Event: podDelete}}}
	q := hintQueue(t, ext)
	low, high := rejected("low", "Fit"), rejected("high", "Fit")
	low.Pod.Spec.Priority, high.Pod.Spec.Priority = ptr(int32(1)), ptr(int32(10))
	for _, e := range []*Entry{low, high} {
		q.AddUnschedulable(e, t0, false)
	}
	// A nominated pod of priority 5 left: only lower-or-equal pods are asked.
	got := q.MoveAllToActiveOrBackoffQueue(framework.EventAssignedPodDelete, st.MakePod().Name("nominee").NominatedNodeName("n").Obj(), nil, t0,
		func(p *api.Pod) bool { return p.PriorityValue() <= 5 })
	want := []Move{{Pod: "default/low", To: BackoffQ, Event: "AssignedPodDelete", Plugin: "Fit"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if q.UnschedulableLen() != 1 {
		t.Errorf("high should still wait")
	}
}

func ptr[T any](v T) *T { return &v }

func TestInFlightEventsDecideWhereAFailedPodGoes(t *testing.T) {
	ext := fakeExt{"Fit", []framework.ClusterEventWithHint{{Event: podDelete}}}
	for _, tt := range []struct {
		name  string
		event framework.ClusterEvent
		want  Where
	}{
		{"a relevant event during the cycle: backoffQ", framework.EventAssignedPodDelete, BackoffQ},
		{"an irrelevant one: unschedulable", framework.EventAssignedPodAdd, Unschedulable},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q := hintQueue(t, ext)
			q.Add(entry("p", 0, t0), false)
			e, _ := q.Pop()
			e.UnschedulablePlugins = map[string]bool{"Fit": true}
			q.MoveAllToActiveOrBackoffQueue(tt.event, st.MakePod().Name("other").Node("n").Obj(), nil, t0, nil)
			if got := q.AddUnschedulable(e, t0, false); got != tt.want {
				t.Errorf("went to %s, want %s", got, tt.want)
			}
		})
	}
}

func TestGatedPodsRerunPreEnqueueOnTheirGateEvents(t *testing.T) {
	gate := framework.ClusterEvent{Resource: framework.Pod, ActionType: framework.UpdatePodSchedulingGatesEliminated}
	q := newQueue()
	m, _ := BuildQueueingHintMap([]framework.EnqueueExtensions{fakeExt{"Gates", []framework.ClusterEventWithHint{{Event: gate}}}})
	open := false
	q.RegisterProfile("", &Profile{Hints: m, PreEnqueue: func(*api.Pod) *framework.Status {
		if open {
			return nil
		}
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, "gated").WithPlugin("Gates")
	}})
	e := entry("g", 0, t0)
	e.UnschedulablePlugins = nil
	e.GatingPlugin = "Gates"
	q.Add(e, true)
	old := *e.Pod
	old.Spec.SchedulingGates = []api.PodSchedulingGate{{Name: "x"}}
	if got := q.Update(&old, e.Pod, t0); got != nil {
		t.Errorf("still gated, but moved: %v", got)
	}
	open = true
	if got := q.MoveAllToActiveOrBackoffQueue(framework.EventAssignedPodDelete, st.MakePod().Obj(), nil, t0, nil); got != nil {
		t.Errorf("an event the gate did not register moved the gated pod: %v", got)
	}
	want := []Move{{Pod: "default/g", To: ActiveQ, Event: "UnschedulablePodUpdatePodSchedulingGatesEliminated", Plugin: "Gates"}}
	if diff := cmp.Diff(want, q.Update(&old, e.Pod, t0)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
