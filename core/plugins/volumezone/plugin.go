// Package volumezone is the VolumeZone plugin for pods without volumes, the
// only pods a scenario can express: PreFilter finds no bound volume
// topologies and skips, and Filter accepts, as upstream does for them.
package volumezone

import (
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/plugins/names"
)

// Name is the plugin's name.
const Name = names.VolumeZone

// ErrReasonConflict is upstream's reason (unreachable without volumes).
const ErrReasonConflict = "node(s) had no available volume zone"

// VolumeZone is the plugin.
type VolumeZone struct {
	skip framework.SkipStatus // handed out for every Skip
}

var (
	_ framework.PreFilterPlugin = (*VolumeZone)(nil)
	_ framework.FilterPlugin    = (*VolumeZone)(nil)
)

// New builds the plugin.
func New(_ any, _ framework.Handle) (framework.Plugin, error) {
	return &VolumeZone{}, nil
}

// Name returns the plugin's name.
func (pl *VolumeZone) Name() string { return Name }

// PreFilter skips: the pod names no PersistentVolumeClaim.
func (pl *VolumeZone) PreFilter(_ *framework.CycleState, _ *api.Pod, _ []*framework.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	return nil, pl.skip.Get()
}

// PreFilterExtensions returns nil, as upstream.
func (pl *VolumeZone) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter accepts: upstream returns at once for a pod without volumes.
func (pl *VolumeZone) Filter(_ *framework.CycleState, _ *api.Pod, _ *framework.NodeInfo) *framework.Status {
	return nil
}

// SignPod: feasibility depends on the volume sources other than ConfigMaps
// and Secrets (upstream VolumeZone.SignPod).
func (pl *VolumeZone) SignPod(pod *api.Pod) ([]framework.SignFragment, *framework.Status) {
	return []framework.SignFragment{{Key: framework.VolumesSignerName, Value: framework.VolumesSigner(pod)}}, nil
}
