package engine

import (
	"fmt"
	"strings"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/controllers"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/scenario"
)

// Storage in the simulation: the scenario's claims, volumes, classes and
// CSI objects, settled by the PV controller and the provisioner
// (core/controllers) before the first cycle, as a real cluster would have
// done before the pods were scheduled, and again whenever VolumeBinding's
// PreBind or the StatefulSet controller changes a claim.

// InitialStorage indexes the scenario's storage objects and lets the PV
// controller and the provisioner settle them (nil without any claim or
// volume: the volume plugins then skip every pod at no cost).
func InitialStorage(sc *scenario.Scenario) (*framework.Storage, []controllers.VolumeChange) {
	if len(sc.PersistentVolumeClaims)+len(sc.PersistentVolumes)+len(sc.StorageClasses)+len(sc.CSINodes)+len(sc.CSIDrivers) == 0 && !hasClaimTemplates(sc) {
		return nil, nil
	}
	st := framework.NewStorage(sc.PersistentVolumes, sc.PersistentVolumeClaims, sc.StorageClasses, sc.CSINodes, sc.CSIDrivers)
	nodes := map[string]*api.Node{}
	for _, n := range sc.Nodes {
		nodes[n.Name] = n
	}
	changes := controllers.SyncVolumes(st, func(name string) *api.Node { return nodes[name] }, sc.T0)
	return st, changes
}

func hasClaimTemplates(sc *scenario.Scenario) bool {
	for _, ss := range sc.StatefulSets {
		if len(ss.Spec.VolumeClaimTemplates) > 0 {
			return true
		}
	}
	return false
}

func hasClaims(p *api.Pod) bool {
	for i := range p.Spec.Volumes {
		if p.Spec.Volumes[i].PersistentVolumeClaim != nil {
			return true
		}
	}
	return false
}

// Storage is the storage objects as they are now (nil without any).
func (s *Simulation) Storage() *framework.Storage { return s.storage }

// node looks up a node of the simulation by name.
func (s *Simulation) node(name string) *api.Node {
	if ni, err := s.snap.Get(name); err == nil {
		return ni.Node()
	}
	return nil
}

// syncVolumes runs the PV controller and the provisioner and traces what
// they did; claim and volume changes requeue pods VolumeBinding,
// VolumeZone and the others registered for.
func (s *Simulation) syncVolumes() []controllers.VolumeChange {
	if s.storage == nil {
		return nil
	}
	changes := controllers.SyncVolumes(s.storage, s.node, s.now)
	s.traceVolumes(changes)
	return changes
}

func (s *Simulation) traceVolumes(changes []controllers.VolumeChange) {
	if len(changes) == 0 {
		return
	}
	s.logStorage()
	for _, c := range changes {
		s.emit(Event{Kind: EvVolume, Reason: c.What})
	}
	s.changes++
	s.requeue(volumeUpdate)
}

var _ framework.VolumeBinder = (*Simulation)(nil)

// BindPodVolumes is the API half of VolumeBinding's PreBind (upstream
// bindAPIUpdate): each reserved volume gets the claim in its claimRef,
// each claim to provision gets the selected-node annotation; then the PV
// controller and the provisioner act at once. Upstream polls every second
// until they have; the simulation does not model that delay.
func (s *Simulation) BindPodVolumes(pod *api.Pod, node string, bindings []framework.StaticBinding, provisions []*api.PersistentVolumeClaim) error {
	if s.storage == nil {
		return fmt.Errorf("no storage objects")
	}
	var did []string
	for _, b := range bindings {
		pv := s.storage.PersistentVolume(b.PV.Name)
		if pv == nil {
			return fmt.Errorf("persistentvolume %q not found", b.PV.Name)
		}
		nv := *pv
		nv.Annotations = copyAnn(pv.Annotations, api.AnnBoundByController, "yes")
		nv.Spec.ClaimRef = &api.ObjectReference{Kind: "PersistentVolumeClaim", APIVersion: "v1", Namespace: b.PVC.Namespace, Name: b.PVC.Name, UID: b.PVC.UID}
		s.storage.PutVolume(&nv)
		did = append(did, fmt.Sprintf("reserved PersistentVolume %s for claim %s", pv.Name, b.PVC.Key()))
	}
	for _, c := range provisions {
		cur := s.storage.PersistentVolumeClaim(c.Namespace, c.Name)
		if cur == nil {
			return fmt.Errorf("persistentvolumeclaim %q not found", c.Name)
		}
		nc := *cur
		nc.Annotations = copyAnn(cur.Annotations, api.AnnSelectedNode, node)
		s.storage.PutClaim(&nc)
		did = append(did, fmt.Sprintf("annotated claim %s with %s=%s for the provisioner", c.Key(), api.AnnSelectedNode, node))
	}
	s.logStorage()
	s.emit(Event{Kind: EvPreBind, Pod: pod.Key(), Node: node, Reason: "VolumeBinding PreBind: " + strings.Join(did, "; ")})
	s.syncVolumes()
	return nil
}

func copyAnn(m map[string]string, k, v string) map[string]string {
	out := make(map[string]string, len(m)+1)
	for a, b := range m {
		out[a] = b
	}
	out[k] = v
	return out
}

// createClaims creates the claims a StatefulSet pod needs and that do not
// exist yet (the StatefulSet controller's createPersistentVolumeClaims),
// with the DefaultStorageClass admission applied; it reports a claim
// being deleted, which stops the pod's creation as upstream.
func (s *Simulation) createClaims(claims []*api.PersistentVolumeClaim, owner string) error {
	if len(claims) == 0 {
		return nil
	}
	if s.storage == nil {
		s.storage = framework.NewStorage(nil, nil, nil, nil, nil)
		s.lister.StorageObjects = s.storage
		s.logStorage()
	}
	created := false
	for _, c := range claims {
		if old := s.storage.PersistentVolumeClaim(c.Namespace, c.Name); old != nil {
			if old.DeletionTimestamp != nil {
				return fmt.Errorf("pvc %s is being deleted", c.Name)
			}
			continue
		}
		classes := make([]*api.StorageClass, 0, len(s.storage.Classes))
		for _, sc := range s.storage.Classes {
			classes = append(classes, sc)
		}
		api.DefaultClaim(c, classes)
		s.storage.PutClaim(c)
		s.logStorage()
		created = true
		class := "no class"
		if n := c.ClassName(); n != "" {
			class = "class " + n
		}
		s.emit(Event{Kind: EvVolume, Reason: fmt.Sprintf("created PersistentVolumeClaim %s (%s) for StatefulSet %s", c.Key(), class, owner)})
	}
	if created {
		s.changes++
		s.requeue(volumeUpdate)
		s.syncVolumes()
	}
	return nil
}

// bindVolumes runs the Reserve and PreBind plugins for a pod with claims
// on its chosen node; a failure unreserves, and the pod goes back to the
// queue as after upstream's handleBindingCycleError.
func (s *Simulation) bindVolumes(r *profileRunner, state *framework.CycleState, p *api.Pod, node string) error {
	if st := r.fwk.RunReservePluginsReserve(state, p, node); !st.IsSuccess() {
		return st.AsError()
	}
	if st := r.fwk.RunPreBindPlugins(state, p, node); !st.IsSuccess() {
		r.fwk.RunReservePluginsUnreserve(state, p, node)
		return st.AsError()
	}
	return nil
}
