package scenario

import (
	"fmt"

	"github.com/schedplay/schedplay/core/api"
)

// Storage objects: validation as the API server's (core and storage
// validation, the parts a scenario can get wrong) and admission (v1
// defaults, DefaultStorageClass).

var accessModes = []string{string(api.ReadOnlyMany), string(api.ReadWriteMany), string(api.ReadWriteOnce), string(api.ReadWriteOncePod)}

func (v *validator) accessModes(path string, modes []api.PersistentVolumeAccessMode) {
	if len(modes) == 0 {
		v.err(path, "Required value: at least 1 access mode is required", "add accessModes: [ReadWriteOnce]")
		return
	}
	rwop := false
	for i, m := range modes {
		v.enum(fmt.Sprintf("%s[%d]", path, i), string(m), accessModes...)
		rwop = rwop || m == api.ReadWriteOncePod
	}
	if rwop && len(modes) > 1 {
		v.err(path, "Forbidden: may not use ReadWriteOncePod with other access modes", "keep ReadWriteOncePod alone")
	}
}

func (v *validator) volumeMode(path string, m *api.PersistentVolumeMode) {
	if m != nil {
		v.enum(path, string(*m), string(api.PersistentVolumeBlock), string(api.PersistentVolumeFilesystem))
	}
}

func (v *validator) storageQuantity(path string, rl api.ResourceList) {
	q, ok := rl[api.ResourceStorage]
	if !ok {
		v.err(path+"[storage]", "Required value", "add storage: 1Gi")
		return
	}
	if q.Sign() <= 0 {
		v.err(path+"[storage]", "Invalid value: must be greater than zero", "")
	}
}

func (v *validator) claimSpec(path string, s *api.PersistentVolumeClaimSpec) {
	v.accessModes(path+".accessModes", s.AccessModes)
	v.labelSelector(path+".selector", s.Selector)
	v.storageQuantity(path+".resources.requests", s.Resources.Requests)
	v.quantities(path+".resources.limits", s.Resources.Limits, false)
	if s.StorageClassName != nil && *s.StorageClassName != "" {
		v.dnsSubdomain(path+".storageClassName", *s.StorageClassName)
	}
	if s.VolumeName != "" {
		v.dnsSubdomain(path+".volumeName", s.VolumeName)
	}
	v.volumeMode(path+".volumeMode", s.VolumeMode)
}

// volumeSources are the keys of a PersistentVolume's spec that name its
// volume type (core validation requires exactly one).
var volumeSources = []string{"awsElasticBlockStore", "azureDisk", "azureFile", "cephfs", "cinder", "csi", "fc",
	"flexVolume", "flocker", "gcePersistentDisk", "glusterfs", "hostPath", "iscsi", "local", "nfs",
	"photonPersistentDisk", "portworxVolume", "quobyte", "rbd", "scaleIO", "storageos", "vsphereVolume"}

func (v *validator) persistentVolume(pv *api.PersistentVolume) {
	n := 0
	if spec := v.o.tree().get("spec"); spec != nil && spec.kind == yMap {
		for _, k := range volumeSources {
			if spec.get(k) != nil {
				n++
			}
		}
	}
	switch {
	case n == 0:
		v.err("spec", "Required value: must specify a volume type", "add the volume's source, e.g. csi: {driver: ebs.csi.aws.com, volumeHandle: vol-1}")
	case n > 1:
		v.err("spec", "Forbidden: may not specify more than 1 volume type", "keep one volume source")
	}
	v.accessModes("spec.accessModes", pv.Spec.AccessModes)
	v.storageQuantity("spec.capacity", pv.Spec.Capacity)
	if pv.Spec.StorageClassName != "" {
		v.dnsSubdomain("spec.storageClassName", pv.Spec.StorageClassName)
	}
	if r := pv.Spec.ClaimRef; r != nil && r.Name == "" {
		v.err("spec.claimRef.name", "Required value", "name the claim the volume is reserved for")
	}
	if p := pv.Spec.PersistentVolumeReclaimPolicy; p != "" {
		v.enum("spec.persistentVolumeReclaimPolicy", p, "Delete", "Recycle", "Retain")
	}
	v.volumeMode("spec.volumeMode", pv.Spec.VolumeMode)
	if na := pv.Spec.NodeAffinity; na != nil {
		if na.Required == nil {
			v.err("spec.nodeAffinity.required", "Required value: must specify required node constraints", "")
		} else {
			if len(na.Required.NodeSelectorTerms) == 0 {
				v.err("spec.nodeAffinity.required.nodeSelectorTerms", "Required value: must have at least one node selector term", "")
			}
			for i := range na.Required.NodeSelectorTerms {
				v.nodeSelectorTerm(fmt.Sprintf("spec.nodeAffinity.required.nodeSelectorTerms[%d]", i), &na.Required.NodeSelectorTerms[i])
			}
		}
	}
	if c := pv.Spec.CSI; c != nil {
		if c.Driver == "" {
			v.err("spec.csi.driver", "Required value", "name the CSI driver")
		}
		if c.VolumeHandle == "" {
			v.err("spec.csi.volumeHandle", "Required value", "")
		}
	}
	if p := pv.Status.Phase; p != "" {
		v.enum("status.phase", p, api.VolumeAvailable, api.VolumeBound, api.VolumeFailed, api.VolumePending, api.VolumeReleased)
	}
}

