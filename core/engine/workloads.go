package engine

import (
	"fmt"
	"sort"
	"time"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/controllers"
	"github.com/schedplay/schedplay/core/disruption"
	"github.com/schedplay/schedplay/core/eviction"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/queue"
	"github.com/schedplay/schedplay/core/scenario"
)

// evictionPressureTransitionPeriod is how long the kubelet keeps reporting
// a pressure condition after the signal falls below its threshold.
const evictionPressureTransitionPeriod = 5 * time.Minute

// pressureState is one node's active pressure.
type pressureState struct {
	p     *scenario.Pressure
	stats eviction.Stats
	// evicting is the pod being killed; the next eviction waits for it.
	evicting string
	relief   bool
}

// workloads are the controller-managed objects, copied from the scenario
// so the simulation can change them.
type workloads struct {
	deployments  []*api.Deployment
	replicaSets  []*api.ReplicaSet
	statefulSets []*api.StatefulSet
	syncMark     int
	stsWaiting   map[string]string
}

func (s *Simulation) initWorkloads() {
	for _, d := range s.sc.Deployments {
		c := *d
		s.wl.deployments = append(s.wl.deployments, &c)
	}
	for _, rs := range s.sc.ReplicaSets {
		c := *rs
		s.wl.replicaSets = append(s.wl.replicaSets, &c)
	}
	for _, ss := range s.sc.StatefulSets {
		c := *ss
		s.wl.statefulSets = append(s.wl.statefulSets, &c)
	}
	s.wl.syncMark = -1
	s.wl.stsWaiting = map[string]string{}
	s.publishWorkloads()
	for i, a := range s.sc.Timeline {
		s.addActionTimer(s.sc.T0.Add(a.At), i)
	}
}

// publishWorkloads makes the current workload objects visible to the
// scheduler's listers (default spread constraints) and the PDB scale lookup.
func (s *Simulation) publishWorkloads() {
	s.lister.ReplicaSetList = s.wl.replicaSets
	s.lister.StatefulSetList = s.wl.statefulSets
	s.pdbScale = disruption.WithReplicationControllers(disruption.WorkloadScales(s.wl.replicaSets, s.wl.statefulSets, s.wl.deployments), s.sc.ReplicationControllers)
}

func (s *Simulation) hasWorkloads() bool {
	return len(s.wl.deployments)+len(s.wl.replicaSets)+len(s.wl.statefulSets) > 0
}

// owned lists the pods (not yet deleted) a workload controls, by key.
func (s *Simulation) owned(m *api.ObjectMeta) []*api.Pod {
	var out []*api.Pod
	for _, k := range s.order {
		if sp := s.pods[k]; !sp.gone() && sp.pod.Namespace == m.Namespace && controllers.Owns(m, sp.pod) {
			out = append(out, sp.pod)
		}
	}
	return out
}

// reconcile runs every controller once after the cluster changed, the way
// the controllers react to the watch events of the same instant.
func (s *Simulation) reconcile() {
	for s.hasWorkloads() && s.wl.syncMark != s.changes {
		s.wl.syncMark = s.changes
		for _, d := range s.wl.deployments {
			s.syncDeployment(d)
		}
		for _, rs := range s.wl.replicaSets {
			create, remove := controllers.SyncReplicaSet(rs, s.owned(&rs.ObjectMeta), s.rng.IntN,
				func(k string) bool { return s.pods[k] != nil }, s.now)
			active := len(s.owned(&rs.ObjectMeta))
			for _, p := range create {
				s.createPod(p, fmt.Sprintf("created by ReplicaSet %s/%s: %d replica(s) wanted, pods being deleted do not count", rs.Namespace, rs.Name, controllers.Replicas(rs.Spec.Replicas)))
			}
			for _, p := range remove {
				s.deleteByController(p, fmt.Sprintf("ReplicaSet %s/%s scaled down to %d (had %d)", rs.Namespace, rs.Name, controllers.Replicas(rs.Spec.Replicas), active))
			}
		}
		for _, ss := range s.wl.statefulSets {
			create, remove, wait := controllers.SyncStatefulSet(ss, s.owned(&ss.ObjectMeta), s.now)
			key := ss.Namespace + "/" + ss.Name
			if wait != s.wl.stsWaiting[key] && wait != "" {
				s.emit(Event{Kind: EvWaiting, Reason: fmt.Sprintf("StatefulSet %s (OrderedReady) waits: %s", key, wait)})
			}
			s.wl.stsWaiting[key] = wait
			for _, p := range create {
				s.createPod(p, fmt.Sprintf("created by StatefulSet %s: ordinal %s, every lower ordinal is Running and Ready", key, p.Labels[controllers.PodIndexLabel]))
			}
			for _, p := range remove {
				s.deleteByController(p, fmt.Sprintf("StatefulSet %s scaled down to %d: highest ordinal first", key, controllers.Replicas(ss.Spec.Replicas)))
			}
		}
	}
}

