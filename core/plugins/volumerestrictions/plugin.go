// Package volumerestrictions is the VolumeRestrictions plugin for pods
// without volumes. Scenarios cannot express volumes or claims, so PreFilter
// always finds nothing to check and skips, exactly as upstream does for such
// pods; Filter keeps upstream's behaviour should it run anyway.
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

// Reasons, as upstream words them (unreachable without volumes).
const (
	ErrReasonDiskConflict             = "node(s) had no available disk"
	ErrReasonReadWriteOncePodConflict = "node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod"
)

// VolumeRestrictions is the plugin.
type VolumeRestrictions struct {
	skip framework.SkipStatus // handed out for every Skip
}

var (
	_ framework.PreFilterPlugin = (*VolumeRestrictions)(nil)
	_ framework.FilterPlugin    = (*VolumeRestrictions)(nil)
)

// New builds the plugin.
func New(_ any, _ framework.Handle) (framework.Plugin, error) {
	return &VolumeRestrictions{}, nil
}

// Name returns the plugin's name.
func (pl *VolumeRestrictions) Name() string { return Name }

// PreFilter skips: with no volumes there is neither a conflicting volume
// source nor a ReadWriteOncePod claim to count.
func (pl *VolumeRestrictions) PreFilter(_ *framework.CycleState, _ *api.Pod, _ []*framework.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	return nil, pl.skip.Get()
}

// PreFilterExtensions returns nil. Upstream returns AddPod/RemovePod that
// update the ReadWriteOncePod count, but the framework never calls them for
// a plugin whose PreFilter skipped, which is always the case here.
func (pl *VolumeRestrictions) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter finds no disk conflict without volumes; like upstream it then
// needs the PreFilter state, which only exists when PreFilter did not skip.
func (pl *VolumeRestrictions) Filter(state *framework.CycleState, _ *api.Pod, _ *framework.NodeInfo) *framework.Status {
	if _, err := state.Read(preFilterStateKey); err != nil {
		return framework.AsStatus(fmt.Errorf("cannot read %q from cycleState", preFilterStateKey))
	}
	return nil
}

// SignPod: feasibility depends on the volume sources other than ConfigMaps
// and Secrets (upstream VolumeRestrictions.SignPod).
func (pl *VolumeRestrictions) SignPod(pod *api.Pod) ([]framework.SignFragment, *framework.Status) {
	return []framework.SignFragment{{Key: framework.VolumesSignerName, Value: framework.VolumesSigner(pod)}}, nil
}
