// Package scheduler runs scheduling cycles the way upstream's
// pkg/scheduler/schedule_one.go does, sequentially: the node search walks
// the nodes from a rotating start index and stops once it has found enough
// feasible nodes, exactly as the parallel version would if its workers ran
// in order.
package scheduler

import (
	"errors"
	"fmt"
	"sort"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/framework/runtime"
)

// Node-search constants, as upstream.
const (
	minFeasibleNodesToFind           = 100
	minFeasibleNodesPercentageToFind = 5
)

// ErrNoNodesAvailable is returned when the cluster has no nodes.
var ErrNoNodesAvailable = errors.New("no nodes available to schedule pods")

// Scheduler holds what persists between cycles: the rotating start index
// and the opportunistic batch.
type Scheduler struct {
	Framework *runtime.Framework
	// PercentageOfNodesToScore is the global setting (0: adaptive).
	PercentageOfNodesToScore int32
	nextStartNodeIndex       int
	batch                    opportunisticBatch
	signing                  cycleSignature
	ranking                  rankingAfter
	// selectHeap is host selection's storage, kept between cycles.
	selectHeap nodeScoreHeap
	// spareStatuses is the last successful cycle's NodeToStatus, which no
	// one else holds: only a FitError hands a cycle's map out. Reusing it
	// saves growing a map of every rejected node each cycle.
	spareStatuses *framework.NodeToStatus
	// feasibleBuf backs the feasible-node list, which no one keeps past
	// the cycle (the result holds names and totals only).
	feasibleBuf []*framework.NodeInfo
	// runBuf and statusBuf back a run of nodes filtered together and
	// their verdicts (passFiltersInRuns).
	runBuf    []*framework.NodeInfo
	statusBuf []*framework.Status
}

// ScheduleResult is a successful cycle's choice.
type ScheduleResult struct {
	SuggestedHost  string
	EvaluatedNodes int
	FeasibleNodes  int
	// TopScore is the chosen node's total score when more than one node
	// was feasible (Explain has every node's breakdown).
	TopScore int64
	// Nominated is set when the pod's nominated node passed and was taken unscored.
	Nominated bool
	// Tied names, sorted, the feasible nodes whose total equals TopScore
	// (at most MaxTiedNames of them, the first by name) when there are
	// several, and TiedCount counts them all: upstream pops the best of a
	// score heap built over the feasible nodes in the order its parallel
	// filter found them (ties carry no random key without extenders), so
	// the choice among them is not a decision a lesson may rest on.
	Tied      []string
	TiedCount int
	// Batched is set when the pod took the node its signature's batch
	// hinted (the next of the previous pod's ranking), searched no further.
	Batched bool
	// SearchStart is the index in the snapshot's node list where the node
	// search began (upstream's nextStartNodeIndex); the search walks
	// EvaluatedNodes nodes from there, wrapping around.
	SearchStart int
}

