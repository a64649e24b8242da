package podtopologyspread

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/labels"
)

const preFilterStateKey framework.StateKey = "PreFilter" + Name

// preFilterState is what PreFilter learns for Filter: per constraint, the
// matching-pod count of every eligible domain and the two smallest counts.
type preFilterState struct {
	Constraints []topologySpreadConstraint
	// CriticalPaths[i][0] always holds the minimum count of constraint i;
	// [1] is at least as large (not necessarily the second minimum after
	// AddPod/RemovePod, which is enough because preemption only changes
	// pods on one node per evaluation).
	CriticalPaths []*criticalPaths
	// TpValueToMatchNum[i] maps a domain to its count of matching pods.
	TpValueToMatchNum []map[string]int
	// selfMatch[i] says whether constraint i's selector matches the
	// incoming pod; worked out once, since Filter runs for every node
	// (the pod does not change within a cycle).
	selfMatch []bool
	// dense, when set, holds the same counts by node index, which Filter
	// reads without hashing strings.
	dense *denseCounts
}

// denseCounts is TpValueToMatchNum by number: valueOf[i][n] is the number
// of node n's value of constraint i's key (-1 without the key) and
// counts[i][v] the matching pods of value v (0 for a value that is no
// domain). It is good for a NodeInfo at position n of the snapshot
// PreFilter counted only if nodeAt[n] is its node object. nodeAt and
// valueOf are shared with the count cache and never written; counts
// belongs to the state.
type denseCounts struct {
	nodeAt  []*api.Node
	valueOf [][]int32
	counts  [][]int
	// limit[i] is the most matching pods a domain of constraint i may
	// hold for the node to pass: maxSkew + minMatchNum - selfMatchNum.
	limit []int
}

// setLimit works out limit[i] from the state's current counts.
func (s *preFilterState) setLimit(i int, pod *api.Pod) {
	c := &s.Constraints[i]
	self := 0
	if s.matchesSelf(i, pod) {
		self = 1
	}
	s.dense.limit[i] = int(c.MaxSkew) + s.minMatchNum(i, c.MinDomains) - self
}

// index returns nodeInfo's position if the dense counts describe it.
func (d *denseCounts) index(nodeInfo *framework.NodeInfo) (int, bool) {
	n := nodeInfo.Index()
	if n < 0 || n >= len(d.nodeAt) || d.nodeAt[n] != nodeInfo.Node() {
		return 0, false
	}
	return n, true
}

// minMatchNum is the global minimum of the skew formula: 0 while fewer
// eligible domains exist than minDomains.
func (s *preFilterState) minMatchNum(constraintID int, minDomains int32) int {
	if len(s.TpValueToMatchNum[constraintID]) < int(minDomains) {
		return 0
	}
	return s.CriticalPaths[constraintID][0].MatchNum
}

// matchesSelf reports whether constraint i's selector matches the pod.
func (s *preFilterState) matchesSelf(i int, pod *api.Pod) bool {
	if i < len(s.selfMatch) {
		return s.selfMatch[i]
	}
	return s.Constraints[i].Selector.Matches(pod.Labels)
}

// Clone deep-copies the counts, which AddPod/RemovePod change; constraints
// are shared because they never change.
func (s *preFilterState) Clone() framework.StateData {
	if s == nil {
		return nil
	}
	out := &preFilterState{
		Constraints:       s.Constraints,
		selfMatch:         s.selfMatch,
		CriticalPaths:     make([]*criticalPaths, len(s.CriticalPaths)),
		TpValueToMatchNum: make([]map[string]int, len(s.TpValueToMatchNum)),
	}
	if d := s.dense; d != nil {
		out.dense = &denseCounts{nodeAt: d.nodeAt, valueOf: d.valueOf, counts: make([][]int, len(d.counts)), limit: slices.Clone(d.limit)}
		for i, c := range d.counts {
			out.dense.counts[i] = slices.Clone(c)
		}
	}
	for i, p := range s.CriticalPaths {
		c := *p
		out.CriticalPaths[i] = &c
	}
	for i, m := range s.TpValueToMatchNum {
		out.TpValueToMatchNum[i] = maps.Clone(m)
	}
	return out
}

// criticalPath is a domain and its count of matching pods.
type criticalPath struct {
	TopologyValue string
	MatchNum      int
}

// criticalPaths tracks the two least loaded domains of a constraint.
type criticalPaths [2]criticalPath

func newCriticalPaths() *criticalPaths {
	return &criticalPaths{{MatchNum: math.MaxInt32}, {MatchNum: math.MaxInt32}}
}

