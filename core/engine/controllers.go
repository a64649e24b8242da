package engine

import (
	"fmt"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/controllers"
	"github.com/schedplay/schedplay/core/disruption"
)

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
				// The controller creates the pod's missing claims first.
				if err := s.createClaims(controllers.StatefulSetClaims(ss, controllers.Ordinal(ss, p), s.now), key); err != nil {
					s.emit(Event{Kind: EvWaiting, Reason: fmt.Sprintf("StatefulSet %s cannot create %s: %v", key, p.Name, err)})
					continue
				}
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