// SchedulePod runs one scheduling algorithm pass (PreFilter, Filter,
// PreScore, Score, selection) for pod against snapshot in cycle c. A
// *framework.FitError is returned when no node fits; PostFilter is the
// caller's business.
func (s *Scheduler) SchedulePod(c Cycle, state *framework.CycleState, pod *api.Pod, snapshot *framework.Snapshot) (ScheduleResult, error) {
	fwk := s.Framework
	fwk.SetSnapshot(snapshot)
	if snapshot.NumNodes() == 0 {
		return ScheduleResult{}, ErrNoNodesAvailable
	}
	s.signing = cycleSignature{pod: pod, fwk: fwk}
	sign := &s.signing
	start := s.nextStartNodeIndex
	feasible, diagnosis, via, err := s.findNodesThatFitPod(c, state, pod, snapshot, sign)
	if err != nil {
		return ScheduleResult{}, err
	}
	if len(feasible) == 0 {
		return ScheduleResult{}, &framework.FitError{Pod: pod, NumAllNodes: snapshot.NumNodes(), Diagnosis: diagnosis}
	}
	rejected := diagnosis.NodeToStatus.Len()
	s.spareStatuses = diagnosis.NodeToStatus
	if len(feasible) == 1 {
		// One feasible node is taken without scoring.
		node := feasible[0].Node().Name
		batched := c.Count > 0 && s.batch.store(c, via.hint, node, nil, sign)
		return ScheduleResult{SuggestedHost: node, EvaluatedNodes: 1 + rejected, FeasibleNodes: 1,
			Nominated: via.nominated, Batched: batched && !via.nominated, SearchStart: start}, nil
	}
	if st := fwk.RunPreScorePlugins(state, pod, feasible); !st.IsSuccess() {
		return ScheduleResult{}, st.AsError()
	}
	totals, st := fwk.RunScorePluginsTotals(state, pod, feasible)
	if !st.IsSuccess() {
		return ScheduleResult{}, st.AsError()
	}
	best := selectHostIndex(totals, &s.selectHeap)
	tied, count := tiedNodes(feasible, totals, totals[best])
	if c.Count > 0 {
		s.ranking = rankingAfter{feasible, s.selectHeap}
		s.batch.store(c, via.hint, feasible[best].Node().Name, &s.ranking, sign)
	}
	return ScheduleResult{
		SuggestedHost:  feasible[best].Node().Name,
		EvaluatedNodes: len(feasible) + rejected,
		FeasibleNodes:  len(feasible),
		TopScore:       totals[best],
		Tied:           tied,
		TiedCount:      count,
		SearchStart:    start,
	}, nil
}

// MaxTiedNames bounds the tied nodes a result names: on a large cluster of
// equal nodes nearly every binding ties among hundreds, and a list of them
// all per binding would cost more than the cycle.
const MaxTiedNames = 8

// tiedNodes counts the nodes whose total is top and names, sorted, the
// first MaxTiedNames of them by name, when more than one has it; nil and
// the count otherwise (the common case allocates nothing).
func tiedNodes(nodes []*framework.NodeInfo, totals []int64, top int64) ([]string, int) {
	// One pass counts the tied nodes and keeps the first MaxTiedNames of
	// them by name. The nodes are normally one snapshot's: their name
	// ranks order them as their names do, and compare as integers (string
	// comparison is a byte loop in WebAssembly, and nearly every node ties
	// on a cluster of equal nodes). Should one have no rank, the names are
	// sorted instead.
	var buf [MaxTiedNames]*framework.NodeInfo
	var ranks [MaxTiedNames]int
	first := buf[:0]
	n := 0
	ranked := true
	for i, t := range totals {
		if t != top {
			continue
		}
		n++
		ni := nodes[i]
		r := ni.NameRank()
		// Most tied nodes sort after the few kept: one comparison turns
		// them away.
		if r < 0 || len(first) == MaxTiedNames && r >= ranks[MaxTiedNames-1] {
			ranked = ranked && r >= 0
			continue
		}
		// Insertion among the few first by name seen so far, before any
		// of the same rank (the same node listed twice).
		j := len(first)
		for j > 0 && ranks[j-1] >= r {
			j--
		}
		if len(first) < MaxTiedNames {
			first = append(first, nil)
		}
		copy(first[j+1:], first[j:])
		copy(ranks[j+1:len(first)], ranks[j:len(first)-1])
		first[j], ranks[j] = ni, r
	}
	if n < 2 {
		return nil, n
	}
	if !ranked {
		return tiedByName(nodes, totals, top), n
	}
	out := make([]string, len(first))
	for i, ni := range first {
		out[i] = ni.Node().Name
	}
	return out, n
}

// tiedByName is tiedNodes' naming for nodes outside a snapshot: the tied
// names sorted, the first MaxTiedNames kept.
func tiedByName(nodes []*framework.NodeInfo, totals []int64, top int64) []string {
	var names []string
	for i, t := range totals {
		if t == top {
			names = append(names, nodes[i].Node().Name)
		}
	}
	sort.Strings(names)
	return names[:min(len(names), MaxTiedNames)]
}

