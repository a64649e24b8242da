package scheduler

import (
	"sort"
	"strings"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/framework/runtime"
)

// Explanation is one cycle for one pod, laid out for people and for the
// conformance contract (`schedplay explain --output json`).
type Explanation struct {
	Pod      string       `json:"pod"`
	Nodes    []NodeResult `json:"nodes"`
	Selected []string     `json:"selected"`
	// Message is the FailedScheduling message when no node fits.
	Message    string                 `json:"message"`
	Preemption *PreemptionExplanation `json:"preemption"`
	// NominatedNode is set when the pod's nominated node passed the filters.
	NominatedNode string `json:"nominatedNode,omitempty"`
	// Weights are the score plugins' weights, for the readable report.
	Weights map[string]int `json:"weights,omitempty"`
	// Tie is set when several nodes share the top total (Selected lists
	// them): which one upstream takes depends on the order its parallel
	// filter found them in.
	Tie *Tie `json:"tie,omitempty"`
	// Search is set when the real cycle would leave nodes unlooked at.
	Search *SearchExplanation `json:"search,omitempty"`
	// Signature is set when the pod can be signed for opportunistic
	// batching (framework.SignPod).
	Signature string `json:"signature,omitempty"`
	// Skipped are the plugins that did nothing for this pod: their
	// PreFilter or PreScore returned Skip, so the cycle ran none of their
	// Filter or Score (upstream's skip sets). Nil when there are none.
	Skipped *Skipped `json:"skipped,omitempty"`
}

// Skipped lists, in profile order, the Filter plugins whose PreFilter
// returned Skip (CycleState.SkipFilterPlugins) and the Score plugins whose
// PreScore returned Skip (SkipScorePlugins). Score is empty when no node
// was feasible: PreScore never ran.
type Skipped struct {
	Filter []string `json:"filter,omitempty"`
	Score  []string `json:"score,omitempty"`
}

// Tie says which nodes share the top total, the total, and which of them
// the engine took: its host selection over this cycle's node order (a run
// replaces it with the node its cycle bound the pod to).
type Tie struct {
	Nodes []string `json:"nodes"`
	Score int64    `json:"score"`
	Taken string   `json:"taken"`
}

// SearchExplanation is the partial node search of a real cycle: from 100
// nodes upstream filters only until it has Want feasible nodes, starting
// where the previous cycle stopped (findNodesThatPassFilters). Explain
// filters every node; these are the ones the real cycle would have.
type SearchExplanation struct {
	// Nodes is how many nodes the search walks (after PreFilter).
	Nodes int `json:"nodes"`
	// Percentage is the percentageOfNodesToScore in force (0: adaptive).
	Percentage int32 `json:"percentage"`
	// Want is numFeasibleNodesToFind: the search stops on the feasible
	// node after that many.
	Want      int32  `json:"want"`
	Start     string `json:"start"`
	Evaluated int    `json:"evaluated"`
	Feasible  int    `json:"feasible"`
	// StoppedOn is the feasible node after the Want-th: filtered, found
	// feasible and dropped, which ends the search.
	StoppedOn string `json:"stoppedOn,omitempty"`
	// NotEvaluated are the nodes the search never reached, in the order
	// it would have.
	NotEvaluated []string `json:"notEvaluated"`
	// CouldTake, set when more nodes are feasible than Want, are the
	// feasible nodes a cycle with several workers (upstream's default
	// parallelism) could choose: its workers find Want feasible nodes in
	// an order that depends on timing, and a node wins when none of the
	// ones found scores higher, which is possible for a node that fewer
	// than feasible-Want+1 feasible nodes outscore. One worker always
	// finds the same ones (the engine's choice); this is the upper bound
	// over every order, sorted by name.
	CouldTake []string `json:"couldTake,omitempty"`
	// Found are the Want feasible nodes the search keeps, in the order it
	// finds them: the only nodes the real cycle scores.
	Found []string `json:"found"`
	// Selected are the found nodes with the top total when only they are
	// scored (plugins that normalize over the scored nodes may give them
	// other totals than the explanation's nodes, which are scored over
	// every feasible node); Score is that total and Taken the node the
	// cycle takes: the engine's host selection over them in the order
	// found, which is the node a run's cycle binds the pod to (upstream's
	// with one worker). The explanation's Selected stays the best over
	// every feasible node.
	Selected []string `json:"selected"`
	Score    int64    `json:"score"`
	Taken    string   `json:"taken"`
}