// syncDeployment makes sure the Deployment's ReplicaSet for its template
// exists with the Deployment's replicas.
func (s *Simulation) syncDeployment(d *api.Deployment) {
	want := controllers.ReplicaSetFor(d, s.now)
	for _, rs := range s.wl.replicaSets {
		if rs.Namespace == want.Namespace && rs.Name == want.Name {
			if r := controllers.Replicas(d.Spec.Replicas); controllers.Replicas(rs.Spec.Replicas) != r {
				rs.Spec.Replicas = &r
				s.changes++
			}
			return
		}
	}
	s.wl.replicaSets = append(s.wl.replicaSets, want)
	s.publishWorkloads()
	s.changes++
	s.emit(Event{Kind: EvCreated, Reason: fmt.Sprintf("Deployment %s/%s created ReplicaSet %s (name = deployment + pod-template-hash)", d.Namespace, d.Name, want.Name)})
}

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
	sp := &simPod{pod: p, phase: PhasePending}
	s.pods[key] = sp
	i := sort.SearchStrings(s.order, key)
	s.order = append(s.order, "")
	copy(s.order[i+1:], s.order[i:])
	s.order[i] = key
	s.changes++
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
		s.emit(Event{Kind: EvGated, Pod: p.Key(), Reason: st.Message(), Queue: string(queue.Gated)})
		return
	}
	s.queue.Add(sp.entry, false)
	s.emit(Event{Kind: EvQueued, Pod: p.Key(), Reason: "pending pod enters the scheduling queue", Queue: string(queue.ActiveQ)})
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

// apply carries out a timeline action.
func (s *Simulation) apply(a *scenario.Action) {
	switch a.Kind {
	case scenario.ActionCreate, scenario.ActionAddNode:
		s.create(a.Object)
	case scenario.ActionDelete:
		s.deleteObject(a.Ref, a.GracePeriodSeconds)
	case scenario.ActionCordon, scenario.ActionUncordon:
		cordon := a.Kind == scenario.ActionCordon
		s.updateNode(a.Ref.Name, func(n *api.Node) string {
			if n.Spec.Unschedulable == cordon {
				return ""
			}
			n.Spec.Unschedulable = cordon
			if cordon {
				return "cordoned: spec.unschedulable=true, new pods stay off; running pods keep running"
			}
			return "uncordoned: spec.unschedulable=false, the node takes new pods again"
		})
	case scenario.ActionRemoveNode:
		s.deleteObject(scenario.ObjectRef{Kind: "Node", Name: a.Ref.Name}, nil)
	case scenario.ActionScale:
		s.scale(a.Ref, a.Replicas)
	case scenario.ActionPressure:
		s.startPressure(a.Pressure)
	}
}

func (s *Simulation) actionFailed(format string, args ...any) {
	s.emit(Event{Kind: EvAction, Reason: "timeline action ignored: " + fmt.Sprintf(format, args...)})
}

