// Package nodeunschedulable rejects cordoned nodes (spec.unschedulable)
// unless the pod tolerates node.kubernetes.io/unschedulable:NoSchedule.
package nodeunschedulable

import (
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/plugins/names"
)

// Name is the plugin's name.
const Name = names.NodeUnschedulable

// Reasons, as upstream words them.
const (
	// ErrReasonUnknownCondition is kept for parity; upstream no longer returns it.
	ErrReasonUnknownCondition = "node(s) had unknown conditions"
	// ErrReasonUnschedulable is returned for a cordoned node.
	ErrReasonUnschedulable = "node(s) were unschedulable"
)

// TaintNodeUnschedulable is the taint key the node lifecycle controller puts
// on cordoned nodes; tolerating it lets a pod onto a cordoned node.
const TaintNodeUnschedulable = "node.kubernetes.io/unschedulable"

// NodeUnschedulable is the plugin.
type NodeUnschedulable struct{}

var _ framework.FilterPlugin = (*NodeUnschedulable)(nil)

// New builds the plugin.
func New(_ any, _ framework.Handle) (framework.Plugin, error) {
	return &NodeUnschedulable{}, nil
}

// Name returns the plugin's name.
func (pl *NodeUnschedulable) Name() string { return Name }

// Filter rejects a cordoned node the pod does not tolerate. The rejection is
// unresolvable: evicting pods cannot uncordon a node.
func (pl *NodeUnschedulable) Filter(_ *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	if !nodeInfo.NodeSpec().Unschedulable {
		return nil
	}
	taint := api.Taint{Key: TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule}
	if !api.TolerationsTolerateTaint(pod.Spec.Tolerations, &taint) {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonUnschedulable)
	}
	return nil
}

// FilterNodes is Filter over nodes (framework.BatchFilterPlugin).
func (pl *NodeUnschedulable) FilterNodes(state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo, statuses []*framework.Status) {
	for i, ni := range nodes {
		if statuses[i] == nil && ni.NodeSpec().Unschedulable {
			if st := pl.Filter(state, pod, ni); !st.IsSuccess() {
				statuses[i] = st
			}
		}
	}
}

// SignPod: feasibility and scores depend on the pod's tolerations
// (upstream NodeUnschedulable.SignPod).
func (pl *NodeUnschedulable) SignPod(pod *api.Pod) ([]framework.SignFragment, *framework.Status) {
	return []framework.SignFragment{{Key: framework.TolerationsSignerName, Value: framework.TolerationsSigner(pod)}}, nil
}
