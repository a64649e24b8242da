package api

// Storage objects: the subset of v1 PersistentVolume and
// PersistentVolumeClaim and of storage.k8s.io/v1 StorageClass, CSINode and
// CSIDriver that upstream's volume plugins and the PV controller read.

// PersistentVolumeAccessMode is ReadWriteOnce, ReadOnlyMany, ReadWriteMany or ReadWriteOncePod.
type PersistentVolumeAccessMode string

// Access modes.
const (
	ReadWriteOnce    PersistentVolumeAccessMode = "ReadWriteOnce"
	ReadOnlyMany     PersistentVolumeAccessMode = "ReadOnlyMany"
	ReadWriteMany    PersistentVolumeAccessMode = "ReadWriteMany"
	ReadWriteOncePod PersistentVolumeAccessMode = "ReadWriteOncePod"
)

// PersistentVolumeMode is Filesystem (the default) or Block.
type PersistentVolumeMode string

// Volume modes.
const (
	PersistentVolumeFilesystem PersistentVolumeMode = "Filesystem"
	PersistentVolumeBlock      PersistentVolumeMode = "Block"
)

// Claim and volume phases.
const (
	ClaimPending    = "Pending"
	ClaimBound      = "Bound"
	ClaimLost       = "Lost"
	VolumePending   = "Pending"
	VolumeAvailable = "Available"
	VolumeBound     = "Bound"
	VolumeReleased  = "Released"
	VolumeFailed    = "Failed"
)

// Annotations the PV controller and the scheduler exchange (upstream
// component-helpers/storage/volume).
const (
	AnnBindCompleted          = "pv.kubernetes.io/bind-completed"
	AnnBoundByController      = "pv.kubernetes.io/bound-by-controller"
	AnnSelectedNode           = "volume.kubernetes.io/selected-node"
	AnnStorageProvisioner     = "volume.kubernetes.io/storage-provisioner"
	AnnBetaStorageProvisioner = "volume.beta.kubernetes.io/storage-provisioner"
	AnnDynamicallyProvisioned = "pv.kubernetes.io/provisioned-by"
	BetaStorageClassAnn       = "volume.beta.kubernetes.io/storage-class"
	IsDefaultStorageClassAnn  = "storageclass.kubernetes.io/is-default-class"
	// NotSupportedProvisioner marks a class without dynamic provisioning.
	NotSupportedProvisioner = "kubernetes.io/no-provisioner"
)

// PersistentVolumeClaimVolumeSource is a pod volume backed by a claim.
type PersistentVolumeClaimVolumeSource struct {
	ClaimName string `json:"claimName"`
	ReadOnly  bool   `json:"readOnly,omitempty"`
}

// Volume is one entry of spec.volumes. Only claims are simulated; the
// other sources are read as presence markers (VolumesSigner and the
// loader's warnings need to know they are there).
type Volume struct {
	Name                  string                             `json:"name"`
	PersistentVolumeClaim *PersistentVolumeClaimVolumeSource `json:"persistentVolumeClaim,omitempty"`
	ConfigMap             map[string]any                     `json:"configMap,omitempty"`
	Secret                map[string]any                     `json:"secret,omitempty"`
	EmptyDir              map[string]any                     `json:"emptyDir,omitempty"`
	HostPath              map[string]any                     `json:"hostPath,omitempty"`
	Projected             map[string]any                     `json:"projected,omitempty"`
	DownwardAPI           map[string]any                     `json:"downwardAPI,omitempty"`
}

// VolumeResourceRequirements is a claim's spec.resources.
type VolumeResourceRequirements struct {
	Limits   ResourceList `json:"limits,omitempty"`
	Requests ResourceList `json:"requests,omitempty"`
}

// TypedLocalObjectReference is a claim's dataSource.
type TypedLocalObjectReference struct {
	APIGroup *string `json:"apiGroup,omitempty"`
	Kind     string  `json:"kind"`
	Name     string  `json:"name"`
}

// PersistentVolumeClaimSpec is v1.PersistentVolumeClaimSpec.
type PersistentVolumeClaimSpec struct {
	AccessModes      []PersistentVolumeAccessMode `json:"accessModes,omitempty"`
	Selector         *LabelSelector               `json:"selector,omitempty"`
	Resources        VolumeResourceRequirements   `json:"resources,omitempty"`
	VolumeName       string                       `json:"volumeName,omitempty"`
	StorageClassName *string                      `json:"storageClassName,omitempty"`
	VolumeMode       *PersistentVolumeMode        `json:"volumeMode,omitempty"`
}

