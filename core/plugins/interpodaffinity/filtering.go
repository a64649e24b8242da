package interpodaffinity

import (
	"fmt"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/labels"
)

const (
	// preFilterStateKey is where PreFilter leaves its counts for Filter.
	preFilterStateKey framework.StateKey = "PreFilter" + Name

	// ErrReasonExistingAntiAffinityRulesNotMatch: the node's domain holds a
	// pod whose required anti-affinity selects the incoming pod.
	ErrReasonExistingAntiAffinityRulesNotMatch = "node(s) didn't satisfy existing pods anti-affinity rules"
	// ErrReasonAffinityRulesNotMatch: the incoming pod's required affinity
	// is not met on the node.
	ErrReasonAffinityRulesNotMatch = "node(s) didn't match pod affinity rules"
	// ErrReasonAntiAffinityRulesNotMatch: the incoming pod's required
	// anti-affinity is violated on the node.
	ErrReasonAntiAffinityRulesNotMatch = "node(s) didn't match pod anti-affinity rules"
)

// topologyPair is one topology domain: a node label key and value.
type topologyPair struct {
	key   string
	value string
}

// topologyToMatchedTermCount counts matching (pod, term) pairs per domain.
type topologyToMatchedTermCount map[topologyPair]int64

func (m topologyToMatchedTermCount) clone() topologyToMatchedTermCount {
	out := make(topologyToMatchedTermCount, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// update adds value to the node's domain for key; nodes without the key
// have no domain and are ignored. Entries that drop to zero are removed so
// that "no entries" keeps meaning "nothing matched".
func (m topologyToMatchedTermCount) update(node *api.Node, key string, value int64) {
	tv, ok := node.Labels[key]
	if !ok {
		return
	}
	pair := topologyPair{key: key, value: tv}
	m[pair] += value
	if m[pair] == 0 {
		delete(m, pair)
	}
}

// preFilterState is what PreFilter computes for Filter.
type preFilterState struct {
	// existingAntiAffinityCounts: per domain, existing pods' required
	// anti-affinity terms that select the incoming pod.
	existingAntiAffinityCounts topologyToMatchedTermCount
	// affinityCounts: per domain, existing pods matching the incoming pod's
	// required affinity terms (a pod counts once per term, and only if it
	// matches all of them).
	affinityCounts topologyToMatchedTermCount
	// antiAffinityCounts: per domain, existing pods matching each of the
	// incoming pod's required anti-affinity terms.
	antiAffinityCounts topologyToMatchedTermCount
	podInfo            *framework.PodInfo
	// namespaceLabels are the incoming pod's namespace labels, which
	// existing pods' namespaceSelectors are matched against.
	namespaceLabels labels.Set
	ns              *namespaces
}

// Clone copies the counts; the pod and namespace data never change.
func (s *preFilterState) Clone() framework.StateData {
	if s == nil {
		return nil
	}
	c := *s
	c.existingAntiAffinityCounts = s.existingAntiAffinityCounts.clone()
	c.affinityCounts = s.affinityCounts.clone()
	c.antiAffinityCounts = s.antiAffinityCounts.clone()
	return &c
}

// updateWithPod counts pi on node in (multiplier 1) or out (-1).
func (s *preFilterState) updateWithPod(pi *framework.PodInfo, node *api.Node, multiplier int64) {
	if s == nil {
		return
	}
	incoming := s.podInfo.Pod
	for i := range pi.RequiredAntiAffinityTerms {
		t := &pi.RequiredAntiAffinityTerms[i]
		if t.Matches(incoming, s.namespaceLabels) {
			s.existingAntiAffinityCounts.update(node, t.TopologyKey, multiplier)
		}
	}
	if s.ns.podMatchesAllAffinityTerms(s.podInfo.RequiredAffinityTerms, pi.Pod) {
		for _, t := range s.podInfo.RequiredAffinityTerms {
			s.affinityCounts.update(node, t.TopologyKey, multiplier)
		}
	}
	for i := range s.podInfo.RequiredAntiAffinityTerms {
		t := &s.podInfo.RequiredAntiAffinityTerms[i]
		if s.ns.incomingTermMatches(t, pi.Pod) {
			s.antiAffinityCounts.update(node, t.TopologyKey, multiplier)
		}
	}
}

// existingAntiAffinityCounts counts, over nodes holding pods with required
// anti-affinity, the terms of those pods that select the incoming pod.
func existingAntiAffinityCounts(pod *api.Pod, nsLabels labels.Set, nodes []*framework.NodeInfo) topologyToMatchedTermCount {
	out := topologyToMatchedTermCount{}
	for _, ni := range nodes {
		node := ni.Node()
		for _, existing := range ni.PodsWithRequiredAntiAffinity {
			for i := range existing.RequiredAntiAffinityTerms {
				t := &existing.RequiredAntiAffinityTerms[i]
				if t.Matches(pod, nsLabels) {
					out.update(node, t.TopologyKey, 1)
				}
			}
		}
	}
	return out
}

// incomingAffinityAntiAffinityCounts counts existing pods matching the
// incoming pod's required affinity and anti-affinity terms.
func (s *preFilterState) incomingAffinityAntiAffinityCounts(nodes []*framework.NodeInfo) (topologyToMatchedTermCount, topologyToMatchedTermCount) {
	affinity, anti := topologyToMatchedTermCount{}, topologyToMatchedTermCount{}
	pi := s.podInfo
	if len(pi.RequiredAffinityTerms) == 0 && len(pi.RequiredAntiAffinityTerms) == 0 {
		return affinity, anti
	}
	for _, ni := range nodes {
		node := ni.Node()
		for _, existing := range ni.Pods {
			if s.ns.podMatchesAllAffinityTerms(pi.RequiredAffinityTerms, existing.Pod) {
				for _, t := range pi.RequiredAffinityTerms {
					affinity.update(node, t.TopologyKey, 1)
				}
			}
			for i := range pi.RequiredAntiAffinityTerms {
				t := &pi.RequiredAntiAffinityTerms[i]
				if s.ns.incomingTermMatches(t, existing.Pod) {
					anti.update(node, t.TopologyKey, 1)
				}
			}
		}
	}
	return affinity, anti
}

// PreFilter counts matching pods per topology domain. It skips the
// plugin's Filter when the pod has no required terms and no existing pod's
// required anti-affinity selects it.
func (pl *InterPodAffinity) PreFilter(state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	// Without pod (anti-)affinity of its own (so nothing to parse) and with
	// no running pod carrying required anti-affinity, every count below
	// would come out empty and the plugin would skip: skip at once.
	if !hasPodAffinity(pod) && len(pl.handle.SnapshotSharedLister().NodeInfos().HavePodsWithRequiredAntiAffinityList()) == 0 {
		return nil, pl.skip.Get()
	}
	s := &preFilterState{podInfo: framework.NewPodInfo(pod), ns: newNamespaces(pl.handle.Cluster())}
	if err := s.podInfo.ParseError; err != nil {
		return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, fmt.Sprintf("parsing pod: %+v", err))
	}
	s.namespaceLabels = s.ns.labelsOf(pod.Namespace)
	s.existingAntiAffinityCounts = existingAntiAffinityCounts(pod, s.namespaceLabels,
		pl.handle.SnapshotSharedLister().NodeInfos().HavePodsWithRequiredAntiAffinityList())
	s.affinityCounts, s.antiAffinityCounts = s.incomingAffinityAntiAffinityCounts(nodes)

	if len(s.existingAntiAffinityCounts) == 0 && len(s.podInfo.RequiredAffinityTerms) == 0 && len(s.podInfo.RequiredAntiAffinityTerms) == 0 {
		return nil, pl.skip.Get()
	}
	state.Write(preFilterStateKey, s)
	return nil, nil
}

// PreFilterExtensions returns the plugin: preemption adds and removes pods.
func (pl *InterPodAffinity) PreFilterExtensions() framework.PreFilterExtensions { return pl }

// AddPod counts podInfoToAdd as running on nodeInfo.
func (pl *InterPodAffinity) AddPod(state *framework.CycleState, podToSchedule *api.Pod, podInfoToAdd *framework.PodInfo, nodeInfo *framework.NodeInfo) *framework.Status {
	s, err := getPreFilterState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	s.updateWithPod(podInfoToAdd, nodeInfo.Node(), 1)
	return nil
}

// RemovePod uncounts podInfoToRemove from nodeInfo.
func (pl *InterPodAffinity) RemovePod(state *framework.CycleState, podToSchedule *api.Pod, podInfoToRemove *framework.PodInfo, nodeInfo *framework.NodeInfo) *framework.Status {
	s, err := getPreFilterState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	s.updateWithPod(podInfoToRemove, nodeInfo.Node(), -1)
	return nil
}

func getPreFilterState(state *framework.CycleState) (*preFilterState, error) {
	c, err := state.Read(preFilterStateKey)
	if err != nil {
		return nil, fmt.Errorf("reading %q from cycleState: %w", preFilterStateKey, err)
	}
	s, ok := c.(*preFilterState)
	if !ok {
		return nil, fmt.Errorf("%+v  convert to interpodaffinity.state error", c)
	}
	return s, nil
}

// satisfyExistingPodsAntiAffinity: no domain of the node holds a pod whose
// anti-affinity selects the incoming pod.
func satisfyExistingPodsAntiAffinity(s *preFilterState, ni *framework.NodeInfo) bool {
	if len(s.existingAntiAffinityCounts) == 0 {
		return true
	}
	for k, v := range ni.Node().Labels {
		if s.existingAntiAffinityCounts[topologyPair{key: k, value: v}] > 0 {
			return false
		}
	}
	return true
}

// satisfyPodAntiAffinity: no domain of the node (per anti-affinity term)
// holds a pod the term selects. A node without the term's key passes it.
func satisfyPodAntiAffinity(s *preFilterState, ni *framework.NodeInfo) bool {
	if len(s.antiAffinityCounts) == 0 {
		return true
	}
	for _, t := range s.podInfo.RequiredAntiAffinityTerms {
		if tv, ok := ni.Node().Labels[t.TopologyKey]; ok && s.antiAffinityCounts[topologyPair{key: t.TopologyKey, value: tv}] > 0 {
			return false
		}
	}
	return true
}

// satisfyPodAffinity: the node has every term's topology key and each of
// its domains holds a matching pod. When no pod anywhere matches the terms
// but the incoming pod matches them itself, any node with all the keys
// passes, so the first pod of a self-affine group can start.
func satisfyPodAffinity(s *preFilterState, ni *framework.NodeInfo) bool {
	podsExist := true
	for _, t := range s.podInfo.RequiredAffinityTerms {
		tv, ok := ni.Node().Labels[t.TopologyKey]
		if !ok {
			return false
		}
		if s.affinityCounts[topologyPair{key: t.TopologyKey, value: tv}] <= 0 {
			podsExist = false
		}
	}
	if podsExist {
		return true
	}
	return len(s.affinityCounts) == 0 && s.ns.podMatchesAllAffinityTerms(s.podInfo.RequiredAffinityTerms, s.podInfo.Pod)
}

// Filter checks the incoming pod's affinity (UnschedulableAndUnresolvable:
// removing pods cannot add a matching one), then its anti-affinity and the
// existing pods' anti-affinity (Unschedulable: preemption may help).
func (pl *InterPodAffinity) Filter(state *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	s, err := getPreFilterState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	if !satisfyPodAffinity(s, nodeInfo) {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonAffinityRulesNotMatch)
	}
	if !satisfyPodAntiAffinity(s, nodeInfo) {
		return framework.NewStatus(framework.Unschedulable, ErrReasonAntiAffinityRulesNotMatch)
	}
	if !satisfyExistingPodsAntiAffinity(s, nodeInfo) {
		return framework.NewStatus(framework.Unschedulable, ErrReasonExistingAntiAffinityRulesNotMatch)
	}
	return nil
}
