package framework

import (
	"sort"

	"github.com/schedplay/schedplay/core/api"
)

// StorageLister reads the storage objects upstream's volume plugins get
// from their informers. A nil result means the object does not exist.
type StorageLister interface {
	PersistentVolumeClaim(namespace, name string) *api.PersistentVolumeClaim
	PersistentVolume(name string) *api.PersistentVolume
	// PersistentVolumes lists every volume, by name.
	PersistentVolumes() []*api.PersistentVolume
	StorageClass(name string) *api.StorageClass
	CSINode(name string) *api.CSINode
	CSIDriver(name string) *api.CSIDriver
}

// Storage is a StorageLister over maps. The simulation replaces an object
// to change it (copy on write), so a plugin may keep what it read for the
// length of a cycle.
type Storage struct {
	Claims     map[string]*api.PersistentVolumeClaim // by namespace/name
	Volumes    map[string]*api.PersistentVolume
	Classes    map[string]*api.StorageClass
	CSINodes   map[string]*api.CSINode
	CSIDrivers map[string]*api.CSIDriver
	sorted     []*api.PersistentVolume // PersistentVolumes' answer, until a volume changes
}

// NewStorage indexes the given objects.
func NewStorage(pvs []*api.PersistentVolume, pvcs []*api.PersistentVolumeClaim, classes []*api.StorageClass, nodes []*api.CSINode, drivers []*api.CSIDriver) *Storage {
	s := &Storage{
		Claims: map[string]*api.PersistentVolumeClaim{}, Volumes: map[string]*api.PersistentVolume{},
		Classes: map[string]*api.StorageClass{}, CSINodes: map[string]*api.CSINode{}, CSIDrivers: map[string]*api.CSIDriver{},
	}
	for _, v := range pvs {
		s.Volumes[v.Name] = v
	}
	for _, c := range pvcs {
		s.Claims[c.Key()] = c
	}
	for _, c := range classes {
		s.Classes[c.Name] = c
	}
	for _, n := range nodes {
		s.CSINodes[n.Name] = n
	}
	for _, d := range drivers {
		s.CSIDrivers[d.Name] = d
	}
	return s
}

// Empty reports whether the cluster has no claims: then no pod can have a
// bound or unbound claim, and the volume plugins need not look further.
func (s *Storage) Empty() bool { return s == nil || len(s.Claims) == 0 }

// PersistentVolumeClaim returns namespace/name.
func (s *Storage) PersistentVolumeClaim(namespace, name string) *api.PersistentVolumeClaim {
	if s == nil {
		return nil
	}
	return s.Claims[namespace+"/"+name]
}

// PersistentVolume returns a volume by name.
func (s *Storage) PersistentVolume(name string) *api.PersistentVolume {
	if s == nil {
		return nil
	}
	return s.Volumes[name]
}

// PersistentVolumes lists the volumes by name.
func (s *Storage) PersistentVolumes() []*api.PersistentVolume {
	if s == nil {
		return nil
	}
	if s.sorted == nil {
		s.sorted = make([]*api.PersistentVolume, 0, len(s.Volumes))
		for _, v := range s.Volumes {
			s.sorted = append(s.sorted, v)
		}
		sort.Slice(s.sorted, func(i, j int) bool { return s.sorted[i].Name < s.sorted[j].Name })
	}
	return s.sorted
}

// StorageClass returns a class by name.
func (s *Storage) StorageClass(name string) *api.StorageClass {
	if s == nil {
		return nil
	}
	return s.Classes[name]
}

// CSINode returns the CSINode of a node.
func (s *Storage) CSINode(name string) *api.CSINode {
	if s == nil {
		return nil
	}
	return s.CSINodes[name]
}

// CSIDriver returns a driver by name.
func (s *Storage) CSIDriver(name string) *api.CSIDriver {
	if s == nil {
		return nil
	}
	return s.CSIDrivers[name]
}

// PutVolume stores a new or changed volume.
func (s *Storage) PutVolume(v *api.PersistentVolume) {
	s.Volumes[v.Name] = v
	s.sorted = nil
}

// PutClaim stores a new or changed claim.
func (s *Storage) PutClaim(c *api.PersistentVolumeClaim) { s.Claims[c.Key()] = c }

// Clone copies the indexes (not the objects, which are never changed in place).
func (s *Storage) Clone() *Storage {
	if s == nil {
		return NewStorage(nil, nil, nil, nil, nil)
	}
	c := NewStorage(nil, nil, nil, nil, nil)
	for k, v := range s.Claims {
		c.Claims[k] = v
	}
	for k, v := range s.Volumes {
		c.Volumes[k] = v
	}
	for k, v := range s.Classes {
		c.Classes[k] = v
	}
	for k, v := range s.CSINodes {
		c.CSINodes[k] = v
	}
	for k, v := range s.CSIDrivers {
		c.CSIDrivers[k] = v
	}
	return c
}

// StaticBinding is a claim the scheduler matched to an available volume.
type StaticBinding struct {
	PV  *api.PersistentVolume
	PVC *api.PersistentVolumeClaim
}

// VolumeBinder makes the API updates of upstream's bindAPIUpdate for a
// pod's delayed-binding claims on its chosen node (the volume's claimRef,
// the claim's selected-node annotation) and returns once the PV controller
// and the provisioner have acted on them. Upstream's VolumeBinding waits
// for that in PreBind; here the simulation does it at once.
type VolumeBinder interface {
	BindPodVolumes(pod *api.Pod, node string, bindings []StaticBinding, provisions []*api.PersistentVolumeClaim) error
}

// ReservePlugin reserves resources for a pod on its chosen node.
type ReservePlugin interface {
	Plugin
	Reserve(state *CycleState, pod *api.Pod, nodeName string) *Status
	Unreserve(state *CycleState, pod *api.Pod, nodeName string)
}

// PreBindPlugin runs before the pod is bound (volume binding).
type PreBindPlugin interface {
	Plugin
	PreBind(state *CycleState, pod *api.Pod, nodeName string) *Status
}
