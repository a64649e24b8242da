// Package dynamicresources is the DynamicResources (DRA, GA) plugin for pods
// without resource claims, the only pods a scenario can express (and with no
// DeviceClass, no extended resource is backed by DRA either). Upstream's
// behaviour for such pods is kept exactly because parts of it are visible:
// PreFilter always writes its state before skipping, Score runs (there is no
// PreScore to skip it) and gives every node 0, and PostFilter, which runs
// before DefaultPreemption, answers "no new claims to deallocate" — a reason
// that ends up in FailedScheduling messages.
package dynamicresources

import (
	"errors"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/plugins/helper"
	"github.com/schedplay/schedplay/core/plugins/names"
)

// Name is the plugin's name.
const Name = names.DynamicResources

// Upstream keys its state by the bare plugin name.
const stateKey framework.StateKey = Name

// MsgNoNewClaims is PostFilter's answer for a pod without claims.
const MsgNoNewClaims = "no new claims to deallocate"

// stateData is upstream's per-cycle state for a pod without claims: the
// claim store is empty.
type stateData struct{}

// Clone shares the state: it holds nothing to change.
func (d *stateData) Clone() framework.StateData { return d }

// DynamicResources is the plugin.
type DynamicResources struct {
	skip framework.SkipStatus // handed out for every Skip
}

var (
	_ framework.PreEnqueuePlugin   = (*DynamicResources)(nil)
	_ framework.PreFilterPlugin    = (*DynamicResources)(nil)
	_ framework.FilterPlugin       = (*DynamicResources)(nil)
	_ framework.PostFilterPlugin   = (*DynamicResources)(nil)
	_ framework.ScorePlugin        = (*DynamicResources)(nil)
	_ framework.ScoreExtensions    = (*DynamicResources)(nil)
	_ framework.NamelessNormalizer = (*DynamicResources)(nil)
	_ framework.BatchScorePlugin   = (*DynamicResources)(nil)
)

// New builds the plugin.
func New(_ any, _ framework.Handle) (framework.Plugin, error) {
	return &DynamicResources{}, nil
}

// Name returns the plugin's name.
func (pl *DynamicResources) Name() string { return Name }

// PreEnqueue admits the pod: it references no claim that could be missing.
func (pl *DynamicResources) PreEnqueue(_ *api.Pod) *framework.Status { return nil }

// PreFilter writes an empty state, then skips because there are no claims.
// The state matters: PostFilter and Score read it.
func (pl *DynamicResources) PreFilter(state *framework.CycleState, _ *api.Pod, _ []*framework.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	state.Write(stateKey, &stateData{})
	return nil, pl.skip.Get()
}

// PreFilterExtensions returns nil: nothing depends on other pods.
func (pl *DynamicResources) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// getStateData returns the bare cycle-state error ("not found"), as upstream.
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

// Filter accepts every node once PreFilter has run: there are no claims.
func (pl *DynamicResources) Filter(state *framework.CycleState, _ *api.Pod, _ *framework.NodeInfo) *framework.Status {
	if _, err := getStateData(state); err != nil {
		return framework.AsStatus(err)
	}
	return nil
}

// PostFilter has nothing to deallocate. When an earlier PreFilter plugin
// rejected the pod, this PreFilter never ran and upstream reports the
// missing state as an error, whose text "not found" becomes the PostFilter
// message; DefaultPreemption then does not run.
func (pl *DynamicResources) PostFilter(state *framework.CycleState, _ *api.Pod, _ framework.NodeToStatusReader) (*framework.PostFilterResult, *framework.Status) {
	if _, err := getStateData(state); err != nil {
		return nil, framework.AsStatus(err)
	}
	return nil, framework.NewStatus(framework.Unschedulable, MsgNoNewClaims)
}

// Score is 0 for every node: no claim allocation to rate.
func (pl *DynamicResources) Score(state *framework.CycleState, _ *api.Pod, _ *framework.NodeInfo) (int64, *framework.Status) {
	if _, err := getStateData(state); err != nil {
		return 0, framework.AsStatus(err)
	}
	return 0, nil
}

// ScoreNodes is Score for every node, reading the state once.
func (pl *DynamicResources) ScoreNodes(state *framework.CycleState, _ *api.Pod, nodes []*framework.NodeInfo, scores framework.NodeScoreList) *framework.Status {
	if len(nodes) == 0 {
		return nil
	}
	if _, err := getStateData(state); err != nil {
		return framework.AsStatus(err)
	}
	for i := range nodes {
		scores[i].Score = 0
	}
	return nil
}

// NormalizeScore scales as upstream (all zeros stay zero).
func (pl *DynamicResources) NormalizeScore(_ *framework.CycleState, _ *api.Pod, scores framework.NodeScoreList) *framework.Status {
	return helper.DefaultNormalizeScore(framework.MaxNodeScore, false, scores)
}

// ScoreExtensions returns the plugin itself.
func (pl *DynamicResources) ScoreExtensions() framework.ScoreExtensions { return pl }

// NormalizeIgnoresNames marks NormalizeScore as reading only the scores.
func (pl *DynamicResources) NormalizeIgnoresNames() {}

// SignPod signs every scenario pod: upstream refuses pods with resource
// claims (DynamicResources.SignPod), which scenarios cannot express.
func (pl *DynamicResources) SignPod(*api.Pod) ([]framework.SignFragment, *framework.Status) {
	return nil, nil
}