// Search is where a cycle's node search starts (upstream's
// nextStartNodeIndex) and the global percentageOfNodesToScore.
type Search struct {
	Start      int
	Percentage int32
}

// Search returns where this scheduler's next cycle would start searching.
func (s *Scheduler) Search() Search {
	return Search{Start: s.nextStartNodeIndex, Percentage: s.PercentageOfNodesToScore}
}

// explainSearch walks nodes as the real cycle would, over Explain's
// verdicts, and returns nil when it would keep every feasible node; found
// are the feasible nodes it keeps, in the order found.
func explainSearch(fwk *runtime.Framework, search Search, nodes []*framework.NodeInfo, feasible map[string]bool) (ex *SearchExplanation, found []*framework.NodeInfo) {
	n := len(nodes)
	pct := fwk.PercentageOfNodesToScore()
	if pct == nil {
		pct = &search.Percentage
	}
	want := NumFeasibleNodesToFind(pct, int32(n))
	if !fwk.HasScorePlugins() {
		want = 1
	}
	if n == 0 || int(want) >= n {
		return nil, nil
	}
	start := search.Start % n
	ex = &SearchExplanation{Nodes: n, Percentage: *pct, Want: want, Start: nodes[start].Node().Name,
		NotEvaluated: []string{}, Found: []string{}, Selected: []string{}}
	for i := 0; i < n; i++ {
		ni := nodes[(start+i)%n]
		name := ni.Node().Name
		switch {
		case ex.StoppedOn != "":
			ex.NotEvaluated = append(ex.NotEvaluated, name)
			continue
		case ex.Feasible == int(want) && feasible[name]:
			ex.StoppedOn = name
			continue
		}
		ex.Evaluated++
		if feasible[name] {
			ex.Feasible++
			ex.Found = append(ex.Found, name)
			found = append(found, ni)
		}
	}
	// Stopping on the last node still drops a feasible node.
	if ex.StoppedOn == "" {
		return nil, nil
	}
	return ex, found
}

// cycleChoice fills the search's Selected, Score and Taken: the real
// cycle's selection among the nodes it found (one is taken unscored).
func cycleChoice(fwk *runtime.Framework, state *framework.CycleState, pod *api.Pod, s *SearchExplanation, found []*framework.NodeInfo) error {
	if len(found) == 1 {
		s.Selected, s.Taken = []string{s.Found[0]}, s.Found[0]
		return nil
	}
	list, err := PrioritizeNodes(fwk, state, pod, found)
	if err != nil {
		return err
	}
	s.Taken = SelectHost(list)
	s.Score = -1
	for _, nps := range list {
		s.Score = max(s.Score, nps.TotalScore)
	}
	for _, nps := range list {
		if nps.TotalScore == s.Score {
			s.Selected = append(s.Selected, nps.Name)
		}
	}
	sort.Strings(s.Selected)
	return nil
}

// couldTake is SearchExplanation.CouldTake over the scored feasible
// nodes: a node whose total fewer than len(list)-want+1 nodes exceed can
// be the best of some want of them. Nil when every feasible node is found
// anyway (then only a tie leaves a choice).
func couldTake(list []runtime.NodePluginScores, want int) []string {
	if len(list) <= want {
		return nil
	}
	totals := make([]int64, len(list))
	for i, nps := range list {
		totals[i] = nps.TotalScore
	}
	sort.Slice(totals, func(i, j int) bool { return totals[i] > totals[j] })
	// The lowest total that can win: the one at rank len(list)-want, as
	// the nodes strictly above it number at most that many.
	floor := totals[len(list)-want]
	var out []string
	for _, nps := range list {
		if nps.TotalScore >= floor {
			out = append(out, nps.Name)
		}
	}
	sort.Strings(out)
	return out
}

