package st

import (
	"fmt"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
)

// Handle is a framework.Handle for plugin unit tests: a snapshot, a
// cluster lister, nominated pods and an optional preemption executor;
// running other plugins is an error.
type Handle struct {
	Snapshot  *framework.Snapshot
	Lister    *framework.Cluster
	Nominated map[string][]*framework.PodInfo
	Executor  framework.PreemptionExecutor
	Binder    framework.VolumeBinder
}

var _ framework.Handle = (*Handle)(nil)

// NewHandle builds a handle over a snapshot of pods and nodes.
func NewHandle(pods []*api.Pod, nodes []*api.Node) *Handle {
	return &Handle{Snapshot: framework.NewSnapshot(pods, nodes), Lister: &framework.Cluster{}}
}

// SnapshotSharedLister returns the snapshot.
func (h *Handle) SnapshotSharedLister() framework.SharedLister { return h.Snapshot }

// NominatedPodsForNode returns nominated pods.
func (h *Handle) NominatedPodsForNode(n string) []*framework.PodInfo { return h.Nominated[n] }

// Cluster returns the lister.
func (h *Handle) Cluster() framework.ClusterLister { return h.Lister }

// PreemptionExecutor returns Executor.
func (h *Handle) PreemptionExecutor() framework.PreemptionExecutor { return h.Executor }

// VolumeBinder returns Binder.
func (h *Handle) VolumeBinder() framework.VolumeBinder { return h.Binder }

var errNoRunner = fmt.Errorf("st.Handle cannot run plugins")

// RunFilterPluginsWithNominatedPods is not supported.
func (h *Handle) RunFilterPluginsWithNominatedPods(*framework.CycleState, *api.Pod, *framework.NodeInfo) *framework.Status {
	return framework.AsStatus(errNoRunner)
}

// RunPreScorePlugins is not supported.
func (h *Handle) RunPreScorePlugins(*framework.CycleState, *api.Pod, []*framework.NodeInfo) *framework.Status {
	return framework.AsStatus(errNoRunner)
}

// RunFilterPlugins is not supported.
func (h *Handle) RunFilterPlugins(*framework.CycleState, *api.Pod, *framework.NodeInfo) *framework.Status {
	return framework.AsStatus(errNoRunner)
}

// RunPreFilterExtensionAddPod is not supported.
func (h *Handle) RunPreFilterExtensionAddPod(*framework.CycleState, *api.Pod, *framework.PodInfo, *framework.NodeInfo) *framework.Status {
	return framework.AsStatus(errNoRunner)
}

// RunPreFilterExtensionRemovePod is not supported.
func (h *Handle) RunPreFilterExtensionRemovePod(*framework.CycleState, *api.Pod, *framework.PodInfo, *framework.NodeInfo) *framework.Status {
	return framework.AsStatus(errNoRunner)
}
