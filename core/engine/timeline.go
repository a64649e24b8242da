package engine

import (
	"fmt"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/controllers"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/scenario"
)

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
		if sp.phase == PhaseFailed || sp.phase == PhaseSucceeded {
			// The object goes at once (grace 0 for a finished pod); its
			// node and the scheduler let it go when it finished.
			sp.phase = PhaseDeleted
			s.changes++
			s.emit(Event{Kind: EvDeleted, Pod: sp.pod.Key(), Node: sp.pod.Spec.NodeName, Reason: "deleted by the timeline: it had finished, so the object is removed at once"})
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