// NodeResult is one node's verdict.
type NodeResult struct {
	Name     string   `json:"name"`
	Feasible bool     `json:"feasible"`
	Plugin   string   `json:"plugin,omitempty"`
	Reasons  []string `json:"reasons,omitempty"`
	Code     string   `json:"code,omitempty"`
	// Scores are each plugin's normalized score (after NormalizeScore,
	// before the weight).
	Scores map[string]int64 `json:"scores,omitempty"`
	// Raw are the scores as each plugin's Score returned them, before
	// NormalizeScore.
	Raw map[string]int64 `json:"raw,omitempty"`
	// Weighted are the normalized scores times the plugins' weights: the
	// addends of Total.
	Weighted map[string]int64 `json:"weighted,omitempty"`
	Total    *int64           `json:"total,omitempty"`
}

// PreemptionExplanation is DefaultPreemption's dry run over every node.
type PreemptionExplanation struct {
	Candidates map[string]Candidate `json:"candidates"`
	Nominated  []string             `json:"nominated"`
	// Criterion names the candidate-ordering rule that decided, for people.
	Criterion string `json:"criterion,omitempty"`
}

// Candidate is a node where preemption would let the pod fit.
type Candidate struct {
	Victims       []string `json:"victims"`
	PDBViolations int      `json:"pdbViolations"`
}

// PreemptionExplainer is implemented by a PostFilter plugin that can lay
// out its dry run over all nodes. It returns nil when the pod may not
// preempt (e.g. preemptionPolicy Never).
type PreemptionExplainer interface {
	ExplainPreemption(state *framework.CycleState, pod *api.Pod, m framework.NodeToStatusReader) (*PreemptionExplanation, error)
}