func (s *Simulation) create(obj any) {
	switch o := obj.(type) {
	case *api.Pod:
		c := *o
		s.createPod(&c, "created by the timeline")
	case *api.Node:
		for _, n := range s.nodes {
			if n.Name == o.Name {
				s.actionFailed("node %s already exists", o.Name)
				return
			}
		}
		c := *o
		s.nodes = append(s.nodes, &c)
		s.rebuildSnapshot()
		s.emit(Event{Kind: EvAction, Node: o.Name, Reason: "node added by the timeline"})
		s.requeue(nodeAdd, &c)
	case *api.Deployment:
		c := *o
		s.wl.deployments = append(s.wl.deployments, &c)
		s.emit(Event{Kind: EvAction, Reason: fmt.Sprintf("Deployment %s/%s created by the timeline", o.Namespace, o.Name)})
	case *api.ReplicaSet:
		c := *o
		s.wl.replicaSets = append(s.wl.replicaSets, &c)
		s.emit(Event{Kind: EvAction, Reason: fmt.Sprintf("ReplicaSet %s/%s created by the timeline", o.Namespace, o.Name)})
	case *api.StatefulSet:
		c := *o
		s.wl.statefulSets = append(s.wl.statefulSets, &c)
		s.emit(Event{Kind: EvAction, Reason: fmt.Sprintf("StatefulSet %s/%s created by the timeline", o.Namespace, o.Name)})
	case *api.PodDisruptionBudget:
		s.pdbs = append(s.pdbs, o)
		s.emit(Event{Kind: EvAction, Reason: fmt.Sprintf("PodDisruptionBudget %s/%s created by the timeline", o.Namespace, o.Name)})
	}
	s.publishWorkloads()
	s.changes++
}

func (s *Simulation) deleteObject(ref scenario.ObjectRef, grace *int64) {
	switch ref.Kind {
	case "Pod":
		sp := s.pods[ref.Namespace+"/"+ref.Name]
		if sp == nil || sp.phase == PhaseDeleted {
			s.actionFailed("no pod %s/%s to delete", ref.Namespace, ref.Name)
			return
		}
		if sp.phase == PhaseFailed {
			// The object goes at once; its node and the scheduler let it
			// go when it failed.
			sp.phase = PhaseDeleted
			s.changes++
			s.emit(Event{Kind: EvDeleted, Pod: sp.pod.Key(), Node: sp.pod.Spec.NodeName, Reason: "deleted by the timeline: it had failed, so the object is removed at once"})
			return
		}
		reason := "deleted by the timeline"
		if grace != nil {
			reason = fmt.Sprintf("deleted by the timeline with gracePeriodSeconds %d (it replaces the pod's own)", *grace)
		}
		s.deletePodRequest(sp.pod, reason, grace)
	case "Node":
		idx := -1
		for i, n := range s.nodes {
			if n.Name == ref.Name {
				idx = i
			}
		}
		if idx < 0 {
			s.actionFailed("no node %s to remove", ref.Name)
			return
		}
		gone := s.nodes[idx]
		s.nodes = append(s.nodes[:idx:idx], s.nodes[idx+1:]...)
		s.emit(Event{Kind: EvAction, Node: ref.Name, Reason: "node removed by the timeline"})
		for _, k := range append([]string(nil), s.order...) {
			if sp := s.pods[k]; sp.phase == PhaseRunning && sp.pod.Spec.NodeName == ref.Name {
				s.deletePod(sp, "its node was removed: the pod garbage collector deletes pods bound to a node that no longer exists")
			}
		}
		s.rebuildSnapshot()
		s.changes++
		s.requeue(nodeDelete, gone)
	case "Deployment", "ReplicaSet", "StatefulSet":
		var meta *api.ObjectMeta
		s.wl.deployments = removeMeta(s.wl.deployments, ref, func(d *api.Deployment) *api.ObjectMeta { return &d.ObjectMeta }, &meta)
		s.wl.replicaSets = removeMeta(s.wl.replicaSets, ref, func(r *api.ReplicaSet) *api.ObjectMeta { return &r.ObjectMeta }, &meta)
		s.wl.statefulSets = removeMeta(s.wl.statefulSets, ref, func(r *api.StatefulSet) *api.ObjectMeta { return &r.ObjectMeta }, &meta)
		if meta == nil {
			s.actionFailed("no %s to delete", ref)
			return
		}
		s.emit(Event{Kind: EvAction, Reason: fmt.Sprintf("%s deleted by the timeline; the garbage collector deletes what it owns", ref)})
		s.cascade(meta, ref.String())
		s.publishWorkloads()
		s.changes++
	case "PodDisruptionBudget":
		for i, pdb := range s.pdbs {
			if pdb.Namespace == ref.Namespace && pdb.Name == ref.Name {
				s.pdbs = append(s.pdbs[:i:i], s.pdbs[i+1:]...)
				s.emit(Event{Kind: EvAction, Reason: fmt.Sprintf("%s deleted by the timeline", ref)})
				s.changes++
				return
			}
		}
		s.actionFailed("no %s to delete", ref)
	}
}

