// Package nodename rejects every node but the one a pod names in spec.nodeName.
package nodename

import (
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/plugins/names"
)

// Name is the plugin's name.
const Name = names.NodeName

// ErrReason is returned for a node other than the requested one.
const ErrReason = "node(s) didn't match the requested node name"

// NodeName is the plugin.
type NodeName struct{}

var _ framework.FilterPlugin = (*NodeName)(nil)

// New builds the plugin.
func New(_ any, _ framework.Handle) (framework.Plugin, error) {
	return &NodeName{}, nil
}

// Name returns the plugin's name.
func (pl *NodeName) Name() string { return Name }

// Filter accepts every node when spec.nodeName is empty, else only that node.
func (pl *NodeName) Filter(_ *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	if !Fits(pod, nodeInfo) {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReason)
	}
	return nil
}

// FilterNodes is Filter over nodes (framework.BatchFilterPlugin).
func (pl *NodeName) FilterNodes(state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo, statuses []*framework.Status) {
	if pod.Spec.NodeName == "" {
		return // every node fits
	}
	for i, ni := range nodes {
		if statuses[i] == nil {
			if st := pl.Filter(state, pod, ni); !st.IsSuccess() {
				statuses[i] = st
			}
		}
	}
}

// Fits reports whether pod may run on the node by its spec.nodeName
// (preemption and other plugins reuse it).
func Fits(pod *api.Pod, nodeInfo *framework.NodeInfo) bool {
	return pod.Spec.NodeName == "" || pod.Spec.NodeName == nodeInfo.Node().Name
}

// SignPod: feasibility depends on spec.nodeName (upstream NodeName.SignPod).
func (pl *NodeName) SignPod(pod *api.Pod) ([]framework.SignFragment, *framework.Status) {
	return []framework.SignFragment{{Key: framework.NodeNameSignerName, Value: pod.Spec.NodeName}}, nil
}