// Explain runs one cycle for pod against snapshot without changing anything.
// Unlike a real cycle it filters every node and scores every feasible node
// (even a single one), so the report is complete; the selection and the
// FailedScheduling message are what the real cycle would produce.
//
// search says where the real cycle's node search would start; Search and
// Signature report what the real cycle would not see.
func Explain(fwk *runtime.Framework, pod *api.Pod, snapshot *framework.Snapshot, search Search) (*Explanation, error) {
	fwk.SetSnapshot(snapshot)
	state := framework.NewCycleState()
	ex := &Explanation{Pod: pod.Key(), Selected: []string{}, Weights: map[string]int{}}
	for _, name := range fwk.PluginNames("Score") {
		ex.Weights[name] = fwk.ScoreWeight(name)
	}
	diagnosis := framework.Diagnosis{NodeToStatus: framework.NewDefaultNodeToStatus()}
	statuses := map[string]*framework.Status{}
	var feasible []*framework.NodeInfo

	preRes, st, unschedulablePlugins := fwk.RunPreFilterPlugins(state, pod)
	diagnosis.UnschedulablePlugins = unschedulablePlugins
	switch {
	case !st.IsSuccess() && !st.IsRejected():
		return nil, st.AsError()
	case !st.IsSuccess():
		diagnosis.NodeToStatus.SetAbsentNodesStatus(st)
		diagnosis.PreFilterMsg = st.Message()
		diagnosis.AddPluginStatus(st)
		for _, ni := range snapshot.List() {
			statuses[ni.Node().Name] = st
		}
	default:
		if !preRes.AllNodes() {
			absent := framework.NewStatus(framework.UnschedulableAndUnresolvable,
				"node(s) didn't satisfy plugin(s) "+bracketList(sortedKeys(unschedulablePlugins)))
			absent.WithPlugin(strings.Join(sortedKeys(unschedulablePlugins), ","))
			diagnosis.NodeToStatus.SetAbsentNodesStatus(absent)
		}
		for _, ni := range snapshot.List() {
			name := ni.Node().Name
			if !preRes.AllNodes() && !preRes.NodeNames[name] {
				statuses[name] = diagnosis.NodeToStatus.AbsentNodesStatus()
				continue
			}
			s := fwk.RunFilterPluginsWithNominatedPods(state, pod, ni)
			if s.Code() == framework.Error {
				return nil, s.AsError()
			}
			if s.IsSuccess() {
				feasible = append(feasible, ni)
				continue
			}
			statuses[name] = s
			diagnosis.NodeToStatus.Set(name, s)
			diagnosis.AddPluginStatus(s)
		}
	}

	var found []*framework.NodeInfo
	if st.IsSuccess() {
		ex.Skipped = &Skipped{Filter: skippedIn(fwk.PluginNames("Filter"), state.SkipFilterPlugins)}
		searched := snapshot.List()
		if !preRes.AllNodes() {
			searched = nil
			for _, ni := range snapshot.List() {
				if preRes.NodeNames[ni.Node().Name] {
					searched = append(searched, ni)
				}
			}
		}
		fits := make(map[string]bool, len(feasible))
		for _, ni := range feasible {
			fits[ni.Node().Name] = true
		}
		ex.Search, found = explainSearch(fwk, search, searched, fits)
	}
	ex.Signature, _ = fwk.SignPod(pod)

	scores := map[string]runtime.NodePluginScores{}
	if len(feasible) > 0 {
		list, err := PrioritizeNodes(fwk, state, pod, feasible)
		if err != nil {
			return nil, err
		}
		ex.Skipped.Score = skippedIn(fwk.PluginNames("Score"), state.SkipScorePlugins)
		var top int64 = -1
		for _, nps := range list {
			scores[nps.Name] = nps
			if nps.TotalScore > top {
				top = nps.TotalScore
			}
		}
		for _, nps := range list {
			if nps.TotalScore == top {
				ex.Selected = append(ex.Selected, nps.Name)
			}
		}
		if nnn := pod.Status.NominatedNodeName; nnn != "" {
			if _, ok := scores[nnn]; ok {
				ex.Selected = []string{nnn}
				ex.NominatedNode = nnn
			}
		}
		sort.Strings(ex.Selected)
		if ex.Search != nil {
			ex.Search.CouldTake = couldTake(list, int(ex.Search.Want))
			if ex.NominatedNode != "" {
				// Taken before any search (evaluateNominatedNode).
				ex.Search.Selected, ex.Search.Taken = []string{ex.NominatedNode}, ex.NominatedNode
			} else if err := cycleChoice(fwk, state.Clone(), pod, ex.Search, found); err != nil {
				return nil, err
			}
		}
		if len(ex.Selected) > 1 {
			ex.Tie = &Tie{Nodes: ex.Selected, Score: top, Taken: SelectHost(list)}
		}
	}

	for _, ni := range snapshot.List() {
		name := ni.Node().Name
		if nps, ok := scores[name]; ok {
			r := NodeResult{Name: name, Feasible: true, Scores: map[string]int64{}, Raw: map[string]int64{}, Weighted: map[string]int64{}}
			total := nps.TotalScore
			r.Total = &total
			for _, ps := range nps.Scores {
				r.Scores[ps.Name] = ps.Normalized
				r.Raw[ps.Name] = ps.Raw
				r.Weighted[ps.Name] = ps.Score
			}
			ex.Nodes = append(ex.Nodes, r)
			continue
		}
		s := statuses[name]
		ex.Nodes = append(ex.Nodes, NodeResult{Name: name, Plugin: s.Plugin(), Reasons: append([]string{}, s.Reasons()...), Code: s.Code().String()})
	}
	sort.Slice(ex.Nodes, func(i, j int) bool { return ex.Nodes[i].Name < ex.Nodes[j].Name })
	if ex.Skipped != nil && len(ex.Skipped.Filter) == 0 && len(ex.Skipped.Score) == 0 {
		ex.Skipped = nil
	}

	if len(feasible) == 0 {
		fitErr := &framework.FitError{Pod: pod, NumAllNodes: snapshot.NumNodes(), Diagnosis: diagnosis}
		if fwk.HasPostFilterPlugins() {
			_, pst := fwk.RunPostFilterPlugins(state.Clone(), pod, diagnosis.NodeToStatus)
			fitErr.Diagnosis.PostFilterMsg = pst.Message()
			for _, name := range fwk.PluginNames("PostFilter") {
				if pe, ok := fwk.Plugin(name).(PreemptionExplainer); ok {
					p, err := pe.ExplainPreemption(state.Clone(), pod, diagnosis.NodeToStatus)
					if err != nil {
						return nil, err
					}
					ex.Preemption = p
				}
			}
		}
		ex.Message = fitErr.Error()
	}
	return ex, nil
}

// skippedIn returns the names in skip, in the order of names (a profile's
// plugins at one extension point).
func skippedIn(names []string, skip map[string]bool) []string {
	var out []string
	for _, n := range names {
		if skip[n] {
			out = append(out, n)
		}
	}
	return out
}

func bracketList(names []string) string { return "[" + strings.Join(names, " ") + "]" }
