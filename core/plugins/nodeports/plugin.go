// Package nodeports rejects nodes where a host port the pod asks for is
// already taken.
package nodeports

import (
	"fmt"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/plugins/names"
)

// Name is the plugin's name.
const Name = names.NodePorts

const preFilterStateKey framework.StateKey = "PreFilter" + Name

// ErrReason is returned when a wanted host port is in use on the node.
const ErrReason = "node(s) didn't have free ports for the requested pod ports"

// NodePorts is the plugin.
type NodePorts struct {
	skip framework.SkipStatus // handed out for every Skip
}

var (
	_ framework.PreFilterPlugin = (*NodePorts)(nil)
	_ framework.FilterPlugin    = (*NodePorts)(nil)
)

// New builds the plugin.
func New(_ any, _ framework.Handle) (framework.Plugin, error) {
	return &NodePorts{}, nil
}

// Name returns the plugin's name.
func (pl *NodePorts) Name() string { return Name }

// preFilterState is the pod's host ports.
type preFilterState []api.ContainerPort

// Clone shares the state: it is never modified after PreFilter.
func (s preFilterState) Clone() framework.StateData { return s }

// PreFilter records the pod's host ports (sidecars and containers, as
// framework.GetHostPorts) and skips the plugin when there are none.
func (pl *NodePorts) PreFilter(state *framework.CycleState, pod *api.Pod, _ []*framework.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	ports := framework.GetHostPorts(pod)
	if len(ports) == 0 {
		return nil, pl.skip.Get()
	}
	state.Write(preFilterStateKey, preFilterState(ports))
	return nil, nil
}

// PreFilterExtensions returns nil: Filter reads used ports from the NodeInfo,
// which preemption already updates.
func (pl *NodePorts) PreFilterExtensions() framework.PreFilterExtensions { return nil }

func getPreFilterState(state *framework.CycleState) (preFilterState, error) {
	c, err := state.Read(preFilterStateKey)
	if err != nil {
		return nil, fmt.Errorf("reading %q from cycleState: %w", preFilterStateKey, err)
	}
	s, ok := c.(preFilterState)
	if !ok {
		return nil, fmt.Errorf("%+v  convert to nodeports.preFilterState error", c)
	}
	return s, nil
}

// Filter rejects a node where a wanted port conflicts. The rejection is
// resolvable: evicting the pod holding the port frees it.
func (pl *NodePorts) Filter(state *framework.CycleState, _ *api.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	want, err := getPreFilterState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	if !fitsPorts(want, nodeInfo.UsedPorts) {
		return framework.NewStatus(framework.Unschedulable, ErrReason)
	}
	return nil
}

// Fits reports whether pod's host ports are free on the node.
func Fits(pod *api.Pod, nodeInfo *framework.NodeInfo) bool {
	return fitsPorts(framework.GetHostPorts(pod), nodeInfo.UsedPorts)
}

func fitsPorts(want []api.ContainerPort, inUse framework.HostPortInfo) bool {
	for _, p := range want {
		if inUse.CheckConflict(p.HostIP, string(p.Protocol), p.HostPort) {
			return false
		}
	}
	return true
}

// SignPod: feasibility depends on the host ports (upstream NodePorts.SignPod).
func (pl *NodePorts) SignPod(pod *api.Pod) ([]framework.SignFragment, *framework.Status) {
	return []framework.SignFragment{{Key: framework.HostPortsSignerName, Value: framework.HostPortsSigner(pod)}}, nil
}
