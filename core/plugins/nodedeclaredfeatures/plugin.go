// Package nodedeclaredfeatures is the NodeDeclaredFeatures plugin (beta, on
// in v1.36). Upstream infers the node features a pod needs from its spec:
// restartPolicyRules with action RestartAllContainers, or hostNetwork with
// hostUsers=false. Scenarios cannot express either field, so every pod needs
// no feature and PreFilter skips, as upstream does for such pods.
package nodedeclaredfeatures

import (
	"fmt"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/plugins/names"
)

// Name is the plugin's name.
const Name = names.NodeDeclaredFeatures

const preFilterStateKey framework.StateKey = "PreFilter" + Name

// ErrReasonUnsatisfiedRequirements is upstream's reason (unreachable here).
const ErrReasonUnsatisfiedRequirements = "node(s) didn't match Pod's required features"

// NodeDeclaredFeatures is the plugin.
type NodeDeclaredFeatures struct {
	skip framework.SkipStatus // handed out for every Skip
}

var (
	_ framework.PreFilterPlugin = (*NodeDeclaredFeatures)(nil)
	_ framework.FilterPlugin    = (*NodeDeclaredFeatures)(nil)
)

// New builds the plugin.
func New(_ any, _ framework.Handle) (framework.Plugin, error) {
	return &NodeDeclaredFeatures{}, nil
}

// Name returns the plugin's name.
func (pl *NodeDeclaredFeatures) Name() string { return Name }

// PreFilter skips: the pod requires no declared feature.
func (pl *NodeDeclaredFeatures) PreFilter(_ *framework.CycleState, _ *api.Pod, _ []*framework.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	return nil, pl.skip.Get()
}

// PreFilterExtensions returns nil, as upstream.
func (pl *NodeDeclaredFeatures) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter needs the PreFilter state like upstream, which only exists when
// PreFilter did not skip; with no required features every node matches.
func (pl *NodeDeclaredFeatures) Filter(state *framework.CycleState, _ *api.Pod, _ *framework.NodeInfo) *framework.Status {
	if _, err := state.Read(preFilterStateKey); err != nil {
		return framework.AsStatus(fmt.Errorf("error reading %q from cycle-state: %w", preFilterStateKey, err))
	}
	return nil
}

// SignPod: the features the pod requires, none for any scenario pod
// (upstream NodeDeclaredFeatures.SignPod writes the inferred set).
func (pl *NodeDeclaredFeatures) SignPod(*api.Pod) ([]framework.SignFragment, *framework.Status) {
	return []framework.SignFragment{{Key: framework.FeaturesSignerName, Value: ""}}, nil
}
