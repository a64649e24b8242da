package podtopologyspread

import (
	"fmt"
	"math"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
)

const (
	preScoreStateKey framework.StateKey = "PreScore" + Name
	// invalidScore marks ignored nodes during normalization.
	invalidScore = -1
)

// preScoreState is what PreScore learns for Score and NormalizeScore.
type preScoreState struct {
	Constraints []topologySpreadConstraint
	// IgnoredNodes lack some constraint's topology key; they score 0.
	IgnoredNodes map[string]bool
	// TopologyValueToPodCounts[i] maps each domain of the feasible nodes
	// to its count of matching pods over all nodes. Hostname constraints
	// are counted per node in Score instead.
	TopologyValueToPodCounts []map[string]*int64
	// TopologyNormalizingWeight[i] is log(domains+2), so that counts in a
	// topology with few domains are not watered down by one with many.
	TopologyNormalizingWeight []float64
}

// Clone returns the state itself: nothing changes it after PreScore.
func (s *preScoreState) Clone() framework.StateData { return s }

// initPreScoreState compiles the soft constraints (or the defaults) and
// creates the domains of the feasible nodes.
func (pl *PodTopologySpread) initPreScoreState(s *preScoreState, pod *api.Pod, filteredNodes []*framework.NodeInfo, requireAllTopologies bool) error {
	var err error
	if len(pod.Spec.TopologySpreadConstraints) > 0 {
		s.Constraints, err = filterTopologySpreadConstraints(pod.Spec.TopologySpreadConstraints, pod.Labels, api.ScheduleAnyway)
		if err != nil {
			return fmt.Errorf("obtaining pod's soft topology spread constraints: %w", err)
		}
	} else {
		s.Constraints, err = pl.buildDefaultConstraints(pod, api.ScheduleAnyway)
		if err != nil {
			return fmt.Errorf("setting default soft topology spread constraints: %w", err)
		}
	}
	if len(s.Constraints) == 0 {
		return nil
	}
	s.IgnoredNodes = map[string]bool{}
	s.TopologyValueToPodCounts = make([]map[string]*int64, len(s.Constraints))
	for i := range s.Constraints {
		s.TopologyValueToPodCounts[i] = map[string]*int64{}
	}
	topoSize := make([]int, len(s.Constraints))
	for _, ni := range filteredNodes {
		node := ni.Node()
		if requireAllTopologies && !nodeLabelsMatchSpreadConstraints(node.Labels, s.Constraints) {
			s.IgnoredNodes[node.Name] = true
			continue
		}
		for i, c := range s.Constraints {
			if c.TopologyKey == api.LabelHostname {
				continue
			}
			// Without requireAllTopologies a node lacking the key forms the
			// domain "" (and widens the weight), as upstream.
			v := node.Labels[c.TopologyKey]
			if s.TopologyValueToPodCounts[i][v] == nil {
				s.TopologyValueToPodCounts[i][v] = new(int64)
				topoSize[i]++
			}
		}
	}
	s.TopologyNormalizingWeight = make([]float64, len(s.Constraints))
	for i, c := range s.Constraints {
		sz := topoSize[i]
		if c.TopologyKey == api.LabelHostname {
			sz = len(filteredNodes) - len(s.IgnoredNodes)
		}
		s.TopologyNormalizingWeight[i] = topologyNormalizingWeight(sz)
	}
	return nil
}

// PreScore counts the matching pods of the feasible nodes' domains over all
// nodes. It returns Skip when the pod has no soft constraint.
func (pl *PodTopologySpread) PreScore(state *framework.CycleState, pod *api.Pod, filteredNodes []*framework.NodeInfo) *framework.Status {
	allNodes := pl.handle.SnapshotSharedLister().NodeInfos().List()
	if len(allNodes) == 0 {
		return pl.skip.Get()
	}
	s := &preScoreState{}
	// Only explicit or List-defaulted constraints require every topology
	// key, so hostname spreading still works on nodes without a zone label.
	requireAllTopologies := len(pod.Spec.TopologySpreadConstraints) > 0 || !pl.systemDefaulted
	if err := pl.initPreScoreState(s, pod, filteredNodes, requireAllTopologies); err != nil {
		return framework.AsStatus(fmt.Errorf("calculating preScoreState: %w", err))
	}
	if len(s.Constraints) == 0 {
		return pl.skip.Get()
	}
	// Only domains of feasible nodes were created (never hostname ones);
	// they take their counts over all nodes.
	e := pl.counts.counts(pod, s.Constraints, allNodes, countOptions{requireAll: requireAllTopologies, skipHostname: true})
	for i := range s.Constraints {
		for v, cnt := range s.TopologyValueToPodCounts[i] {
			*cnt = int64(e.doms[i].total(v))
		}
	}
	state.Write(preScoreStateKey, s)
	return nil
}