// cascade deletes, in the background, every dependent of owner: owned
// ReplicaSets (and their pods) and owned pods.
func (s *Simulation) cascade(owner *api.ObjectMeta, what string) {
	var rsMeta *api.ObjectMeta
	var kept []*api.ReplicaSet
	for _, rs := range s.wl.replicaSets {
		if ref := rs.ControllerRef(); ref != nil && ref.UID == owner.UID && rs.Namespace == owner.Namespace {
			rsMeta = &rs.ObjectMeta
			s.cascade(rsMeta, what)
			continue
		}
		kept = append(kept, rs)
	}
	s.wl.replicaSets = kept
	for _, p := range s.owned(owner) {
		s.deleteByController(p, "owner "+what+" was deleted")
	}
}

func removeMeta[T any](list []T, ref scenario.ObjectRef, meta func(T) *api.ObjectMeta, found **api.ObjectMeta) []T {
	var out []T
	for _, o := range list {
		if m := meta(o); m.Namespace == ref.Namespace && m.Name == ref.Name && kindOf(o) == ref.Kind {
			*found = m
			continue
		}
		out = append(out, o)
	}
	return out
}

func kindOf(o any) string {
	switch o.(type) {
	case *api.Deployment:
		return "Deployment"
	case *api.ReplicaSet:
		return "ReplicaSet"
	case *api.StatefulSet:
		return "StatefulSet"
	}
	return ""
}

func (s *Simulation) scale(ref scenario.ObjectRef, replicas int32) {
	var spec *api.WorkloadSpec
	for _, d := range s.wl.deployments {
		if ref.Kind == "Deployment" && d.Namespace == ref.Namespace && d.Name == ref.Name {
			spec = &d.Spec
		}
	}
	for _, r := range s.wl.replicaSets {
		if ref.Kind == "ReplicaSet" && r.Namespace == ref.Namespace && r.Name == ref.Name {
			spec = &r.Spec
		}
	}
	for _, r := range s.wl.statefulSets {
		if ref.Kind == "StatefulSet" && r.Namespace == ref.Namespace && r.Name == ref.Name {
			spec = &r.Spec
		}
	}
	if spec == nil {
		s.actionFailed("no %s to scale", ref)
		return
	}
	old := controllers.Replicas(spec.Replicas)
	spec.Replicas = &replicas
	s.changes++
	s.emit(Event{Kind: EvAction, Reason: fmt.Sprintf("%s scaled from %d to %d replicas by the timeline", ref, old, replicas)})
}

// updateNode changes a copy of a node; change returns what it did ("" for nothing).
func (s *Simulation) updateNode(name string, change func(*api.Node) string) {
	for i, n := range s.nodes {
		if n.Name != name {
			continue
		}
		c := *n
		c.Spec.Taints = append([]api.Taint(nil), n.Spec.Taints...)
		what := change(&c)
		if what == "" {
			return
		}
		s.nodes[i] = &c
		s.rebuildSnapshot()
		s.changes++
		s.emit(Event{Kind: EvAction, Node: name, Reason: what})
		s.requeue(nodeUpdate, n, &c)
		return
	}
	s.actionFailed("no node %s", name)
}

