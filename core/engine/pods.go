package engine

import (
	"fmt"
	"sort"
	"time"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/queue"
)

// createPod admits a new pod and puts it in the queue (or on its node).
func (s *Simulation) createPod(p *api.Pod, reason string) {
	if err := s.sc.AdmitCreatedPod(p); err != nil {
		s.emit(Event{Kind: EvIgnored, Pod: p.Key(), Reason: err.Error()})
		return
	}
	if p.UID == "" {
		p.UID = "pod-" + p.Namespace + "-" + p.Name
	}
	if p.CreationTimestamp == nil || p.CreationTimestamp.Before(s.now) {
		now := s.now
		p.CreationTimestamp = &now
	}
	key := p.Key()
	if s.pods[key] != nil {
		s.emit(Event{Kind: EvIgnored, Pod: key, Reason: "a pod with this name already exists; the API server rejects the create"})
		return
	}
	sp := &simPod{pod: p, key: key, phase: PhasePending}
	s.pods[key] = sp
	i := sort.SearchStrings(s.order, key)
	s.order = append(s.order, "")
	copy(s.order[i+1:], s.order[i:])
	s.order[i] = key
	s.changes++
	if p.Finished() {
		sp.phase = finishedPhase(p)
		s.emit(Event{Kind: EvCreated, Pod: key, Node: p.Spec.NodeName, Reason: reason + "; " + finishedReason(sp)})
		return
	}
	if p.Spec.NodeName != "" {
		if _, err := s.snap.Get(p.Spec.NodeName); err != nil {
			sp.phase = PhaseDeleted
			s.emit(Event{Kind: EvIgnored, Pod: key, Reason: fmt.Sprintf("bound to unknown node %q", p.Spec.NodeName)})
			return
		}
		sp.phase = PhaseRunning
		p.Status.Phase = api.PodRunning
		start := s.now
		p.Status.StartTime = &start
		if err := s.snap.AddPod(p); err != nil {
			panic(fmt.Sprintf("creating %s: %v", key, err))
		}
		s.emit(Event{Kind: EvCreated, Pod: key, Node: p.Spec.NodeName, Reason: reason + "; already bound"})
		s.requeue(assignedPodAdd, p)
		return
	}
	s.emit(Event{Kind: EvCreated, Pod: key, Reason: reason})
	s.enqueue(sp, s.now)
}

// enqueue puts a pending pod into the scheduling queue (gated or active).
func (s *Simulation) enqueue(sp *simPod, at time.Time) {
	p := sp.pod
	runner, err := s.profile(p.Spec.SchedulerName)
	if err != nil {
		s.emit(Event{Kind: EvIgnored, Pod: p.Key(), Reason: err.Error()})
		return
	}
	sp.entry = &queue.Entry{QueuedPodInfo: &framework.QueuedPodInfo{PodInfo: framework.NewPodInfo(p), Timestamp: at}}
	if st := runner.fwk.RunPreEnqueuePlugins(p); !st.IsSuccess() {
		sp.entry.GatingPlugin = st.Plugin()
		s.queue.Add(sp.entry, true)
		s.emit(Event{Kind: EvGated, Pod: sp.key, Reason: st.Message(), Queue: string(queue.Gated)})
		return
	}
	s.queue.Add(sp.entry, false)
	s.emit(Event{Kind: EvQueued, Pod: sp.key, Reason: "pending pod enters the scheduling queue", Queue: string(queue.ActiveQ)})
}

// deleteByController deletes a pod as the API server does for a DELETE:
// gracefully when it runs, at once when it waits for a node.
func (s *Simulation) deleteByController(p *api.Pod, reason string) {
	s.deletePodRequest(p, reason, nil)
}

// deletePodRequest is a DELETE of a pod, with the request's grace period
// when grace is set (DeleteOptions.GracePeriodSeconds).
func (s *Simulation) deletePodRequest(p *api.Pod, reason string, grace *int64) {
	sp := s.pods[p.Key()]
	switch {
	case sp == nil || sp.gone() || sp.terminating:
	case sp.phase == PhaseRunning:
		s.terminate(sp, EvTerminating, reason, grace, nil)
	default:
		s.deletePod(sp, reason+"; it was not bound, so it is deleted at once")
	}
}