// newNodeToStatus returns the spare map from the last successful cycle,
// emptied, or a new one.
func (s *Scheduler) newNodeToStatus() *framework.NodeToStatus {
	m := s.spareStatuses
	if m == nil {
		return framework.NewDefaultNodeToStatus()
	}
	s.spareStatuses = nil
	m.Reset()
	return m
}

// shortcut says how a cycle found its node without a search: the pod's
// nominated node, or the batch's hint (upstream's nodeHint), which is
// popped even when the nominated node is tried instead.
type shortcut struct {
	hint      string
	nominated bool
}

func (s *Scheduler) findNodesThatFitPod(c Cycle, state *framework.CycleState, pod *api.Pod, snapshot *framework.Snapshot, sign *cycleSignature) ([]*framework.NodeInfo, framework.Diagnosis, shortcut, error) {
	fwk := s.Framework
	diagnosis := framework.Diagnosis{NodeToStatus: s.newNodeToStatus()}
	allNodes := snapshot.List()
	preRes, st, unschedulablePlugins := fwk.RunPreFilterPlugins(state, pod)
	diagnosis.UnschedulablePlugins = unschedulablePlugins
	if !st.IsSuccess() {
		if !st.IsRejected() {
			return nil, diagnosis, shortcut{}, st.AsError()
		}
		// Every node gets the PreFilter status so preemption sees it.
		diagnosis.NodeToStatus.SetAbsentNodesStatus(st)
		diagnosis.PreFilterMsg = st.Message()
		diagnosis.AddPluginStatus(st)
		return nil, diagnosis, shortcut{}, nil
	}
	var via shortcut
	if c.Count > 0 {
		via.hint = s.batch.nodeHint(s.Framework, state, pod, snapshot, c, sign)
	}
	// A nominated node (set by an earlier preemption), else the hint, is
	// tried alone first (upstream evaluateNominatedNode).
	try := pod.Status.NominatedNodeName
	via.nominated = try != ""
	if try == "" {
		try = via.hint
	}
	if try != "" {
		if ni, err := snapshot.Get(try); err == nil {
			feasible, err := s.findNodesThatPassFilters(state, pod, &diagnosis, []*framework.NodeInfo{ni}, false)
			if err != nil {
				return nil, diagnosis, via, err
			}
			if len(feasible) > 0 {
				return feasible, diagnosis, via, nil
			}
		}
	}
	via.nominated = false
	nodes := allNodes
	if !preRes.AllNodes() {
		nodes = nil
		// Upstream ranges over a Go map here; listing in snapshot order keeps it deterministic.
		for _, ni := range allNodes {
			if preRes.NodeNames[ni.Node().Name] {
				nodes = append(nodes, ni)
			}
		}
		diagnosis.NodeToStatus.SetAbsentNodesStatus(framework.NewStatus(framework.UnschedulableAndUnresolvable,
			fmt.Sprintf("node(s) didn't satisfy plugin(s) %v", sortedKeys(unschedulablePlugins))))
	}
	feasible, err := s.findNodesThatPassFilters(state, pod, &diagnosis, nodes, true)
	processed := len(feasible) + diagnosis.NodeToStatus.Len()
	s.nextStartNodeIndex = (s.nextStartNodeIndex + processed) % len(allNodes)
	if err != nil {
		return nil, diagnosis, via, err
	}
	return feasible, diagnosis, via, nil
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// findNodesThatPassFilters filters nodes starting at the rotating index
// until it meets one feasible node more than numFeasibleNodesToFind, which
// it does not keep: upstream's checkNode cancels the search on that node
// (length > numNodesToFind) and drops it, so the nodes rejected before it
// are processed and move the next start index (findNodesThatPassFilters,
// pkg/scheduler/schedule_one.go, run with one worker).
func (s *Scheduler) findNodesThatPassFilters(state *framework.CycleState, pod *api.Pod, diagnosis *framework.Diagnosis, nodes []*framework.NodeInfo, rotate bool) ([]*framework.NodeInfo, error) {
	n := len(nodes)
	if n == 0 {
		return nil, nil
	}
	want := NumFeasibleNodesToFind(s.percentage(), int32(n))
	if !s.Framework.HasScorePlugins() {
		want = 1 // nothing to rank them by: the first feasible node will do
	}
	start := 0
	if rotate {
		start = s.nextStartNodeIndex
	}
	feasible := s.feasibleBuf[:0]
	if c := min(int(want), n); cap(feasible) < c {
		feasible = make([]*framework.NodeInfo, 0, c)
		s.feasibleBuf = feasible
	}
	if !s.Framework.HasFilterPlugins() {
		for i := 0; i < int(want); i++ {
			feasible = append(feasible, nodes[(start+i)%n])
		}
		return feasible, nil
	}
	t := &searchTally{feasible: feasible, want: want}
	// Nominations do not change during the search: without any, each node
	// is filtered once, directly.
	if s.Framework.NoNominatedPods() {
		return s.passFiltersInRuns(state, pod, diagnosis, t, nodes, start)
	}
	for i, at := 0, start%n; i < n; i++ {
		ni := nodes[at]
		if at++; at == n { // nodes[(start+i+1)%n] next, without dividing
			at = 0
		}
		if done, err := t.take(diagnosis, ni, s.Framework.RunFilterPluginsWithNominatedPods(state, pod, ni)); done {
			return t.feasible, err
		}
	}
	return t.feasible, nil
}

// searchTally is what a node search has found so far.
// (The diagnosis goes to take as an argument: held in a field, it would
// escape and cost an allocation per cycle.)
type searchTally struct {
	feasible []*framework.NodeInfo
	want     int32
	// A plugin may reject many nodes with one shared status; recording its
	// plugin again would change nothing.
	lastRecorded *framework.Status
}

// take counts one node's verdict, in the search's order. done: the search
// is over, at an Error (err) or at the (want+1)-th feasible node, which
// is not kept.
func (t *searchTally) take(diagnosis *framework.Diagnosis, ni *framework.NodeInfo, st *framework.Status) (done bool, err error) {
	if st.Code() == framework.Error {
		return true, st.AsError()
	}
	if st.IsSuccess() {
		if int32(len(t.feasible)) == t.want {
			return true, nil
		}
		t.feasible = append(t.feasible, ni)
		return false, nil
	}
	diagnosis.NodeToStatus.SetNodeInfo(ni, st)
	if st != t.lastRecorded {
		diagnosis.AddPluginStatus(st)
		t.lastRecorded = st
	}
	return false, nil
}

// passFiltersInRuns is findNodesThatPassFilters' loop when no node has
// nominated pods. It filters the nodes in runs, each run plugin by plugin
// (Framework.RunFilterPluginsNodes), then takes the run's verdicts in node
// order as the loop takes each node's. A run is as long as the number of
// feasible nodes that could still be met before the search stops (those
// still wanted and the one past them), so it filters exactly the nodes
// the loop would.
func (s *Scheduler) passFiltersInRuns(state *framework.CycleState, pod *api.Pod, diagnosis *framework.Diagnosis, t *searchTally, nodes []*framework.NodeInfo, start int) ([]*framework.NodeInfo, error) {
	n := len(nodes)
	for done, at := 0, start%n; done < n; {
		k := min(int(t.want)+1-len(t.feasible), n-done)
		run := s.runBuf[:0]
		for range k {
			run = append(run, nodes[at])
			if at++; at == n {
				at = 0
			}
		}
		statuses := s.statusBuf[:0]
		for range k {
			statuses = append(statuses, nil)
		}
		s.runBuf, s.statusBuf = run, statuses
		s.Framework.RunFilterPluginsNodes(state, pod, run, statuses)
		done += k
		statuses = statuses[:len(run)]
		for i, ni := range run {
			st := statuses[i]
			if st == nil {
				// take's success branch, without a call per feasible node
				// (a call costs several times more in WebAssembly).
				if int32(len(t.feasible)) == t.want {
					return t.feasible, nil
				}
				t.feasible = append(t.feasible, ni)
				continue
			}
			statuses[i] = nil // no status outlives the cycle here
			if over, err := t.take(diagnosis, ni, st); over {
				return t.feasible, err
			}
		}
	}
	return t.feasible, nil
}

func (s *Scheduler) percentage() *int32 {
	if p := s.Framework.PercentageOfNodesToScore(); p != nil {
		return p
	}
	v := s.PercentageOfNodesToScore
	return &v
}

// NumFeasibleNodesToFind is how many feasible nodes the search looks for:
// all below 100 nodes; otherwise the percentage (adaptive when 0:
// 50 - nodes/125, at least 5) of the nodes, at least 100.
func NumFeasibleNodesToFind(percentage *int32, numAllNodes int32) int32 {
	if numAllNodes < minFeasibleNodesToFind {
		return numAllNodes
	}
	var p int32
	if percentage != nil {
		p = *percentage
	}
	if p == 0 {
		p = 50 - numAllNodes/125
		if p < minFeasibleNodesPercentageToFind {
			p = minFeasibleNodesPercentageToFind
		}
	}
	num := numAllNodes * p / 100
	if num < minFeasibleNodesToFind {
		return minFeasibleNodesToFind
	}
	return num
}

// PrioritizeNodes runs PreScore and Score over the feasible nodes, with
// every plugin's share of each total.
func PrioritizeNodes(fwk *runtime.Framework, state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo) ([]runtime.NodePluginScores, error) {
	if st := fwk.RunPreScorePlugins(state, pod, nodes); !st.IsSuccess() {
		return nil, st.AsError()
	}
	scores, st := fwk.RunScorePlugins(state, pod, nodes)
	if !st.IsSuccess() {
		return nil, st.AsError()
	}
	return scores, nil
}

// SelectHost picks the top total as upstream's heap does. Without extenders
// every tie-breaker is 0, so among equal totals the heap's structure over
// the feasible-node order decides; upstream's parallel filtering makes that
// order vary between runs, which is why the contract treats ties as sets.
//
// The heap holds only totals and indexes: the same comparisons and swaps
// as a heap of the whole score records, so the same node comes out on top
// (Pop returns what Init left at the root), without copying the records.
func SelectHost(scores []runtime.NodePluginScores) string {
	totals := make([]int64, len(scores))
	for i := range scores {
		totals[i] = scores[i].TotalScore
	}
	return scores[selectHostIndex(totals, new(nodeScoreHeap))].Name
}

// selectHostIndex returns the index in totals of SelectHost's choice,
// building its heap in buf's storage.
func selectHostIndex(totals []int64, buf *nodeScoreHeap) int {
	h := (*buf)[:0]
	for i, t := range totals {
		h = append(h, totalAt{total: t, index: i})
	}
	*buf = h
	// container/heap's Init, with the comparisons inlined; its Pop would
	// return what Init leaves at the root.
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
	return h[0].index
}

type totalAt struct {
	total int64
	index int
}

// nodeScoreHeap is a max-heap of totals.
type nodeScoreHeap []totalAt

// down is container/heap's down: it sifts element i towards the leaves,
// preferring the right child only when it is strictly greater.
func (h nodeScoreHeap) down(i int) {
	n := len(h)
	for {
		j := 2*i + 1
		if j >= n || j < 0 { // j < 0 after int overflow
			return
		}
		if r := j + 1; r < n && h[r].total > h[j].total {
			j = r
		}
		if h[j].total <= h[i].total {
			return
		}
		h[i], h[j] = h[j], h[i]
		i = j
	}
}
