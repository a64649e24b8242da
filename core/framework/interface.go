package framework

import (
	"math"

	"github.com/schedplay/schedplay/core/api"
)

// Score bounds, as upstream.
const (
	MaxNodeScore  int64 = 100
	MinNodeScore  int64 = 0
	MaxTotalScore int64 = math.MaxInt64
)

// Plugin is any scheduling plugin.
type Plugin interface {
	Name() string
}

// PreEnqueuePlugin decides whether a pod may enter the active queue at all
// (e.g. SchedulingGates).
type PreEnqueuePlugin interface {
	Plugin
	PreEnqueue(pod *api.Pod) *Status
}

// PreFilterResult restricts the nodes worth filtering; nil NodeNames means all.
type PreFilterResult struct {
	NodeNames map[string]bool
}

// AllNodes reports whether every node is still eligible.
func (p *PreFilterResult) AllNodes() bool { return p == nil || p.NodeNames == nil }

// Merge intersects two results.
func (p *PreFilterResult) Merge(o *PreFilterResult) *PreFilterResult {
	if p.AllNodes() && o.AllNodes() {
		return nil
	}
	if p.AllNodes() {
		return o
	}
	if o.AllNodes() {
		return p
	}
	out := &PreFilterResult{NodeNames: map[string]bool{}}
	for n := range p.NodeNames {
		if o.NodeNames[n] {
			out.NodeNames[n] = true
		}
	}
	return out
}

// PreFilterExtensions let preemption ask a plugin to update its PreFilter
// state as if a pod were added to or removed from a node.
type PreFilterExtensions interface {
	AddPod(state *CycleState, podToSchedule *api.Pod, podInfoToAdd *PodInfo, nodeInfo *NodeInfo) *Status
	RemovePod(state *CycleState, podToSchedule *api.Pod, podInfoToRemove *PodInfo, nodeInfo *NodeInfo) *Status
}

// PreFilterPlugin runs once per cycle before Filter. Returning Skip turns
// off the plugin's Filter for this cycle.
type PreFilterPlugin interface {
	Plugin
	PreFilter(state *CycleState, pod *api.Pod, nodes []*NodeInfo) (*PreFilterResult, *Status)
	PreFilterExtensions() PreFilterExtensions
}

// FilterPlugin decides whether pod can run on a node. It must only use the
// NodeInfo it is given: preemption passes a modified copy.
type FilterPlugin interface {
	Plugin
	Filter(state *CycleState, pod *api.Pod, nodeInfo *NodeInfo) *Status
}

// BatchFilterPlugin is a schedplay-internal extension of FilterPlugin (not
// in upstream): it filters many nodes in one call, so that the runtime
// makes no per-node interface call (each is dear in WebAssembly). The
// runtime uses it whenever a filter plugin implements it.
//
// FilterNodes must, for each i where statuses[i] is nil, set statuses[i]
// to what Filter returns for nodes[i] when that is not a success, and
// leave it nil otherwise; nodes whose status is already set (rejected by
// an earlier plugin) it must not filter. len(statuses) == len(nodes).
type BatchFilterPlugin interface {
	FilterPlugin
	FilterNodes(state *CycleState, pod *api.Pod, nodes []*NodeInfo, statuses []*Status)
}

// NominatingMode says whether a PostFilter result changes the nomination.
type NominatingMode int

// Nominating modes.
const (
	ModeNoop NominatingMode = iota
	ModeOverride
)

// NominatingInfo carries the node a preemptor is nominated to.
type NominatingInfo struct {
	NominatedNodeName string
	NominatingMode    NominatingMode
}

// PostFilterResult is what a PostFilter plugin (preemption) decided.
type PostFilterResult struct {
	*NominatingInfo
}

// Mode returns the nominating mode (Noop for nil).
func (r *PostFilterResult) Mode() NominatingMode {
	if r == nil || r.NominatingInfo == nil {
		return ModeNoop
	}
	return r.NominatingMode
}

// PostFilterPlugin runs when no node passed the filters.
type PostFilterPlugin interface {
	Plugin
	PostFilter(state *CycleState, pod *api.Pod, filteredNodeStatusMap NodeToStatusReader) (*PostFilterResult, *Status)
}

// PreScorePlugin runs once before Score over the feasible nodes. Returning
// Skip turns off the plugin's Score for this cycle.
type PreScorePlugin interface {
	Plugin
	PreScore(state *CycleState, pod *api.Pod, nodes []*NodeInfo) *Status
}

// NodeScore is a node's score from one plugin.
type NodeScore struct {
	Name  string
	Score int64
}

// NodeScoreList holds one plugin's scores over the feasible nodes.
type NodeScoreList []NodeScore

// ScoreExtensions normalize a plugin's raw scores into 0..MaxNodeScore.
type ScoreExtensions interface {
	NormalizeScore(state *CycleState, pod *api.Pod, scores NodeScoreList) *Status
}

// ScorePlugin ranks feasible nodes.
type ScorePlugin interface {
	Plugin
	Score(state *CycleState, pod *api.Pod, nodeInfo *NodeInfo) (int64, *Status)
	ScoreExtensions() ScoreExtensions
}

