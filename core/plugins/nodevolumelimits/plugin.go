// Package nodevolumelimits is the NodeVolumeLimits (CSI limits) plugin for
// pods without volumes, the only pods a scenario can express: PreFilter
// skips and Filter accepts, as upstream does for them.
package nodevolumelimits

import (
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/plugins/names"
)

// Name is the plugin's name.
const Name = names.NodeVolumeLimits

// ErrReasonMaxVolumeCountExceeded is upstream's reason (unreachable without volumes).
const ErrReasonMaxVolumeCountExceeded = "node(s) exceed max volume count"

// CSILimits is the plugin.
type CSILimits struct {
	skip framework.SkipStatus // handed out for every Skip
}

var (
	_ framework.PreFilterPlugin = (*CSILimits)(nil)
	_ framework.FilterPlugin    = (*CSILimits)(nil)
)

// New builds the plugin.
func New(_ any, _ framework.Handle) (framework.Plugin, error) {
	return &CSILimits{}, nil
}

// Name returns the plugin's name.
func (pl *CSILimits) Name() string { return Name }

// PreFilter skips: the pod has no PVC, ephemeral or migratable inline volume.
func (pl *CSILimits) PreFilter(_ *framework.CycleState, _ *api.Pod, _ []*framework.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	return nil, pl.skip.Get()
}

// PreFilterExtensions returns nil, as upstream.
func (pl *CSILimits) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter accepts: a pod without volumes always fits the volume limits.
func (pl *CSILimits) Filter(_ *framework.CycleState, _ *api.Pod, _ *framework.NodeInfo) *framework.Status {
	return nil
}

// SignPod: feasibility depends on the volume sources other than ConfigMaps
// and Secrets (upstream CSILimits.SignPod).
func (pl *CSILimits) SignPod(pod *api.Pod) ([]framework.SignFragment, *framework.Status) {
	return []framework.SignFragment{{Key: framework.VolumesSignerName, Value: framework.VolumesSigner(pod)}}, nil
}