func (v *validator) claim(c *api.PersistentVolumeClaim) {
	v.claimSpec("spec", &c.Spec)
	if p := c.Status.Phase; p != "" {
		v.enum("status.phase", p, api.ClaimBound, api.ClaimLost, api.ClaimPending)
	}
}

func (v *validator) storageClass(sc *api.StorageClass) {
	if sc.Provisioner == "" {
		v.err("provisioner", "Required value", "name a provisioner, or kubernetes.io/no-provisioner for static volumes only")
	} else {
		v.dnsSubdomainish("provisioner", sc.Provisioner)
	}
	if m := sc.VolumeBindingMode; m != nil {
		v.enum("volumeBindingMode", string(*m), string(api.VolumeBindingImmediate), string(api.VolumeBindingWaitForFirstConsumer))
	}
	if p := sc.ReclaimPolicy; p != nil {
		v.enum("reclaimPolicy", *p, "Delete", "Retain")
	}
	for i, t := range sc.AllowedTopologies {
		p := fmt.Sprintf("allowedTopologies[%d].matchLabelExpressions", i)
		if len(t.MatchLabelExpressions) == 0 {
			v.err(p, "Required value: must contain at least one requirement", "")
		}
		for j, e := range t.MatchLabelExpressions {
			pj := fmt.Sprintf("%s[%d]", p, j)
			v.labelKey(pj+".key", e.Key)
			if len(e.Values) == 0 {
				v.err(pj+".values", "Required value: must specify as least one value", "")
			}
		}
	}
}

// dnsSubdomainish checks a provisioner or driver name: a qualified name
// such as ebs.csi.aws.com or kubernetes.io/no-provisioner.
func (v *validator) dnsSubdomainish(path, s string) {
	if len(s) > 63 {
		v.err(path, fmt.Sprintf("Too long: may not be more than 63 bytes, got %d", len(s)), "")
	}
}

func (v *validator) csiNode(n *api.CSINode) {
	seen := map[string]bool{}
	for i, d := range n.Spec.Drivers {
		p := fmt.Sprintf("spec.drivers[%d]", i)
		if d.Name == "" {
			v.err(p+".name", "Required value", "name the CSI driver")
		}
		if seen[d.Name] {
			v.err(p+".name", fmt.Sprintf("Duplicate value: %q", d.Name), "")
		}
		seen[d.Name] = true
		if d.NodeID == "" {
			v.err(p+".nodeID", "Required value", "")
		}
		if a := d.Allocatable; a != nil && a.Count != nil && *a.Count < 0 {
			v.err(p+".allocatable.count", "Invalid value: must be greater than or equal to 0", "")
		}
		for j, k := range d.TopologyKeys {
			v.labelKey(fmt.Sprintf("%s.topologyKeys[%d]", p, j), k)
		}
	}
}

func (v *validator) podVolumes(path string, vols []api.Volume) {
	seen := map[string]bool{}
	for i, vol := range vols {
		p := fmt.Sprintf("%s[%d]", path, i)
		if vol.Name == "" {
			v.err(p+".name", "Required value", "give the volume a name")
		} else if !validDNSLabel(vol.Name) {
			v.dnsLabel(p+".name", vol.Name)
		} else if seen[vol.Name] {
			v.err(p+".name", fmt.Sprintf("Duplicate value: %q", vol.Name), "volume names must be unique in a pod")
		}
		seen[vol.Name] = true
		if c := vol.PersistentVolumeClaim; c != nil && c.ClaimName == "" {
			v.err(p+".persistentVolumeClaim.claimName", "Required value", "name the PersistentVolumeClaim")
		}
	}
}

func (v *validator) claimTemplates(ts []api.PersistentVolumeClaimTemplate) {
	for i := range ts {
		p := fmt.Sprintf("spec.volumeClaimTemplates[%d]", i)
		if ts[i].Name == "" {
			v.err(p+".metadata.name", "Required value", "name the template; claims are named <template>-<statefulset>-<ordinal>")
		}
		v.claimSpec(p+".spec", &ts[i].Spec)
	}
}

// admitStorage applies the v1 defaults of storage objects and the
// DefaultStorageClass admission plugin (after creation timestamps are set:
// the newest default class wins).
func admitStorage(s *Scenario) {
	for _, sc := range s.StorageClasses {
		if sc.VolumeBindingMode == nil {
			sc.VolumeBindingMode = ptr(api.VolumeBindingImmediate)
		}
		if sc.ReclaimPolicy == nil {
			sc.ReclaimPolicy = ptr("Delete")
		}
	}
	for _, pv := range s.PersistentVolumes {
		if pv.Spec.VolumeMode == nil {
			pv.Spec.VolumeMode = ptr(api.PersistentVolumeFilesystem)
		}
		if pv.Spec.PersistentVolumeReclaimPolicy == "" {
			pv.Spec.PersistentVolumeReclaimPolicy = "Retain"
		}
		if pv.Status.Phase == "" {
			pv.Status.Phase = api.VolumePending
		}
	}
	for _, c := range s.PersistentVolumeClaims {
		api.DefaultClaim(c, s.StorageClasses)
	}
}
