// Package noderesources holds NodeResourcesFit (does the pod fit the node's
// free allocatable, and how full would the node be) and
// NodeResourcesBalancedAllocation (does the pod even out the node's usage
// across resources), as upstream's framework/plugins/noderesources.
package noderesources

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/plugins/names"
)

// Name is NodeResourcesFit's name.
const Name = names.NodeResourcesFit

const (
	preFilterStateKey framework.StateKey = "PreFilter" + Name
	preScoreStateKey  framework.StateKey = "PreScore" + Name
)

// Filter reasons, byte-identical to upstream. A missing extended resource
// reads "Insufficient <name>".
const (
	ReasonTooManyPods                  = "Too many pods"
	ReasonInsufficientCPU              = "Insufficient cpu"
	ReasonInsufficientMemory           = "Insufficient memory"
	ReasonInsufficientEphemeralStorage = "Insufficient ephemeral-storage"
)

// Fit is the NodeResourcesFit plugin.
type Fit struct {
	ignoredResources      map[string]bool
	ignoredResourceGroups map[string]bool
	*resourceAllocationScorer

	// Filter runs for every node with the same state: it remembers the
	// state (and its version) it last read PreFilter's data from, and
	// what it read, instead of looking the key up per node.
	lastState   *framework.CycleState
	lastVersion uint64
	lastRead    *preFilterState
}

var (
	_ framework.PreFilterPlugin  = (*Fit)(nil)
	_ framework.FilterPlugin     = (*Fit)(nil)
	_ framework.PreScorePlugin   = (*Fit)(nil)
	_ framework.ScorePlugin      = (*Fit)(nil)
	_ framework.BatchScorePlugin = (*Fit)(nil)
)

// NewFit builds NodeResourcesFit from *config.NodeResourcesFitArgs (defaulted).
func NewFit(args any, _ framework.Handle) (framework.Plugin, error) {
	a, ok := args.(*config.NodeResourcesFitArgs)
	if !ok {
		return nil, fmt.Errorf("want args to be of type NodeResourcesFitArgs, got %T", args)
	}
	if err := ValidateNodeResourcesFitArgs(a); err != nil {
		return nil, err
	}
	scorer, err := newFitScorer(a.ScoringStrategy)
	if err != nil {
		return nil, err
	}
	pl := &Fit{
		ignoredResources:         map[string]bool{},
		ignoredResourceGroups:    map[string]bool{},
		resourceAllocationScorer: scorer,
	}
	for _, r := range a.IgnoredResources {
		pl.ignoredResources[r] = true
	}
	for _, g := range a.IgnoredResourceGroups {
		pl.ignoredResourceGroups[g] = true
	}
	return pl, nil
}

func newFitScorer(s *config.ScoringStrategy) (*resourceAllocationScorer, error) {
	if s == nil {
		return nil, fmt.Errorf("scoring strategy not specified")
	}
	// Upstream's Fit scorer never receives the PodLevelResources gate (only
	// BalancedAllocation's does), so Fit scores the incoming pod by its
	// container requests even when spec.resources sets pod-level ones.
	r := &resourceAllocationScorer{name: string(s.Type), resources: s.Resources}
	switch s.Type {
	case config.LeastAllocated:
		r.scorer, r.kind = leastResourceScorer(s.Resources), kindLeastAllocated
	case config.MostAllocated:
		r.scorer, r.kind = mostResourceScorer(s.Resources), kindMostAllocated
	case config.RequestedToCapacityRatio:
		r.scorer = requestedToCapacityRatioScorer(s.Resources, s.RequestedToCapacityRatio.Shape)
	default:
		return nil, fmt.Errorf("scoring strategy %s is not supported", s.Type)
	}
	r.classify()
	return r, nil
}

// Name returns the plugin's name.
func (pl *Fit) Name() string { return Name }

// preFilterState is the pod's request, computed once per cycle.
type preFilterState struct {
	framework.Resource
}

// Clone shares the state: nothing changes it after PreFilter.
func (s *preFilterState) Clone() framework.StateData { return s }

// computePodResourceRequest is the pod's effective request: containers,
// sidecars, the init-container floor, pod-level requests and overhead.
func computePodResourceRequest(pod *api.Pod) *preFilterState {
	s := &preFilterState{}
	api.VisitPodRequests(pod, api.PodRequestsOptions{}, s.AddRequest)
	return s
}

