package interpodaffinity

import (
	"fmt"
	"math"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/labels"
)

// preScoreStateKey is where PreScore leaves the domain scores for Score.
const preScoreStateKey framework.StateKey = "PreScore" + Name

// scoreMap sums weights per topology key and value.
type scoreMap map[string]map[string]int64

// preScoreState is what PreScore computes for Score and NormalizeScore.
type preScoreState struct {
	topologyScore   scoreMap
	podInfo         *framework.PodInfo
	namespaceLabels labels.Set
	ns              *namespaces
}

// Clone returns s itself: nothing changes it after PreScore.
func (s *preScoreState) Clone() framework.StateData { return s }

// add credits weight to node's domain for key; a node without the key has
// no domain and gets nothing.
func (m scoreMap) add(node *api.Node, key string, weight int64) {
	tv, ok := node.Labels[key]
	if !ok {
		return
	}
	if m[key] == nil {
		m[key] = map[string]int64{}
	}
	m[key][tv] += weight
}

// processExistingPod adds existing's contributions, located at its node's
// domains, to m.
func (pl *InterPodAffinity) processExistingPod(s *preScoreState, existing *framework.PodInfo, node *api.Node, incoming *api.Pod, m scoreMap) {
	if len(node.Labels) == 0 {
		return
	}
	// The incoming pod's preferred terms: + for affinity, - for anti-affinity.
	for _, t := range s.podInfo.PreferredAffinityTerms {
		if s.ns.incomingTermMatches(&t.AffinityTerm, existing.Pod) {
			m.add(node, t.TopologyKey, int64(t.Weight))
		}
	}
	for _, t := range s.podInfo.PreferredAntiAffinityTerms {
		if s.ns.incomingTermMatches(&t.AffinityTerm, existing.Pod) {
			m.add(node, t.TopologyKey, -int64(t.Weight))
		}
	}
	// The existing pod's required affinity pulls matching pods towards it
	// with hardPodAffinityWeight.
	if pl.args.HardPodAffinityWeight > 0 {
		for i := range existing.RequiredAffinityTerms {
			t := &existing.RequiredAffinityTerms[i]
			if t.Matches(incoming, s.namespaceLabels) {
				m.add(node, t.TopologyKey, int64(pl.args.HardPodAffinityWeight))
			}
		}
	}
	// The existing pod's preferred terms, symmetrically.
	for _, t := range existing.PreferredAffinityTerms {
		if t.Matches(incoming, s.namespaceLabels) {
			m.add(node, t.TopologyKey, int64(t.Weight))
		}
	}
	for _, t := range existing.PreferredAntiAffinityTerms {
		if t.Matches(incoming, s.namespaceLabels) {
			m.add(node, t.TopologyKey, -int64(t.Weight))
		}
	}
}

// PreScore sums term weights per topology domain over all nodes of the
// snapshot (not just the feasible ones). It skips the plugin's Score when
// nothing contributed.
func (pl *InterPodAffinity) PreScore(state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo) *framework.Status {
	lister := pl.handle.SnapshotSharedLister()
	if lister == nil {
		return framework.NewStatus(framework.Error, "empty shared lister in InterPodAffinity PreScore")
	}
	a := pod.Spec.Affinity
	hasPreferredAffinity := a != nil && a.PodAffinity != nil && len(a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution) > 0
	hasPreferredAntiAffinity := a != nil && a.PodAntiAffinity != nil && len(a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution) > 0
	hasConstraints := hasPreferredAffinity || hasPreferredAntiAffinity

	if pl.args.IgnorePreferredTermsOfExistingPods && !hasConstraints {
		return pl.skip.Get()
	}

	// Without preferred terms of its own, only pods with affinity can
	// contribute, so only their nodes are visited.
	var allNodes []*framework.NodeInfo
	if hasConstraints {
		allNodes = lister.NodeInfos().List()
	} else {
		allNodes = lister.NodeInfos().HavePodsWithAffinityList()
		if len(allNodes) == 0 && !hasPodAffinity(pod) {
			// Nothing can contribute and nothing to parse: the loop below
			// would find nothing and skip.
			return pl.skip.Get()
		}
	}

	s := &preScoreState{topologyScore: scoreMap{}, podInfo: framework.NewPodInfo(pod), ns: newNamespaces(pl.handle.Cluster())}
	if err := s.podInfo.ParseError; err != nil {
		return framework.AsStatus(fmt.Errorf("failed to parse pod: %w", err))
	}
	s.namespaceLabels = s.ns.labelsOf(pod.Namespace)

	contributed := false
	for _, ni := range allNodes {
		pods := ni.PodsWithAffinity
		if hasConstraints {
			pods = ni.Pods
		}
		m := scoreMap{}
		for _, existing := range pods {
			pl.processExistingPod(s, existing, ni.Node(), pod, m)
		}
		if len(m) > 0 {
			contributed = true
			s.topologyScore.merge(m)
		}
	}
	if !contributed {
		return pl.skip.Get()
	}
	state.Write(preScoreStateKey, s)
	return nil
}

func (m scoreMap) merge(o scoreMap) {
	for key, values := range o {
		if m[key] == nil {
			m[key] = map[string]int64{}
		}
		for v, w := range values {
			m[key][v] += w
		}
	}
}

func getPreScoreState(state *framework.CycleState) (*preScoreState, error) {
	c, err := state.Read(preScoreStateKey)
	if err != nil {
		return nil, fmt.Errorf("failed to read %q from cycleState: %w", preScoreStateKey, err)
	}
	s, ok := c.(*preScoreState)
	if !ok {
		return nil, fmt.Errorf("%+v  convert to interpodaffinity.preScoreState error", c)
	}
	return s, nil
}

// Score sums the node's domains' weights: positive for affinity, negative
// for anti-affinity; NormalizeScore maps them to 0..100.
func (pl *InterPodAffinity) Score(state *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) (int64, *framework.Status) {
	s, err := getPreScoreState(state)
	if err != nil {
		return 0, framework.AsStatus(err)
	}
	node := nodeInfo.Node()
	var score int64
	for key, values := range s.topologyScore {
		if v, ok := node.Labels[key]; ok {
			score += values[v]
		}
	}
	return score, nil
}

// NormalizeScore scales min..max to 0..100 (truncating); when all scores
// are equal every node gets 0.
func (pl *InterPodAffinity) NormalizeScore(state *framework.CycleState, pod *api.Pod, scores framework.NodeScoreList) *framework.Status {
	s, err := getPreScoreState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	if len(s.topologyScore) == 0 {
		return nil
	}
	var minCount int64 = math.MaxInt64
	var maxCount int64 = math.MinInt64
	for i := range scores {
		minCount = min(minCount, scores[i].Score)
		maxCount = max(maxCount, scores[i].Score)
	}
	diff := maxCount - minCount
	for i := range scores {
		f := float64(0)
		if diff > 0 {
			f = float64(framework.MaxNodeScore) * (float64(scores[i].Score-minCount) / float64(diff))
		}
		scores[i].Score = int64(f)
	}
	return nil
}

// ScoreExtensions returns the plugin, which normalizes its scores.
func (pl *InterPodAffinity) ScoreExtensions() framework.ScoreExtensions { return pl }
