// Package volumebinding is the VolumeBinding plugin for pods without
// PersistentVolumeClaims, the only pods a scenario can express. Upstream
// writes an empty state in PreFilter and skips; PreScore then skips too
// because there are no static bindings and StorageCapacityScoring (alpha)
// is off, so the plugin never filters nor scores such pods.
package volumebinding

import (
	"errors"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/plugins/names"
)

// Name is the plugin's name.
const Name = names.VolumeBinding

// Upstream keys its state by the bare plugin name.
const stateKey framework.StateKey = Name

// Reasons, as upstream words them (unreachable without claims).
const (
	ErrReasonBindConflict   = "node(s) didn't find available persistent volumes to bind"
	ErrReasonNodeConflict   = "node(s) didn't match PersistentVolume's node affinity"
	ErrReasonNotEnoughSpace = "node(s) did not have enough free storage"
	ErrReasonPVNotExist     = "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)"
)

// stateData is upstream's per-cycle state, reduced to what a pod without
// claims can have.
type stateData struct {
	hasStaticBindings bool
}

// Clone shares the state: nothing changes it after PreFilter here.
func (d *stateData) Clone() framework.StateData { return d }

// VolumeBinding is the plugin.
type VolumeBinding struct {
	skip framework.SkipStatus // handed out for every Skip
}

var (
	_ framework.PreFilterPlugin = (*VolumeBinding)(nil)
	_ framework.FilterPlugin    = (*VolumeBinding)(nil)
	_ framework.PreScorePlugin  = (*VolumeBinding)(nil)
	_ framework.ScorePlugin     = (*VolumeBinding)(nil)
)

// New builds the plugin; its args (the scoring shape) only matter for
// claims and are ignored.
func New(_ any, _ framework.Handle) (framework.Plugin, error) {
	return &VolumeBinding{}, nil
}

// Name returns the plugin's name.
func (pl *VolumeBinding) Name() string { return Name }

// PreFilter records an empty state and skips: the pod has no claims.
func (pl *VolumeBinding) PreFilter(state *framework.CycleState, _ *api.Pod, _ []*framework.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	state.Write(stateKey, &stateData{})
	return nil, pl.skip.Get()
}

// PreFilterExtensions returns nil, as upstream.
func (pl *VolumeBinding) PreFilterExtensions() framework.PreFilterExtensions { return nil }

func getStateData(state *framework.CycleState) (*stateData, error) {
	c, err := state.Read(stateKey)
	if err != nil {
		return nil, err
	}
	s, ok := c.(*stateData)
	if !ok {
		return nil, errors.New("unable to convert state into stateData")
	}
	return s, nil
}

// Filter has no volumes to find for the pod and accepts, once the state exists.
func (pl *VolumeBinding) Filter(state *framework.CycleState, _ *api.Pod, _ *framework.NodeInfo) *framework.Status {
	if _, err := getStateData(state); err != nil {
		return framework.AsStatus(err)
	}
	return nil
}

// PreScore skips unless a node found static bindings, which never happens
// without claims.
func (pl *VolumeBinding) PreScore(state *framework.CycleState, _ *api.Pod, _ []*framework.NodeInfo) *framework.Status {
	s, err := getStateData(state)
	if err != nil {
		// Upstream returns the bare cycle-state error.
		return framework.AsStatus(err)
	}
	if s.hasStaticBindings {
		return nil
	}
	return pl.skip.Get()
}

// Score is 0: no node has volumes prepared for the pod.
func (pl *VolumeBinding) Score(_ *framework.CycleState, _ *api.Pod, _ *framework.NodeInfo) (int64, *framework.Status) {
	return 0, nil
}

// ScoreExtensions returns nil, as upstream.
func (pl *VolumeBinding) ScoreExtensions() framework.ScoreExtensions { return nil }

// SignPod: feasibility depends on the volume sources other than ConfigMaps
// and Secrets (upstream VolumeBinding.SignPod).
func (pl *VolumeBinding) SignPod(pod *api.Pod) ([]framework.SignFragment, *framework.Status) {
	return []framework.SignFragment{{Key: framework.VolumesSignerName, Value: framework.VolumesSigner(pod)}}, nil
}