// PreFilter records the pod's request. SidecarContainers is GA, so
// restartable init containers are always accepted.
func (pl *Fit) PreFilter(state *framework.CycleState, pod *api.Pod, _ []*framework.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	state.Write(preFilterStateKey, computePodResourceRequest(pod))
	return nil, nil
}

// PreFilterExtensions returns nil: the state does not depend on other pods.
func (pl *Fit) PreFilterExtensions() framework.PreFilterExtensions { return nil }

func getPreFilterState(state *framework.CycleState) (*preFilterState, error) {
	c, err := state.Read(preFilterStateKey)
	if err != nil {
		return nil, fmt.Errorf("error reading %q from cycleState: %w", preFilterStateKey, err)
	}
	s, ok := c.(*preFilterState)
	if !ok {
		return nil, fmt.Errorf("%+v  convert to NodeResourcesFit.preFilterState error", c)
	}
	return s, nil
}

// Filter rejects a node lacking room for the pod, listing every shortfall.
// The status is UnschedulableAndUnresolvable when some request exceeds the
// node's whole allocatable (no preemption can help), else Unschedulable.
func (pl *Fit) Filter(state *framework.CycleState, _ *api.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	s, err := pl.readPreFilterState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	insufficient := fitsRequest(s, nodeInfo, pl.ignoredResources, pl.ignoredResourceGroups)
	if len(insufficient) == 0 {
		return nil
	}
	code := framework.Unschedulable
	reasons := make([]string, 0, len(insufficient))
	for _, r := range insufficient {
		reasons = append(reasons, r.Reason)
		if r.Unresolvable {
			code = framework.UnschedulableAndUnresolvable
		}
	}
	return framework.NewStatus(code, reasons...)
}

// readPreFilterState returns PreFilter's state, read again only when the
// cycle state is another one or was written since.
func (pl *Fit) readPreFilterState(state *framework.CycleState) (*preFilterState, error) {
	if state != nil && state == pl.lastState && state.Version() == pl.lastVersion {
		return pl.lastRead, nil
	}
	s, err := getPreFilterState(state)
	if err != nil {
		return nil, err
	}
	pl.lastState, pl.lastVersion, pl.lastRead = state, state.Version(), s
	return s, nil
}

// FilterNodes is Filter over nodes (framework.BatchFilterPlugin). For a pod
// asking for no scalar resources, a node with room for it passes without
// a call (hasRoom); any other node gets Filter and its status.
func (pl *Fit) FilterNodes(state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo, statuses []*framework.Status) {
	s, err := pl.readPreFilterState(state)
	plain := err == nil && len(s.ScalarResources) == 0
	for i, ni := range nodes {
		if statuses[i] != nil || plain && hasRoom(s, ni) {
			continue
		}
		if st := pl.Filter(state, pod, ni); !st.IsSuccess() {
			statuses[i] = st
		}
	}
}

// hasRoom reports whether fitsRequest finds nothing lacking on the node for
// a request without scalar resources: the same comparisons, none failing.
func hasRoom(req *preFilterState, ni *framework.NodeInfo) bool {
	alloc, used := &ni.Allocatable, &ni.Requested
	return len(ni.Pods)+1 <= alloc.AllowedPodNumber &&
		(req.MilliCPU <= 0 || req.MilliCPU <= alloc.MilliCPU-used.MilliCPU) &&
		(req.Memory <= 0 || req.Memory <= alloc.Memory-used.Memory) &&
		(req.EphemeralStorage <= 0 || req.EphemeralStorage <= alloc.EphemeralStorage-used.EphemeralStorage)
}

// InsufficientResource is one resource the node lacks for the pod.
type InsufficientResource struct {
	ResourceName api.ResourceName
	Reason       string
	Requested    int64
	Used         int64
	Capacity     int64
	// Unresolvable: the request exceeds the node's allocatable outright.
	Unresolvable bool
}

// Fits lists what the node lacks for pod (no ignored resources).
func Fits(pod *api.Pod, nodeInfo *framework.NodeInfo) []InsufficientResource {
	return fitsRequest(computePodResourceRequest(pod), nodeInfo, nil, nil)
}

