package st

import "github.com/schedplay/schedplay/core/api"

// Claim adds a volume named after the claim that uses it.
func (p *PodWrapper) Claim(name string) *PodWrapper {
	p.Spec.Volumes = append(p.Spec.Volumes, api.Volume{Name: name, PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: name}})
	return p
}

// PVCWrapper builds a PersistentVolumeClaim in namespace default.
type PVCWrapper struct{ api.PersistentVolumeClaim }

// MakePVC starts a ReadWriteOnce claim of 1Gi.
func MakePVC(name string) *PVCWrapper {
	w := &PVCWrapper{}
	w.Name, w.Namespace, w.UID = name, "default", "pvc-"+name
	w.Spec.AccessModes = []api.PersistentVolumeAccessMode{api.ReadWriteOnce}
	w.Spec.Resources.Requests = api.ResourceList{api.ResourceStorage: api.MustParseQuantity("1Gi")}
	w.Status.Phase = api.ClaimPending
	return w
}

// Obj returns the claim.
func (w *PVCWrapper) Obj() *api.PersistentVolumeClaim { return &w.PersistentVolumeClaim }

// Class sets storageClassName.
func (w *PVCWrapper) Class(c string) *PVCWrapper { w.Spec.StorageClassName = &c; return w }

// Size sets the storage request.
func (w *PVCWrapper) Size(s string) *PVCWrapper {
	w.Spec.Resources.Requests[api.ResourceStorage] = api.MustParseQuantity(s)
	return w
}

// Modes sets the access modes.
func (w *PVCWrapper) Modes(m ...api.PersistentVolumeAccessMode) *PVCWrapper {
	w.Spec.AccessModes = m
	return w
}

// BoundTo marks the claim fully bound to a volume, as the PV controller leaves it.
func (w *PVCWrapper) BoundTo(pv string) *PVCWrapper {
	w.Spec.VolumeName = pv
	w.Annotations = map[string]string{api.AnnBindCompleted: "yes"}
	w.Status.Phase = api.ClaimBound
	return w
}

// SelectedNode sets the selected-node annotation.
func (w *PVCWrapper) SelectedNode(n string) *PVCWrapper {
	if w.Annotations == nil {
		w.Annotations = map[string]string{}
	}
	w.Annotations[api.AnnSelectedNode] = n
	return w
}

// PVWrapper builds a PersistentVolume.
type PVWrapper struct{ api.PersistentVolume }

// MakePV starts an Available ReadWriteOnce volume of 10Gi.
func MakePV(name string) *PVWrapper {
	w := &PVWrapper{}
	w.Name, w.UID = name, "pv-"+name
	w.Spec.AccessModes = []api.PersistentVolumeAccessMode{api.ReadWriteOnce}
	w.Spec.Capacity = api.ResourceList{api.ResourceStorage: api.MustParseQuantity("10Gi")}
	w.Status.Phase = api.VolumeAvailable
	return w
}

// Obj returns the volume.
func (w *PVWrapper) Obj() *api.PersistentVolume { return &w.PersistentVolume }

// Class sets storageClassName.
func (w *PVWrapper) Class(c string) *PVWrapper { w.Spec.StorageClassName = c; return w }

// Size sets the capacity.
func (w *PVWrapper) Size(s string) *PVWrapper {
	w.Spec.Capacity[api.ResourceStorage] = api.MustParseQuantity(s)
	return w
}

// Zone pins the volume to a zone by node affinity.
func (w *PVWrapper) Zone(z string) *PVWrapper {
	w.Spec.NodeAffinity = &api.VolumeNodeAffinity{Required: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
		MatchExpressions: []api.NodeSelectorRequirement{{Key: api.LabelTopologyZone, Operator: api.NodeSelectorOpIn, Values: []string{z}}},
	}}}}
	return w
}

// Label sets a label.
func (w *PVWrapper) Label(k, v string) *PVWrapper {
	if w.Labels == nil {
		w.Labels = map[string]string{}
	}
	w.Labels[k] = v
	return w
}

// CSI sets the CSI source.
func (w *PVWrapper) CSI(driver, handle string) *PVWrapper {
	w.Spec.CSI = &api.CSIPersistentVolumeSource{Driver: driver, VolumeHandle: handle}
	return w
}

// ClaimRef reserves the volume for a claim in namespace default.
func (w *PVWrapper) ClaimRef(claim string) *PVWrapper {
	w.Spec.ClaimRef = &api.ObjectReference{Namespace: "default", Name: claim}
	w.Status.Phase = api.VolumeBound
	return w
}

// StorageClass builds a class with a binding mode and provisioner.
func StorageClass(name, provisioner string, mode api.VolumeBindingMode, topology ...api.TopologySelectorTerm) *api.StorageClass {
	return &api.StorageClass{ObjectMeta: api.ObjectMeta{Name: name}, Provisioner: provisioner, VolumeBindingMode: &mode, AllowedTopologies: topology}
}

// CSINode builds a node's CSINode with one driver and an attach limit.
func CSINode(node, driver string, limit int32) *api.CSINode {
	return &api.CSINode{ObjectMeta: api.ObjectMeta{Name: node}, Spec: api.CSINodeSpec{Drivers: []api.CSINodeDriver{
		{Name: driver, NodeID: node, TopologyKeys: []string{api.LabelTopologyZone}, Allocatable: &api.VolumeNodeResources{Count: &limit}},
	}}}
}