// rebuildSnapshot rebuilds the scheduler's view after a node change, as the
// cache would after a node add, update or delete.
func (s *Simulation) rebuildSnapshot() {
	var bound []*api.Pod
	for _, k := range s.order {
		if sp := s.pods[k]; sp.phase == PhaseRunning {
			bound = append(bound, sp.pod)
		}
	}
	s.snap = framework.NewSnapshot(bound, s.nodes)
}

// startPressure raises a node's eviction signal and starts evicting.
func (s *Simulation) startPressure(p *scenario.Pressure) {
	if _, err := s.snap.Get(p.Node); err != nil {
		s.actionFailed("no node %s to put under pressure", p.Node)
		return
	}
	stats := eviction.Stats{}
	for k, q := range p.Usage {
		stats[k] = q.Value()
	}
	s.pressure[p.Node] = &pressureState{p: p, stats: stats}
	taint := eviction.PressureTaint(p.Resource)
	s.updateNode(p.Node, func(n *api.Node) string {
		for _, t := range n.Spec.Taints {
			if t.Key == taint.Key {
				return ""
			}
		}
		n.Spec.Taints = append(n.Spec.Taints, taint)
		return fmt.Sprintf("%s pressure (%s threshold): the node reports the condition and gets the %s:NoSchedule taint", p.Resource, p.Threshold, taint.Key)
	})
	s.evictStep(p.Node)
}

// evictStep is one pass of the kubelet's eviction manager on a node: while
// the pods use more than the limit, evict the first-ranked pod, then wait
// for it to be gone before looking again.
func (s *Simulation) evictStep(node string) {
	ps := s.pressure[node]
	if ps == nil || ps.relief {
		return
	}
	if ps.evicting != "" {
		if sp := s.pods[ps.evicting]; sp != nil && !sp.gone() {
			return
		}
		ps.evicting = ""
	}
	var active []*api.Pod
	var used int64
	for _, k := range s.order {
		sp := s.pods[k]
		if sp.phase != PhaseRunning || sp.pod.Spec.NodeName != node {
			continue
		}
		used += ps.stats[k]
		if !sp.terminating {
			active = append(active, sp.pod)
		}
	}
	p := ps.p
	if used <= p.Limit.Value() || len(active) == 0 {
		ps.relief = true
		s.emit(Event{Kind: EvPressure, Node: node, Reason: fmt.Sprintf("%s use %d is within the limit %d: the pressure condition clears after %v", p.Resource, used, p.Limit.Value(), evictionPressureTransitionPeriod)})
		s.addTimer(s.now.Add(evictionPressureTransitionPeriod), timerRelief, node, false)
		return
	}
	ranked := eviction.Rank(active, ps.stats, p.Resource)
	victim := s.pods[ranked[0].Key()]
	override := eviction.GracePeriodOverride(victim.pod, p.Threshold == scenario.ThresholdHard, p.MaxPodGracePeriod)
	before := *victim.pod
	victim.pod.Status.Conditions = append(append([]api.PodCondition(nil), victim.pod.Status.Conditions...), eviction.Condition(p.Resource))
	s.podUpdated(&before, victim.pod)
	ps.evicting = victim.pod.Key()
	s.terminate(victim, EvEvicted, fmt.Sprintf("node-pressure eviction on %s (%s use %d > limit %d, %s threshold), ranked 1st of %d: %s",
		node, p.Resource, used, p.Limit.Value(), p.Threshold, len(active), eviction.Why(victim.pod, ps.stats, p.Resource)), nil, &override)
}

// relieve removes the pressure taint once the transition period is over.
func (s *Simulation) relieve(node string) {
	ps := s.pressure[node]
	if ps == nil {
		return
	}
	delete(s.pressure, node)
	taint := eviction.PressureTaint(ps.p.Resource)
	s.updateNode(node, func(n *api.Node) string {
		for i, t := range n.Spec.Taints {
			if t.Key == taint.Key {
				n.Spec.Taints = append(n.Spec.Taints[:i:i], n.Spec.Taints[i+1:]...)
				return fmt.Sprintf("%s pressure condition cleared: the %s taint is removed", ps.p.Resource, taint.Key)
			}
		}
		return ""
	})
}