// Score is the weighted count of matching pods in the node's domains (lower
// is better); NormalizeScore turns it around.
func (pl *PodTopologySpread) Score(state *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) (int64, *framework.Status) {
	s, err := getPreScoreState(state)
	if err != nil {
		return 0, framework.AsStatus(err)
	}
	return s.score(pod, nodeInfo), nil
}

// ScoreNodes is Score for every node, reading the state once.
func (pl *PodTopologySpread) ScoreNodes(state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo, scores framework.NodeScoreList) *framework.Status {
	if len(nodes) == 0 {
		return nil // Score would not have run, so could not have failed
	}
	s, err := getPreScoreState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	for i, ni := range nodes {
		scores[i].Score = s.score(pod, ni)
	}
	return nil
}

// score is the raw score of one node.
func (s *preScoreState) score(pod *api.Pod, nodeInfo *framework.NodeInfo) int64 {
	node := nodeInfo.Node()
	if len(s.IgnoredNodes) > 0 && s.IgnoredNodes[node.Name] {
		return 0
	}
	var score float64
	for i, c := range s.Constraints {
		tpVal, ok := node.Labels[c.TopologyKey]
		if !ok {
			continue
		}
		var cnt int64
		if c.TopologyKey == api.LabelHostname {
			cnt = int64(countPodsMatchSelector(nodeInfo.Pods, c.Selector, pod.Namespace))
		} else {
			cnt = *s.TopologyValueToPodCounts[i][tpVal]
		}
		score += scoreForCount(cnt, c.MaxSkew, s.TopologyNormalizingWeight[i])
	}
	return int64(math.Round(score))
}

// NormalizeScore maps raw scores to MaxNodeScore*(max+min-score)/max, the
// least loaded node getting 100; ignored nodes get 0, and all nodes get 100
// when the largest raw score is 0.
func (pl *PodTopologySpread) NormalizeScore(state *framework.CycleState, pod *api.Pod, scores framework.NodeScoreList) *framework.Status {
	s, err := getPreScoreState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	if s == nil {
		return nil
	}
	var minScore int64 = math.MaxInt64
	var maxScore int64
	for i, sc := range scores {
		if s.IgnoredNodes[sc.Name] {
			scores[i].Score = invalidScore
			continue
		}
		minScore = min(minScore, sc.Score)
		maxScore = max(maxScore, sc.Score)
	}
	for i := range scores {
		if scores[i].Score == invalidScore {
			scores[i].Score = 0
			continue
		}
		if maxScore == 0 {
			scores[i].Score = framework.MaxNodeScore
			continue
		}
		scores[i].Score = framework.MaxNodeScore * (maxScore + minScore - scores[i].Score) / maxScore
	}
	return nil
}

// ScoreExtensions returns the normalizer.
func (pl *PodTopologySpread) ScoreExtensions() framework.ScoreExtensions { return pl }

func getPreScoreState(state *framework.CycleState) (*preScoreState, error) {
	c, err := state.Read(preScoreStateKey)
	if err != nil {
		return nil, fmt.Errorf("error reading %q from cycleState: %w", preScoreStateKey, err)
	}
	s, ok := c.(*preScoreState)
	if !ok {
		return nil, fmt.Errorf("%+v  convert to podtopologyspread.preScoreState error", c)
	}
	return s, nil
}

// topologyNormalizingWeight is log(size+2): at least log(2) even when no
// node has the topology (every node then scores 0 anyway).
func topologyNormalizingWeight(size int) float64 {
	return math.Log(float64(size + 2))
}

// scoreForCount weighs a domain's count and adds maxSkew-1, which waters
// down differences between domains the larger the tolerated skew.
func scoreForCount(cnt int64, maxSkew int32, tpWeight float64) float64 {
	return float64(cnt)*tpWeight + float64(maxSkew-1)
}
