package queue

import (
	"errors"
	"fmt"
	"sort"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
)

// QueueingHintFunction is one plugin's hint for one registered event.
type QueueingHintFunction struct {
	PluginName     string
	QueueingHintFn framework.QueueingHintFn
}

// EventHints are the hints registered for one event, in plugin order.
type EventHints struct {
	Event framework.ClusterEvent
	Fns   []*QueueingHintFunction
}

// QueueingHintMap is a profile's registrations. Upstream keeps a map; a
// slice in registration order makes the plugin named in traces repeatable.
type QueueingHintMap []EventHints

func (m *QueueingHintMap) add(ev framework.ClusterEvent, fn *QueueingHintFunction) {
	for i := range *m {
		if (*m)[i].Event == ev {
			(*m)[i].Fns = append((*m)[i].Fns, fn)
			return
		}
	}
	*m = append(*m, EventHints{Event: ev, Fns: []*QueueingHintFunction{fn}})
}

// defaultQueueingHintFn stands in for a registration without a hint.
func defaultQueueingHintFn(*api.Pod, any, any) (framework.QueueingHint, error) {
	return framework.Queue, nil
}

// BuildQueueingHintMap collects the plugins' registrations as upstream's
// buildQueueingHintMap: no hint means Queue, and a plugin registering Node
// Add without UpdateNodeTaint also gets UpdateNodeTaint with no hint (the
// workaround for kubernetes#109437, still applied with hints on).
func BuildQueueingHintMap(exts []framework.EnqueueExtensions) (QueueingHintMap, error) {
	var m QueueingHintMap
	var errs []error
	for _, e := range exts {
		events, err := e.EventsToRegister()
		if err != nil {
			errs = append(errs, fmt.Errorf("registering events of %s: %w", e.Name(), err))
		}
		nodeAdded, nodeTaint := false, false
		for _, ev := range events {
			fn := ev.QueueingHintFn
			if fn == nil {
				fn = defaultQueueingHintFn
			}
			if ev.Event.Resource == framework.Node {
				nodeAdded = nodeAdded || ev.Event.ActionType&framework.Add != 0
				nodeTaint = nodeTaint || ev.Event.ActionType&framework.UpdateNodeTaint != 0
			}
			m.add(ev.Event, &QueueingHintFunction{PluginName: e.Name(), QueueingHintFn: fn})
		}
		if nodeAdded && !nodeTaint {
			m.add(framework.ClusterEvent{Resource: framework.Node, ActionType: framework.UpdateNodeTaint},
				&QueueingHintFunction{PluginName: e.Name(), QueueingHintFn: defaultQueueingHintFn})
		}
	}
	return m, errors.Join(errs...)
}

// pluginEvents lists the events each plugin registered (upstream's
// buildEventMap), to skip gated pods on events their gate ignores.
func (m QueueingHintMap) pluginEvents() map[string][]framework.ClusterEvent {
	out := map[string][]framework.ClusterEvent{}
	for _, eh := range m {
		for _, fn := range eh.Fns {
			out[fn.PluginName] = append(out[fn.PluginName], eh.Event)
		}
	}
	return out
}

// interestedIn reports whether any plugin registered an event covering ev.
func (m QueueingHintMap) interestedIn(ev framework.ClusterEvent) bool {
	for _, eh := range m {
		if framework.MatchClusterEvents(eh.Event, ev) {
			return true
		}
	}
	return false
}

// Profile is what the queue needs from a scheduling profile.
type Profile struct {
	Hints QueueingHintMap
	// PreEnqueue runs the PreEnqueue plugins (nil: none).
	PreEnqueue func(pod *api.Pod) *framework.Status

	events map[string][]framework.ClusterEvent
}

// queueingStrategy is where an event sends a waiting pod.
type queueingStrategy int

const (
	queueSkip queueingStrategy = iota
	queueAfterBackoff
	queueImmediately
)

// isPodWorthRequeuing asks the hints of the plugins that rejected e (and
// only those) about the event. Queue from a Pending plugin means activeQ at
// once, from an Unschedulable one after backoff. A pod no plugin rejected
// (an error) always goes back after backoff, as does every pod on a
// wildcard event (unless the event names another pod). It also returns the
// plugin whose hint said Queue, for the trace.
func (q *PriorityQueue) isPodWorthRequeuing(e *Entry, ev framework.ClusterEvent, oldObj, newObj any) (queueingStrategy, string) {
	if len(e.UnschedulablePlugins) == 0 && len(e.PendingPlugins) == 0 {
		return queueAfterBackoff, ""
	}
	if framework.ClusterEventIsWildCard(ev) {
		if newObj != nil {
			if p, ok := newObj.(*api.Pod); !ok || p.UID != e.Pod.UID {
				return queueSkip, ""
			}
		}
		return queueAfterBackoff, ""
	}
	prof := q.profile(e.Pod.Spec.SchedulerName)
	if prof == nil {
		return queueAfterBackoff, ""
	}
	strategy, by := queueSkip, ""
	for _, eh := range prof.Hints {
		if !framework.MatchClusterEvents(eh.Event, ev) {
			continue
		}
		for _, fn := range eh.Fns {
			pending := e.PendingPlugins[fn.PluginName]
			if !e.UnschedulablePlugins[fn.PluginName] && !pending {
				continue
			}
			hint, err := fn.QueueingHintFn(e.Pod, oldObj, newObj)
			if err != nil {
				hint = framework.Queue // never leave a pod stuck on a faulty hint
			}
			if hint == framework.QueueSkip {
				continue
			}
			if pending {
				return queueImmediately, fn.PluginName
			}
			if len(e.PendingPlugins) == 0 {
				return queueAfterBackoff, fn.PluginName
			}
			if strategy == queueSkip {
				strategy, by = queueAfterBackoff, fn.PluginName
			}
		}
	}
	return strategy, by
}

// RegisterProfile gives the queue a profile's hints and PreEnqueue plugins.
func (q *PriorityQueue) RegisterProfile(name string, p *Profile) {
	if _, ok := q.profiles[name]; !ok {
		q.profileNames = append(q.profileNames, name)
		sort.Strings(q.profileNames)
	}
	p.events = p.Hints.pluginEvents()
	q.profiles[name] = p
}

// HasProfile reports whether RegisterProfile was called for name.
func (q *PriorityQueue) HasProfile(name string) bool { return q.profiles[name] != nil }

func (q *PriorityQueue) profile(name string) *Profile { return q.profiles[name] }

// isEventOfInterest reports whether some profile's plugins registered the
// event; other events move nothing, not even pods without rejectors.
func (q *PriorityQueue) isEventOfInterest(ev framework.ClusterEvent) bool {
	if framework.ClusterEventIsWildCard(ev) {
		return true
	}
	for _, name := range q.profileNames {
		if p := q.profile(name); p != nil && p.Hints.interestedIn(ev) {
			return true
		}
	}
	return false
}
