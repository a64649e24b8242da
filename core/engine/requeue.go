package engine

import (
	"fmt"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/queue"
)

// clusterEvent is a change the scheduler's informers would report; requeue
// turns it into upstream's ClusterEvents, as eventhandlers.go does.
type clusterEvent string

// Cluster events.
const (
	// assignedPodAdd: a pod was bound, or created bound (objs: the pod).
	assignedPodAdd clusterEvent = "a pod was scheduled"
	// assignedPodUpdate: a bound pod changed (objs: a copy from before, the pod).
	assignedPodUpdate clusterEvent = "a bound pod was changed"
	// assignedPodDelete: a pod is gone (objs: the pod as it was). For a pod
	// that was never bound this is an unscheduled pod's deletion.
	assignedPodDelete clusterEvent = "a pod was deleted"
	// unscheduledPodUpdate: a pending pod changed, e.g. its nomination
	// (objs: a copy from before, the pod).
	unscheduledPodUpdate clusterEvent = "a pending pod was changed"
	// nodeAdd: a node joined (objs: the node).
	nodeAdd clusterEvent = "a node was added"
	// nodeUpdate: a node changed (objs: the node before, the node after).
	nodeUpdate clusterEvent = "a node was changed"
	// nodeDelete: a node left (objs: the node).
	nodeDelete clusterEvent = "a node was removed"
	// volumeUpdate: claims or volumes were created or bound (no objs).
	volumeUpdate clusterEvent = "a claim or volume changed"
)

// requeue tells the scheduling queue about a cluster change. objs are the
// objects involved: the new one for an add, the old one for a delete, the
// old then the new for an update (node events: *api.Node). Every pod the
// queueing hints move is traced with the event and the plugin whose hint
// said Queue.
func (s *Simulation) requeue(ev clusterEvent, objs ...any) {
	s.registerQueueProfiles()
	var oldObj, newObj any
	switch len(objs) {
	case 1:
		oldObj, newObj = objs[0], objs[0]
	case 2:
		oldObj, newObj = objs[0], objs[1]
	}
	var moves []queue.Move
	move := func(e framework.ClusterEvent, oldObj, newObj any, preCheck func(*api.Pod) bool) {
		moves = append(moves, s.queue.MoveAllToActiveOrBackoffQueue(e, oldObj, newObj, s.now, preCheck)...)
	}
	switch ev {
	case assignedPodAdd:
		p, _ := newObj.(*api.Pod)
		if p == nil {
			break
		}
		s.queue.Done(p.Key())
		move(framework.EventAssignedPodAdd, nil, p, nil)
	case assignedPodUpdate:
		oldPod, newPod := asPods(oldObj, newObj)
		if oldPod == nil || newPod == nil {
			break
		}
		for _, e := range framework.PodSchedulingPropertiesChange(newPod, oldPod) {
			move(e, oldPod, newPod, nil)
		}
	case assignedPodDelete:
		p, _ := oldObj.(*api.Pod)
		switch {
		case p == nil:
		case p.Spec.NodeName != "":
			move(framework.EventAssignedPodDelete, p, nil, nil)
		case p.Status.NominatedNodeName != "":
			// Lower or equal priority pods treated the nominated pod as
			// placed; its deletion may let them fit.
			move(framework.EventAssignedPodDelete, p, nil, lowerOrEqualPriority(p.PriorityValue()))
		}
	case unscheduledPodUpdate:
		oldPod, newPod := asPods(oldObj, newObj)
		if oldPod == nil || newPod == nil {
			break
		}
		moves = append(moves, s.queue.Update(oldPod, newPod, s.now)...)
		if oldPod.Status.NominatedNodeName != "" && oldPod.Status.NominatedNodeName != newPod.Status.NominatedNodeName {
			// Leaving a nominated node is like being deleted from it.
			move(framework.EventAssignedPodDelete, oldPod, nil, lowerOrEqualPriority(oldPod.PriorityValue()))
		}
	case nodeAdd:
		n, _ := newObj.(*api.Node)
		if n == nil {
			move(unknownObject(ev), nil, nil, nil)
			break
		}
		move(framework.EventNodeAdd, nil, n, nil)
	case nodeUpdate:
		oldNode, _ := oldObj.(*api.Node)
		newNode, _ := newObj.(*api.Node)
		if oldNode == nil || newNode == nil || len(objs) != 2 {
			move(unknownObject(ev), nil, nil, nil)
			break
		}
		for _, e := range framework.NodeSchedulingPropertiesChange(newNode, oldNode) {
			move(e, oldNode, newNode, nil)
		}
	case volumeUpdate:
		for _, e := range []framework.ClusterEvent{
			{Resource: framework.PersistentVolumeClaim, ActionType: framework.Add},
			{Resource: framework.PersistentVolumeClaim, ActionType: framework.Update},
			{Resource: framework.PersistentVolume, ActionType: framework.Add},
			{Resource: framework.PersistentVolume, ActionType: framework.Update},
		} {
			move(e, nil, nil, nil)
		}
	case nodeDelete:
		n, _ := oldObj.(*api.Node)
		if n == nil {
			move(unknownObject(ev), nil, nil, nil)
			break
		}
		move(framework.EventNodeDelete, n, nil, nil)
	}
	for _, m := range moves {
		why := "no plugin rejected it, so any event retries it"
		if m.Plugin != "" {
			why = m.Plugin + "'s queueing hint says it may now fit"
		}
		s.emit(Event{Kind: EvRequeued, Pod: m.Pod, Queue: string(m.To), Reason: fmt.Sprintf("%s (%s): %s", ev, m.Event, why)})
	}
}

// unknownObject stands in for an event whose objects were not passed: a
// wildcard moves every waiting pod, so none is stranded.
func unknownObject(ev clusterEvent) framework.ClusterEvent {
	return framework.ClusterEvent{Resource: framework.WildCard, ActionType: framework.All, CustomLabel: string(ev)}
}

func asPods(oldObj, newObj any) (*api.Pod, *api.Pod) {
	o, _ := oldObj.(*api.Pod)
	n, _ := newObj.(*api.Pod)
	return o, n
}

// lowerOrEqualPriority is eventhandlers.go's getLEPriorityPreCheck.
func lowerOrEqualPriority(priority int32) func(*api.Pod) bool {
	return func(p *api.Pod) bool { return p.PriorityValue() <= priority }
}

// nominate sets a pending pod's nomination and reports the update, as the
// scheduler's status patch would reach its informer.
func (s *Simulation) nominate(sp *simPod, node string) {
	if sp.pod.Status.NominatedNodeName == node {
		return
	}
	before := *sp.pod
	s.setNomination(sp, node)
	s.requeue(unscheduledPodUpdate, &before, sp.pod)
}

// registerQueueProfiles gives the queue the hints and PreEnqueue plugins of
// every profile built so far.
func (s *Simulation) registerQueueProfiles() {
	for name, r := range s.profiles {
		if s.queue.HasProfile(name) {
			continue
		}
		hints, err := queue.BuildQueueingHintMap(r.fwk.EnqueueExtensions())
		if err != nil {
			panic(fmt.Sprintf("registering events of profile %s: %v", name, err)) // in-tree plugins never fail
		}
		s.queue.RegisterProfile(name, &queue.Profile{Hints: hints, PreEnqueue: r.fwk.RunPreEnqueuePlugins})
	}
}
