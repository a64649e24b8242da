// Package volumerestrictions is upstream's VolumeRestrictions plugin
// (v1.36) for the volumes a scenario can express: a ReadWriteOncePod claim
// already used by a pod on any node blocks every node. In-tree disk
// conflicts (GCE PD, AWS EBS, RBD, iSCSI inline volumes) are not simulated:
// the loader warns about those sources.
package volumerestrictions

import (
	"fmt"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/plugins/names"
)

// Name is the plugin's name.
const Name = names.VolumeRestrictions

const preFilterStateKey framework.StateKey = "PreFilter" + Name

// Reasons, as upstream words them.
const (
	ErrReasonDiskConflict             = "node(s) had no available disk"
	ErrReasonReadWriteOncePodConflict = "node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod"
)

// preFilterState is upstream's: the pod's ReadWriteOncePod claims (by
// name) and how many scheduled pods use one of them.
type preFilterState struct {
	readWriteOncePodPVCs   map[string]bool
	conflictingPVCRefCount int
}

func (s *preFilterState) updateWithPod(pi *framework.PodInfo, multiplier int) {
	s.conflictingPVCRefCount += multiplier * s.conflictingPVCRefCountForPod(pi)
}

// conflictingPVCRefCountForPod counts by claim name only, as upstream.
func (s *preFilterState) conflictingPVCRefCountForPod(pi *framework.PodInfo) int {
	n := 0
	for i := range pi.Pod.Spec.Volumes {
		if c := pi.Pod.Spec.Volumes[i].PersistentVolumeClaim; c != nil && s.readWriteOncePodPVCs[c.ClaimName] {
			n++
		}
	}
	return n
}

// Clone copies the count (preemption's AddPod and RemovePod change it).
func (s *preFilterState) Clone() framework.StateData {
	if s == nil {
		return nil
	}
	c := *s
	return &c
}

// VolumeRestrictions is the plugin.
type VolumeRestrictions struct {
	h    framework.Handle
	skip framework.SkipStatus // handed out for every Skip
}

var (
	_ framework.PreFilterPlugin     = (*VolumeRestrictions)(nil)
	_ framework.FilterPlugin        = (*VolumeRestrictions)(nil)
	_ framework.PreFilterExtensions = (*VolumeRestrictions)(nil)
)

// New builds the plugin.
func New(_ any, h framework.Handle) (framework.Plugin, error) {
	return &VolumeRestrictions{h: h}, nil
}

// Name returns the plugin's name.
func (pl *VolumeRestrictions) Name() string { return Name }

// PreFilter finds the pod's ReadWriteOncePod claims and counts the
// scheduled pods that use them; with none in use it skips. A missing claim
// is UnschedulableAndUnresolvable with the lister's NotFound message.
func (pl *VolumeRestrictions) PreFilter(state *framework.CycleState, pod *api.Pod, _ []*framework.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	if len(pod.Spec.Volumes) == 0 {
		return nil, pl.skip.Get()
	}
	var rwop map[string]bool
	for i := range pod.Spec.Volumes {
		src := pod.Spec.Volumes[i].PersistentVolumeClaim
		if src == nil {
			continue
		}
		var pvc *api.PersistentVolumeClaim
		if pl.h != nil && pl.h.Cluster() != nil {
			pvc = pl.h.Cluster().Storage().PersistentVolumeClaim(pod.Namespace, src.ClaimName)
		}
		if pvc == nil {
			return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, fmt.Sprintf("persistentvolumeclaim %q not found", src.ClaimName))
		}
		if !pvc.HasAccessMode(api.ReadWriteOncePod) {
			continue
		}
		if rwop == nil {
			rwop = map[string]bool{}
		}
		rwop[pvc.Name] = true
	}
	s := &preFilterState{readWriteOncePodPVCs: rwop}
	if len(rwop) > 0 {
		used := pl.usedPVCs()
		for name := range rwop {
			if used[pod.Namespace+"/"+name] {
				s.conflictingPVCRefCount++ // at most one pod uses it
			}
		}
	}
	if s.conflictingPVCRefCount == 0 {
		return nil, pl.skip.Get()
	}
	state.Write(preFilterStateKey, s)
	return nil, nil
}

// usedPVCs is the snapshot's set of claims scheduled pods use (upstream
// Snapshot.IsPVCUsedByPods), gathered only for pods with a
// ReadWriteOncePod claim.
func (pl *VolumeRestrictions) usedPVCs() map[string]bool {
	used := map[string]bool{}
	for _, ni := range pl.h.SnapshotSharedLister().NodeInfos().List() {
		for _, pi := range ni.Pods {
			for i := range pi.Pod.Spec.Volumes {
				if c := pi.Pod.Spec.Volumes[i].PersistentVolumeClaim; c != nil {
					used[pi.Pod.Namespace+"/"+c.ClaimName] = true
				}
			}
		}
	}
	return used
}

// PreFilterExtensions lets preemption count a removed or added pod.
func (pl *VolumeRestrictions) PreFilterExtensions() framework.PreFilterExtensions { return pl }

// AddPod counts the pod's uses of the claims.
func (pl *VolumeRestrictions) AddPod(state *framework.CycleState, _ *api.Pod, pi *framework.PodInfo, _ *framework.NodeInfo) *framework.Status {
	s, err := getPreFilterState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	s.updateWithPod(pi, 1)
	return nil
}

// RemovePod uncounts the pod's uses of the claims.
func (pl *VolumeRestrictions) RemovePod(state *framework.CycleState, _ *api.Pod, pi *framework.PodInfo, _ *framework.NodeInfo) *framework.Status {
	s, err := getPreFilterState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	s.updateWithPod(pi, -1)
	return nil
}

func getPreFilterState(state *framework.CycleState) (*preFilterState, error) {
	c, err := state.Read(preFilterStateKey)
	if err != nil {
		return nil, fmt.Errorf("cannot read %q from cycleState", preFilterStateKey)
	}
	s, ok := c.(*preFilterState)
	if !ok {
		return nil, fmt.Errorf("%+v convert to volumerestrictions.state error", c)
	}
	return s, nil
}

// Filter rejects every node while a ReadWriteOncePod claim of the pod is
// in use by another pod.
func (pl *VolumeRestrictions) Filter(state *framework.CycleState, _ *api.Pod, _ *framework.NodeInfo) *framework.Status {
	s, err := getPreFilterState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	if s.conflictingPVCRefCount > 0 {
		return framework.NewStatus(framework.Unschedulable, ErrReasonReadWriteOncePodConflict)
	}
	return nil
}

// SignPod: feasibility depends on the volume sources other than ConfigMaps
// and Secrets (upstream VolumeRestrictions.SignPod).
func (pl *VolumeRestrictions) SignPod(pod *api.Pod) ([]framework.SignFragment, *framework.Status) {
	return []framework.SignFragment{{Key: framework.VolumesSignerName, Value: framework.VolumesSigner(pod)}}, nil
}