// PersistentVolumeClaimStatus is what the PV controller writes.
type PersistentVolumeClaimStatus struct {
	Phase       string                       `json:"phase,omitempty"`
	AccessModes []PersistentVolumeAccessMode `json:"accessModes,omitempty"`
	Capacity    ResourceList                 `json:"capacity,omitempty"`
}

// PersistentVolumeClaim is v1 PersistentVolumeClaim.
type PersistentVolumeClaim struct {
	ObjectMeta `json:"metadata"`
	Spec       PersistentVolumeClaimSpec   `json:"spec"`
	Status     PersistentVolumeClaimStatus `json:"status,omitempty"`
}

// Key returns namespace/name.
func (c *PersistentVolumeClaim) Key() string { return c.Namespace + "/" + c.Name }

// ClassName is the claim's storage class: the beta annotation first, as
// upstream's GetPersistentVolumeClaimClass.
func (c *PersistentVolumeClaim) ClassName() string {
	if class, ok := c.Annotations[BetaStorageClassAnn]; ok {
		return class
	}
	if c.Spec.StorageClassName != nil {
		return *c.Spec.StorageClassName
	}
	return ""
}

// HasAccessMode reports whether the claim asks for mode.
func (c *PersistentVolumeClaim) HasAccessMode(mode PersistentVolumeAccessMode) bool {
	for _, m := range c.Spec.AccessModes {
		if m == mode {
			return true
		}
	}
	return false
}

// ObjectReference is a PV's claimRef.
type ObjectReference struct {
	Kind       string `json:"kind,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name,omitempty"`
	UID        string `json:"uid,omitempty"`
}

// VolumeNodeAffinity is a PV's spec.nodeAffinity.
type VolumeNodeAffinity struct {
	Required *NodeSelector `json:"required,omitempty"`
}

// CSIPersistentVolumeSource is a PV's spec.csi.
type CSIPersistentVolumeSource struct {
	Driver       string `json:"driver"`
	VolumeHandle string `json:"volumeHandle"`
	ReadOnly     bool   `json:"readOnly,omitempty"`
	FSType       string `json:"fsType,omitempty"`
}

// PersistentVolumeSpec is v1.PersistentVolumeSpec (CSI is the only
// source whose identity matters: NodeVolumeLimits counts it).
type PersistentVolumeSpec struct {
	Capacity                      ResourceList                 `json:"capacity,omitempty"`
	AccessModes                   []PersistentVolumeAccessMode `json:"accessModes,omitempty"`
	ClaimRef                      *ObjectReference             `json:"claimRef,omitempty"`
	PersistentVolumeReclaimPolicy string                       `json:"persistentVolumeReclaimPolicy,omitempty"`
	StorageClassName              string                       `json:"storageClassName,omitempty"`
	VolumeMode                    *PersistentVolumeMode        `json:"volumeMode,omitempty"`
	NodeAffinity                  *VolumeNodeAffinity          `json:"nodeAffinity,omitempty"`
	CSI                           *CSIPersistentVolumeSource   `json:"csi,omitempty"`
	HostPath                      map[string]any               `json:"hostPath,omitempty"`
	Local                         map[string]any               `json:"local,omitempty"`
	NFS                           map[string]any               `json:"nfs,omitempty"`
}

// PersistentVolumeStatus is what the PV controller writes.
type PersistentVolumeStatus struct {
	Phase string `json:"phase,omitempty"`
}

// PersistentVolume is v1 PersistentVolume.
type PersistentVolume struct {
	ObjectMeta `json:"metadata"`
	Spec       PersistentVolumeSpec   `json:"spec"`
	Status     PersistentVolumeStatus `json:"status,omitempty"`
}

// BoundTo reports whether the volume's claimRef names the claim (upstream
// IsVolumeBoundToClaim: namespace, name and, when set, UID).
func (v *PersistentVolume) BoundTo(c *PersistentVolumeClaim) bool {
	r := v.Spec.ClaimRef
	if r == nil || r.Name != c.Name || r.Namespace != c.Namespace {
		return false
	}
	return r.UID == "" || r.UID == c.UID
}

// VolumeBindingMode is Immediate or WaitForFirstConsumer.
type VolumeBindingMode string

// Binding modes.
const (
	VolumeBindingImmediate            VolumeBindingMode = "Immediate"
	VolumeBindingWaitForFirstConsumer VolumeBindingMode = "WaitForFirstConsumer"
)

// TopologySelectorLabelRequirement is one allowedTopologies expression.
type TopologySelectorLabelRequirement struct {
	Key    string   `json:"key"`
	Values []string `json:"values"`
}

