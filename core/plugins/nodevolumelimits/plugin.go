// Package nodevolumelimits is upstream's NodeVolumeLimits (CSI limits)
// plugin (v1.36, nodevolumelimits/csi.go): a node's CSINode says how many
// volumes of each driver it can attach; a pod whose new CSI volumes would
// go over that is rejected. Volumes are counted from claims (their bound
// volume's CSI source, else their class's provisioner). VolumeAttachments,
// in-tree migration and inline CSI volumes are not simulated, and the
// VolumeLimitScaling feature (alpha) is off.
package nodevolumelimits

import (
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/plugins/names"
)

// Name is the plugin's name.
const Name = names.NodeVolumeLimits

// ErrReasonMaxVolumeCountExceeded is upstream's reason.
const ErrReasonMaxVolumeCountExceeded = "node(s) exceed max volume count"

// CSILimits is the plugin.
type CSILimits struct {
	h    framework.Handle
	skip framework.SkipStatus // handed out for every Skip
}

var (
	_ framework.PreFilterPlugin = (*CSILimits)(nil)
	_ framework.FilterPlugin    = (*CSILimits)(nil)
)

// New builds the plugin.
func New(_ any, h framework.Handle) (framework.Plugin, error) {
	return &CSILimits{h: h}, nil
}

// Name returns the plugin's name.
func (pl *CSILimits) Name() string { return Name }

// PreFilter skips a pod without claims (upstream also runs for ephemeral
// and migratable inline volumes, which scenarios do not simulate).
func (pl *CSILimits) PreFilter(_ *framework.CycleState, pod *api.Pod, _ []*framework.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	for i := range pod.Spec.Volumes {
		if pod.Spec.Volumes[i].PersistentVolumeClaim != nil {
			return nil, nil
		}
	}
	return nil, pl.skip.Get()
}

// PreFilterExtensions returns nil, as upstream.
func (pl *CSILimits) PreFilterExtensions() framework.PreFilterExtensions { return nil }

func (pl *CSILimits) storage() framework.StorageLister {
	if pl.h == nil || pl.h.Cluster() == nil {
		return (*framework.Storage)(nil)
	}
	return pl.h.Cluster().Storage()
}

// SignPod: feasibility depends on the volume sources other than ConfigMaps
// and Secrets (upstream CSILimits.SignPod).
func (pl *CSILimits) SignPod(pod *api.Pod) ([]framework.SignFragment, *framework.Status) {
	return []framework.SignFragment{{Key: framework.VolumesSignerName, Value: framework.VolumesSigner(pod)}}, nil
}