// update records that domain tpVal now has num matching pods.
func (p *criticalPaths) update(tpVal string, num int) {
	i := -1
	if tpVal == p[0].TopologyValue {
		i = 0
	} else if tpVal == p[1].TopologyValue {
		i = 1
	}
	if i >= 0 {
		p[i].MatchNum = num
		if p[0].MatchNum > p[1].MatchNum {
			p[0], p[1] = p[1], p[0]
		}
		return
	}
	if num < p[0].MatchNum {
		p[1] = p[0]
		p[0] = criticalPath{TopologyValue: tpVal, MatchNum: num}
	} else if num < p[1].MatchNum {
		p[1] = criticalPath{TopologyValue: tpVal, MatchNum: num}
	}
}

// PreFilter counts matching pods per domain over all nodes; it returns Skip
// when the pod has no DoNotSchedule constraint (its own or default).
func (pl *PodTopologySpread) PreFilter(state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	pl.lastState, pl.lastPreFilter = nil, nil
	s, err := pl.calPreFilterState(pod, nodes)
	if err != nil {
		return nil, framework.AsStatus(err)
	}
	if len(s.Constraints) == 0 {
		return nil, pl.skip.Get()
	}
	state.Write(preFilterStateKey, s)
	pl.lastState, pl.lastPreFilter = state, s
	return nil, nil
}

// PreFilterExtensions lets preemption update the counts.
func (pl *PodTopologySpread) PreFilterExtensions() framework.PreFilterExtensions { return pl }

// AddPod counts a pod placed on nodeInfo's node.
func (pl *PodTopologySpread) AddPod(state *framework.CycleState, podToSchedule *api.Pod, podInfoToAdd *framework.PodInfo, nodeInfo *framework.NodeInfo) *framework.Status {
	s, err := getPreFilterState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	updateWithPod(s, podInfoToAdd.Pod, podToSchedule, nodeInfo, 1)
	return nil
}

// RemovePod uncounts a pod removed from nodeInfo's node.
func (pl *PodTopologySpread) RemovePod(state *framework.CycleState, podToSchedule *api.Pod, podInfoToRemove *framework.PodInfo, nodeInfo *framework.NodeInfo) *framework.Status {
	s, err := getPreFilterState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	updateWithPod(s, podInfoToRemove.Pod, podToSchedule, nodeInfo, -1)
	return nil
}

// updateWithPod adds delta to the domains of node for every constraint the
// pod matches, if the node counts for that constraint. Like upstream it does
// not look at whether the pod is terminating.
func updateWithPod(s *preFilterState, updatedPod, preemptorPod *api.Pod, nodeInfo *framework.NodeInfo, delta int) {
	node := nodeInfo.Node()
	if s == nil || updatedPod.Namespace != preemptorPod.Namespace || node == nil {
		return
	}
	if !nodeLabelsMatchSpreadConstraints(node.Labels, s.Constraints) {
		return
	}
	require := labels.GetRequiredNodeAffinity(preemptorPod)
	for i, c := range s.Constraints {
		if !c.Selector.Matches(updatedPod.Labels) {
			continue
		}
		if !c.matchNodeInclusionPolicies(preemptorPod, node, require) {
			continue
		}
		v := node.Labels[c.TopologyKey]
		s.TpValueToMatchNum[i][v] += delta
		s.CriticalPaths[i].update(v, s.TpValueToMatchNum[i][v])
		if d := s.dense; d != nil {
			// Keep the dense copy equal to the map, or stop using it.
			if n, ok := d.index(nodeInfo); ok && d.valueOf[i][n] >= 0 {
				d.counts[i][d.valueOf[i][n]] = s.TpValueToMatchNum[i][v]
				s.setLimit(i, preemptorPod)
			} else {
				s.dense = nil
			}
		}
	}
}

func getPreFilterState(state *framework.CycleState) (*preFilterState, error) {
	c, err := state.Read(preFilterStateKey)
	if err != nil {
		return nil, fmt.Errorf("reading %q from cycleState: %w", preFilterStateKey, err)
	}
	s, ok := c.(*preFilterState)
	if !ok {
		return nil, fmt.Errorf("%+v convert to podtopologyspread.preFilterState error", c)
	}
	return s, nil
}