func fitsRequest(req *preFilterState, nodeInfo *framework.NodeInfo, ignored, ignoredGroups map[string]bool) []InsufficientResource {
	var out []InsufficientResource
	alloc, used := &nodeInfo.Allocatable, &nodeInfo.Requested

	// The pod count is checked even for a pod that requests nothing, and a
	// node without a pods allocatable holds none.
	if len(nodeInfo.Pods)+1 > alloc.AllowedPodNumber {
		out = append(out, InsufficientResource{
			ResourceName: api.ResourcePods,
			Reason:       ReasonTooManyPods,
			Requested:    1,
			Used:         int64(len(nodeInfo.Pods)),
			Capacity:     int64(alloc.AllowedPodNumber),
		})
	}
	if req.MilliCPU == 0 && req.Memory == 0 && req.EphemeralStorage == 0 && len(req.ScalarResources) == 0 {
		return out
	}

	check := func(name api.ResourceName, reason string, want, capacity, inUse int64) {
		if want > 0 && want > capacity-inUse {
			out = append(out, InsufficientResource{
				ResourceName: name,
				Reason:       reason,
				Requested:    want,
				Used:         inUse,
				Capacity:     capacity,
				Unresolvable: want > capacity,
			})
		}
	}
	check(api.ResourceCPU, ReasonInsufficientCPU, req.MilliCPU, alloc.MilliCPU, used.MilliCPU)
	check(api.ResourceMemory, ReasonInsufficientMemory, req.Memory, alloc.Memory, used.Memory)
	check(api.ResourceEphemeralStorage, ReasonInsufficientEphemeralStorage, req.EphemeralStorage, alloc.EphemeralStorage, used.EphemeralStorage)

	if len(req.ScalarResources) == 0 {
		return out
	}
	// Upstream walks a map here, so several scalar shortfalls come out in
	// random order; sorting by name makes ours reproducible.
	scalars := make([]api.ResourceName, 0, len(req.ScalarResources))
	for name := range req.ScalarResources {
		scalars = append(scalars, name)
	}
	slices.Sort(scalars)
	for _, name := range scalars {
		// Only extended resources can be ignored; hugepages never are.
		if framework.IsExtendedResourceName(name) {
			group, _, _ := strings.Cut(string(name), "/")
			if ignored[string(name)] || ignoredGroups[group] {
				continue
			}
		}
		// A resource the node does not list has zero allocatable. (DRA-backed
		// extended resources would be skipped here, but they need a
		// DeviceClass, which a scenario cannot hold.)
		check(name, fmt.Sprintf("Insufficient %v", name), req.ScalarResources[name], alloc.ScalarResources[name], used.ScalarResources[name])
	}
	return out
}

// preScoreState is the pod's request per configured scoring resource.
type preScoreState struct {
	podRequests []int64
}

// Clone shares the state: nothing changes it after PreScore.
func (s *preScoreState) Clone() framework.StateData { return s }

// PreScore records the pod's requests for the scored resources. Unlike
// BalancedAllocation it never skips: a best-effort pod still counts the
// non-zero defaults.
func (pl *Fit) PreScore(state *framework.CycleState, pod *api.Pod, _ []*framework.NodeInfo) *framework.Status {
	state.Write(preScoreStateKey, &preScoreState{podRequests: pl.calculatePodResourceRequestList(pod)})
	return nil
}

// Score rates the node by the configured strategy.
func (pl *Fit) Score(state *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) (int64, *framework.Status) {
	// Upstream recomputes when the state is missing or of the wrong type.
	s, ok := readState(state, preScoreStateKey).(*preScoreState)
	if !ok {
		s = &preScoreState{podRequests: pl.calculatePodResourceRequestList(pod)}
	}
	podRequests := s.podRequests
	return pl.score(nodeInfo, podRequests)
}

// ScoreNodes is Score for every node, reading the state once.
func (pl *Fit) ScoreNodes(state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo, scores framework.NodeScoreList) *framework.Status {
	s, ok := readState(state, preScoreStateKey).(*preScoreState)
	if !ok {
		s = &preScoreState{podRequests: pl.calculatePodResourceRequestList(pod)}
	}
	return pl.scoreNodes(nodes, s.podRequests, scores)
}

// ScoreExtensions returns nil: scores are already in 0..MaxNodeScore.
func (pl *Fit) ScoreExtensions() framework.ScoreExtensions { return nil }

// SignPod: filtering and scoring depend on the pod's effective request (upstream
// Fit.SignPod; DRA extended resources cannot be expressed).
func (pl *Fit) SignPod(pod *api.Pod) ([]framework.SignFragment, *framework.Status) {
	return []framework.SignFragment{{Key: framework.ResourcesSignerName, Value: computePodResourceRequest(pod).Resource}}, nil
}