// BatchScorePlugin is a schedplay-internal extension of ScorePlugin (not
// in upstream): it scores every node of a cycle in one call, so that the
// plugin reads its cycle state once and the runtime makes no per-node
// interface call or Status. The runtime uses it whenever a score plugin
// implements it.
//
// ScoreNodes must leave in scores[i].Score exactly what Score would return
// for nodes[i] (it need not set Name), and must fail exactly when Score would
// fail on some node: with the Status Score returns for the first such node
// in order. len(scores) == len(nodes).
type BatchScorePlugin interface {
	ScorePlugin
	ScoreNodes(state *CycleState, pod *api.Pod, nodes []*NodeInfo, scores NodeScoreList) *Status
}

// NamelessNormalizer is a schedplay-internal extension (not in upstream)
// of ScoreExtensions whose NormalizeScore reads only the scores, never
// NodeScore.Name: the runtime then leaves the names unset, saving a string
// write per node and cycle. NormalizeIgnoresNames does nothing; having it
// is the promise.
type NamelessNormalizer interface {
	ScoreExtensions
	NormalizeIgnoresNames()
}

// NodeInfoLister lists the snapshot's nodes.
type NodeInfoLister interface {
	List() []*NodeInfo
	HavePodsWithAffinityList() []*NodeInfo
	HavePodsWithRequiredAntiAffinityList() []*NodeInfo
	Get(name string) (*NodeInfo, error)
}

// SharedLister gives plugins the cycle's snapshot.
type SharedLister interface {
	NodeInfos() NodeInfoLister
}

// NodeToStatusReader reads the filter verdict per node.
type NodeToStatusReader interface {
	// Get returns the status of a node, or the absent-nodes status.
	Get(nodeName string) *Status
	// NodesForStatusCode lists the nodes (in lister order) with the given code.
	NodesForStatusCode(lister NodeInfoLister, code Code) ([]*NodeInfo, error)
}

// PluginsRunner runs the profile's plugins; preemption needs it.
type PluginsRunner interface {
	RunPreScorePlugins(state *CycleState, pod *api.Pod, nodes []*NodeInfo) *Status
	RunFilterPlugins(state *CycleState, pod *api.Pod, nodeInfo *NodeInfo) *Status
	RunPreFilterExtensionAddPod(state *CycleState, podToSchedule *api.Pod, podInfoToAdd *PodInfo, nodeInfo *NodeInfo) *Status
	RunPreFilterExtensionRemovePod(state *CycleState, podToSchedule *api.Pod, podInfoToRemove *PodInfo, nodeInfo *NodeInfo) *Status
}

// Handle is what a plugin can reach besides its arguments.
type Handle interface {
	PluginsRunner
	// SnapshotSharedLister returns the current cycle's snapshot.
	SnapshotSharedLister() SharedLister
	// NominatedPodsForNode returns the pods nominated to run on a node.
	NominatedPodsForNode(nodeName string) []*PodInfo
	// RunFilterPluginsWithNominatedPods filters with higher-or-equal
	// priority nominated pods counted as already placed.
	RunFilterPluginsWithNominatedPods(state *CycleState, pod *api.Pod, nodeInfo *NodeInfo) *Status
	// Cluster reads objects that are not in the snapshot.
	Cluster() ClusterLister
	// PreemptionExecutor carries out the preemptions PostFilter decides
	// on; nil when nothing does (explain's dry runs, plugin tests).
	PreemptionExecutor() PreemptionExecutor
	// VolumeBinder carries out VolumeBinding's PreBind; nil when nothing
	// does (explain's dry runs, plugin tests).
	VolumeBinder() VolumeBinder
}

// Victims are the pods a preemption evicts on its node, most important
// first, and how many of them a PDB protects (upstream's extenderv1.Victims).
type Victims struct {
	Pods             []*api.Pod
	NumPDBViolations int64
}

// PreemptionExecutor carries out a preemption: the victims get the
// DisruptionTarget condition and a graceful delete, and lower-priority pods
// nominated to the node lose their nomination. Upstream's
// preemption.Executor does this through the Handle's ClientSet
// (actuatePodPreemption, then prepareCandidate or prepareCandidateAsync);
// here the simulation implements it.
type PreemptionExecutor interface {
	ActuatePodPreemption(targetNode string, victims *Victims, preemptor *api.Pod, pluginName string) *Status
}

// ClusterLister reads namespaces and disruption budgets.
type ClusterLister interface {
	// NamespaceLabels returns a namespace's labels; every namespace
	// carries kubernetes.io/metadata.name as the API server adds it.
	NamespaceLabels(name string) map[string]string
	// ListNamespaces lists the namespaces the scenario knows.
	ListNamespaces() []*api.Namespace
	PodDisruptionBudgets() []*api.PodDisruptionBudget
	// Workload selectors, for PodTopologySpread's system default constraints.
	Services() []*api.Service
	ReplicationControllers() []*api.ReplicationController
	ReplicaSets() []*api.ReplicaSet
	StatefulSets() []*api.StatefulSet
	// Storage reads claims, volumes, classes and CSI objects.
	Storage() StorageLister
}

// PluginFactory builds a plugin from its (defaulted) args.
type PluginFactory func(args any, h Handle) (Plugin, error)

// Registry maps plugin names to factories.
type Registry map[string]PluginFactory