// calPreFilterState counts, per constraint, the matching pods of every
// domain formed by the nodes that have all the topology keys and pass the
// constraint's inclusion policies.
func (pl *PodTopologySpread) calPreFilterState(pod *api.Pod, allNodes []*framework.NodeInfo) (*preFilterState, error) {
	constraints, err := pl.getConstraints(pod)
	if err != nil {
		return nil, fmt.Errorf("get constraints from pod: %w", err)
	}
	if len(constraints) == 0 {
		return &preFilterState{}, nil
	}
	s := &preFilterState{
		Constraints:       constraints,
		CriticalPaths:     make([]*criticalPaths, len(constraints)),
		TpValueToMatchNum: make([]map[string]int, len(constraints)),
	}
	s.selfMatch = make([]bool, len(constraints))
	for i, c := range constraints {
		s.selfMatch[i] = c.Selector.Matches(pod.Labels)
	}
	e := pl.counts.counts(pod, constraints, allNodes, countOptions{requireAll: true, index: true})
	d := &denseCounts{nodeAt: e.nodeAt, valueOf: e.valueOf, counts: make([][]int, len(constraints)), limit: make([]int, len(constraints))}
	e.shared = true
	for i := range constraints {
		s.TpValueToMatchNum[i] = e.doms[i].domains()
		d.counts[i] = slices.Clone(e.doms[i].totals)
	}
	if len(allNodes) > 0 {
		s.dense = d
	}
	for i := range constraints {
		s.CriticalPaths[i] = newCriticalPaths()
		// Upstream walks the map in random order, which only changes which
		// of several equally small domains is recorded; sorting keeps
		// the state reproducible.
		values := make([]string, 0, len(s.TpValueToMatchNum[i]))
		for v := range s.TpValueToMatchNum[i] {
			values = append(values, v)
		}
		sort.Strings(values)
		for _, v := range values {
			s.CriticalPaths[i].update(v, s.TpValueToMatchNum[i][v])
		}
		if s.dense != nil {
			s.setLimit(i, pod)
		}
	}
	return s, nil
}

// FilterNodes is Filter over nodes (framework.BatchFilterPlugin). The
// state is looked up once and a node the dense counts describe is judged
// without a call to Filter (calls cost several times native in wasm).
func (pl *PodTopologySpread) FilterNodes(state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo, statuses []*framework.Status) {
	var d *denseCounts
	if s := pl.stateFor(state); s != nil {
		if len(s.Constraints) == 0 {
			return
		}
		d = s.dense
	}
	for i, ni := range nodes {
		if statuses[i] != nil {
			continue
		}
		if d != nil {
			if n, ok := d.index(ni); ok {
				statuses[i] = d.verdict(n, pl.rejectLabel, pl.rejectSkew)
				continue
			}
		}
		if st := pl.Filter(state, pod, ni); !st.IsSuccess() {
			statuses[i] = st
		}
	}
}

// stateFor is the cycle's PreFilter state, nil if it has none (Filter then
// reports the error for each node).
func (pl *PodTopologySpread) stateFor(state *framework.CycleState) *preFilterState {
	if state == pl.lastState && pl.lastPreFilter != nil {
		return pl.lastPreFilter
	}
	s, err := getPreFilterState(state)
	if err != nil {
		return nil
	}
	return s
}

// verdict judges node n from the dense counts: rejectLabel without a
// constraint's key, rejectSkew over a constraint's limit, nil if it passes.
func (d *denseCounts) verdict(n int, rejectLabel, rejectSkew *framework.Status) *framework.Status {
	for i := range d.counts {
		v := d.valueOf[i][n]
		if v < 0 {
			return rejectLabel
		}
		if d.counts[i][v] > d.limit[i] {
			return rejectSkew
		}
	}
	return nil
}

// Filter rejects a node lacking a topology key (unresolvable) or whose
// domain would exceed maxSkew: matchNum + selfMatch - minMatch > maxSkew.
func (pl *PodTopologySpread) Filter(state *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	node := nodeInfo.Node()
	s := pl.lastPreFilter
	if state != pl.lastState || s == nil {
		var err error
		if s, err = getPreFilterState(state); err != nil {
			return framework.AsStatus(err)
		}
	}
	if len(s.Constraints) == 0 {
		return nil
	}
	if d := s.dense; d != nil {
		if n, ok := d.index(nodeInfo); ok {
			return d.verdict(n, pl.rejectLabel, pl.rejectSkew)
		}
	}
	for i, c := range s.Constraints {
		tpVal, ok := node.Labels[c.TopologyKey]
		if !ok {
			return pl.rejectLabel
		}
		minMatchNum := s.minMatchNum(i, c.MinDomains)
		selfMatchNum := 0
		if s.matchesSelf(i, pod) {
			selfMatchNum = 1
		}
		matchNum := s.TpValueToMatchNum[i][tpVal]
		if matchNum+selfMatchNum-minMatchNum > int(c.MaxSkew) {
			return pl.rejectSkew
		}
	}
	return nil
}