// TopologySelectorTerm ANDs its expressions.
type TopologySelectorTerm struct {
	MatchLabelExpressions []TopologySelectorLabelRequirement `json:"matchLabelExpressions,omitempty"`
}

// StorageClass is storage.k8s.io/v1 StorageClass.
type StorageClass struct {
	ObjectMeta        `json:"metadata"`
	Provisioner       string                 `json:"provisioner"`
	Parameters        map[string]string      `json:"parameters,omitempty"`
	ReclaimPolicy     *string                `json:"reclaimPolicy,omitempty"`
	VolumeBindingMode *VolumeBindingMode     `json:"volumeBindingMode,omitempty"`
	AllowedTopologies []TopologySelectorTerm `json:"allowedTopologies,omitempty"`
}

// VolumeNodeResources is a CSINode driver's allocatable.
type VolumeNodeResources struct {
	Count *int32 `json:"count,omitempty"`
}

// CSINodeDriver is one driver a node's kubelet registered.
type CSINodeDriver struct {
	Name         string               `json:"name"`
	NodeID       string               `json:"nodeID"`
	TopologyKeys []string             `json:"topologyKeys,omitempty"`
	Allocatable  *VolumeNodeResources `json:"allocatable,omitempty"`
}

// CSINodeSpec lists the node's drivers.
type CSINodeSpec struct {
	Drivers []CSINodeDriver `json:"drivers"`
}

// CSINode is storage.k8s.io/v1 CSINode (named after its node).
type CSINode struct {
	ObjectMeta `json:"metadata"`
	Spec       CSINodeSpec `json:"spec"`
}

// CSIDriverSpec is the part of a CSIDriver's spec the scheduler reads.
type CSIDriverSpec struct {
	AttachRequired  *bool `json:"attachRequired,omitempty"`
	StorageCapacity *bool `json:"storageCapacity,omitempty"`
}

// CSIDriver is storage.k8s.io/v1 CSIDriver.
type CSIDriver struct {
	ObjectMeta `json:"metadata"`
	Spec       CSIDriverSpec `json:"spec"`
}

// PersistentVolumeClaimTemplate is a StatefulSet volumeClaimTemplates entry.
type PersistentVolumeClaimTemplate struct {
	ObjectMeta `json:"metadata"`
	Spec       PersistentVolumeClaimSpec `json:"spec"`
}

// DefaultStorageClass is the class the DefaultStorageClass admission
// plugin gives a claim without one: of the classes annotated as default,
// the newest, then the first by name (upstream GetDefaultClass); nil
// when no class is the default.
func DefaultStorageClass(classes []*StorageClass) *StorageClass {
	var best *StorageClass
	for _, c := range classes {
		if c.Annotations[IsDefaultStorageClassAnn] != "true" && c.Annotations["storageclass.beta.kubernetes.io/is-default-class"] != "true" {
			continue
		}
		if best == nil || newerOrFirst(c, best) {
			best = c
		}
	}
	return best
}

func newerOrFirst(a, b *StorageClass) bool {
	var ta, tb int64
	if a.CreationTimestamp != nil {
		ta = a.CreationTimestamp.UnixNano()
	}
	if b.CreationTimestamp != nil {
		tb = b.CreationTimestamp.UnixNano()
	}
	if ta != tb {
		return ta > tb
	}
	return a.Name < b.Name
}

// DefaultClaim applies the v1 defaults and the DefaultStorageClass
// admission plugin to a new claim.
func DefaultClaim(c *PersistentVolumeClaim, classes []*StorageClass) {
	if c.Spec.VolumeMode == nil {
		m := PersistentVolumeFilesystem
		c.Spec.VolumeMode = &m
	}
	if c.Status.Phase == "" {
		c.Status.Phase = ClaimPending
	}
	if _, beta := c.Annotations[BetaStorageClassAnn]; beta || c.Spec.StorageClassName != nil {
		return
	}
	if d := DefaultStorageClass(classes); d != nil {
		name := d.Name
		c.Spec.StorageClassName = &name
	}
}

// OffersAccessModes reports whether the volume offers every access mode
// the claim asks for (upstream CheckAccessModes).
func (v *PersistentVolume) OffersAccessModes(c *PersistentVolumeClaim) bool {
	for _, m := range c.Spec.AccessModes {
		found := false
		for _, have := range v.Spec.AccessModes {
			found = found || have == m
		}
		if !found {
			return false
		}
	}
	return true
}

// ModeOf is a volume mode with nil read as Filesystem, the default.
func ModeOf(m *PersistentVolumeMode) PersistentVolumeMode {
	if m == nil {
		return PersistentVolumeFilesystem
	}
	return *m
}
