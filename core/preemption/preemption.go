// Package preemption is the preemption evaluator of upstream's
// pkg/scheduler/framework/preemption: find nodes where evicting
// lower-priority pods lets the preemptor fit, pick the best, and have the
// Handle's PreemptionExecutor carry it out (the simulation engine
// implements it: deleting victims, clearing nominations).
package preemption

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
)

// Upstream's messages.
const (
	MsgNotHelpful      = "Preemption is not helpful for scheduling"
	MsgNoCandidateNode = "no candidate node for preemption"
)

// Interface is what a preemption plugin decides; the Evaluator does the rest.
type Interface interface {
	// GetOffsetAndNumCandidates picks where the dry run starts among
	// numNodes potential nodes and how many candidates it looks for.
	GetOffsetAndNumCandidates(rng *rand.Rand, numNodes int32) (offset, numCandidates int32)
	// PodEligibleToPreemptOthers says whether pod may preempt at all, and why not.
	PodEligibleToPreemptOthers(pod *api.Pod, nominatedNodeStatus *framework.Status) (bool, string)
	// SelectVictimsOnNode finds the fewest pods to evict from nodeInfo so
	// pod fits; state and nodeInfo are copies it may change.
	SelectVictimsOnNode(state *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo, pdbs []*api.PodDisruptionBudget) ([]*api.Pod, int, *framework.Status)
}

// Evaluator runs preemption with a plugin's Interface.
type Evaluator struct {
	PluginName string
	Handler    framework.Handle
	Interface
}

// NewEvaluator returns an evaluator for the named plugin.
func NewEvaluator(pluginName string, h framework.Handle, i Interface) *Evaluator {
	return &Evaluator{PluginName: pluginName, Handler: h, Interface: i}
}

// Preempt looks for a node on which evicting lower-priority pods lets pod
// fit. Like upstream's Evaluator.Preempt it returns
//   - nil result and Unschedulable when pod may not preempt,
//   - a result clearing the nomination and Unschedulable with the FitError
//     message when no node would help,
//   - a result nominating the chosen node and Success, once the Handle's
//     PreemptionExecutor took the victims (step 5, "actuate the preemption").
//
// rng draws the dry run's starting offset, as upstream's rand.Int31n.
func (ev *Evaluator) Preempt(state *framework.CycleState, pod *api.Pod, m framework.NodeToStatusReader, rng *rand.Rand) (*framework.PostFilterResult, *framework.Status) {
	if ok, msg := ev.PodEligibleToPreemptOthers(pod, m.Get(pod.Status.NominatedNodeName)); !ok {
		return nil, framework.NewStatus(framework.Unschedulable, msg)
	}

	allNodes := ev.Handler.SnapshotSharedLister().NodeInfos().List()
	candidates, nodeToStatus, err := ev.findCandidates(state, allNodes, pod, m, rng)
	if err != nil && len(candidates) == 0 {
		return nil, framework.AsStatus(err)
	}
	if len(candidates) == 0 {
		fitErr := &framework.FitError{Pod: pod, NumAllNodes: len(allNodes), Diagnosis: framework.Diagnosis{NodeToStatus: nodeToStatus}}
		fitErr.Diagnosis.NodeToStatus.SetAbsentNodesStatus(framework.NewStatus(framework.UnschedulableAndUnresolvable, MsgNotHelpful))
		// The empty nomination clears one the pod may still carry.
		return NewPostFilterResultWithNominatedNode(""), framework.NewStatus(framework.Unschedulable, fitErr.Error())
	}

	best := SelectCandidate(candidates)
	if best == nil || best.Name == "" {
		return nil, framework.NewStatus(framework.Unschedulable, MsgNoCandidateNode)
	}
	if x := ev.Handler.PreemptionExecutor(); x != nil {
		victims := &framework.Victims{Pods: best.Victims, NumPDBViolations: best.NumPDBViolations}
		if st := x.ActuatePodPreemption(best.Name, victims, pod, ev.PluginName); !st.IsSuccess() {
			return nil, st
		}
	}
	return NewPostFilterResultWithNominatedNode(best.Name), framework.NewStatus(framework.Success)
}

// findCandidates dry-runs preemption on the nodes whose filter verdict was
// Unschedulable: an UnschedulableAndUnresolvable node stays infeasible
// whatever is evicted.
func (ev *Evaluator) findCandidates(state *framework.CycleState, allNodes []*framework.NodeInfo, pod *api.Pod, m framework.NodeToStatusReader, rng *rand.Rand) ([]*Candidate, *framework.NodeToStatus, error) {
	if len(allNodes) == 0 {
		return nil, nil, errors.New("no nodes available")
	}
	potentialNodes, err := ev.potentialNodes(m)
	if err != nil {
		return nil, nil, err
	}
	if len(potentialNodes) == 0 {
		return nil, framework.NewDefaultNodeToStatus(), nil
	}
	offset, numCandidates := ev.GetOffsetAndNumCandidates(rng, int32(len(potentialNodes)))
	return ev.DryRunPreemption(state, pod, potentialNodes, ev.pdbs(), offset, numCandidates)
}

// potentialNodes lists, in snapshot order, the nodes preemption might help.
func (ev *Evaluator) potentialNodes(m framework.NodeToStatusReader) ([]*framework.NodeInfo, error) {
	nodes, err := m.NodesForStatusCode(ev.Handler.SnapshotSharedLister().NodeInfos(), framework.Unschedulable)
	if err != nil {
		return nil, fmt.Errorf("listing nodes where preemption might help: %w", err)
	}
	return nodes, nil
}

func (ev *Evaluator) pdbs() []*api.PodDisruptionBudget {
	if c := ev.Handler.Cluster(); c != nil {
		return c.PodDisruptionBudgets()
	}
	return nil
}

// DryRunPreemption tries potential nodes in a circle starting at offset
// and stops once it holds numCandidates candidates of which at least one
// violates no PDB. Upstream checks nodes in parallel and cancels at that
// point; checking them in order is one of the outcomes it allows.
// Candidates that violate no PDB come first. The returned map holds the
// status of every node that was checked and is not a candidate.
func (ev *Evaluator) DryRunPreemption(state *framework.CycleState, pod *api.Pod, potentialNodes []*framework.NodeInfo,
	pdbs []*api.PodDisruptionBudget, offset, numCandidates int32) ([]*Candidate, *framework.NodeToStatus, error) {
	nonViolating := newCandidateList(numCandidates)
	violating := newCandidateList(numCandidates)
	statuses := framework.NewDefaultNodeToStatus()
	var errs []error
	for i := range potentialNodes {
		nodeInfo := potentialNodes[(int(offset)+i)%len(potentialNodes)].Clone()
		name := nodeInfo.Node().Name
		victims, numViolations, status := ev.SelectVictimsOnNode(state.Clone(), pod, nodeInfo, pdbs)
		if status.IsSuccess() && len(victims) != 0 {
			c := &Candidate{Name: name, Victims: victims, NumPDBViolations: int64(numViolations)}
			if numViolations == 0 {
				nonViolating.add(c)
			} else {
				violating.add(c)
			}
			if nv := nonViolating.size(); nv > 0 && nv+violating.size() >= numCandidates {
				break
			}
			continue
		}
		if status.IsSuccess() {
			status = framework.AsStatus(fmt.Errorf("expected at least one victim pod on node %q", name))
		}
		if status.Code() == framework.Error {
			errs = append(errs, status.AsError())
		}
		statuses.Set(name, status)
	}
	return append(nonViolating.items, violating.items...), statuses, aggregate(errs)
}

// aggregate joins errors as apimachinery's utilerrors.NewAggregate prints
// them: one message as is, several deduplicated inside brackets.
func aggregate(errs []error) error {
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	seen := map[string]bool{}
	var msgs []string
	for _, e := range errs {
		if m := e.Error(); !seen[m] {
			seen[m] = true
			msgs = append(msgs, m)
		}
	}
	if len(msgs) == 1 {
		return errors.New(msgs[0])
	}
	return errors.New("[" + strings.Join(msgs, ", ") + "]")
}

// SelectCandidate picks the best candidate: a lone candidate as is,
// otherwise the first that survives every criterion of the ordering.
func SelectCandidate(candidates []*Candidate) *Candidate {
	switch len(candidates) {
	case 0:
		return nil
	case 1:
		return candidates[0]
	}
	best, _ := rankCandidates(candidates)
	return best[0]
}

// Criterion names what decided between candidates.
type Criterion string

// The ordering's criteria, in upstream's order, and the outcomes besides them.
const (
	CriterionFewestPDBViolations Criterion = "fewest PDB violations"
	CriterionLowestHighestVictim Criterion = "lowest highest-priority victim"
	CriterionLowestPrioritySum   Criterion = "lowest sum of victim priorities"
	CriterionFewestVictims       Criterion = "fewest victims"
	CriterionLatestStartTime     Criterion = "latest start time of the highest-priority victims"
	CriterionTie                 Criterion = "tie"
	CriterionOnlyCandidate       Criterion = "only candidate"
	criterionNone                Criterion = ""
	priorityOffset                         = int64(math.MaxInt32) + 1
	numCriteria                            = 5
)

var criteria = [numCriteria]Criterion{
	CriterionFewestPDBViolations, CriterionLowestHighestVictim, CriterionLowestPrioritySum,
	CriterionFewestVictims, CriterionLatestStartTime,
}

// score rates a candidate under criterion i; higher is better.
func score(i int, c *Candidate) int64 {
	switch i {
	case 0:
		return -c.NumPDBViolations
	case 1:
		// Victims are sorted, so the first has the highest priority.
		return -int64(c.Victims[0].PriorityValue())
	case 2:
		// Shifting every priority to >= 0 keeps a node with a few
		// negative-priority victims from beating one with fewer.
		var sum int64
		for _, p := range c.Victims {
			sum += int64(p.PriorityValue()) + priorityOffset
		}
		return -sum
	case 3:
		return -int64(len(c.Victims))
	default:
		return earliestStartOfHighestPriority(c.Victims)
	}
}

// rankCandidates applies upstream's pickOneNodeForPreemption criteria in
// order, keeping the candidates with the best score, and stops at the
// first criterion that leaves one. It returns the survivors (in input
// order) and the deciding criterion, or CriterionTie when several remain.
func rankCandidates(candidates []*Candidate) ([]*Candidate, Criterion) {
	remaining := candidates
	for i := range numCriteria {
		var best []*Candidate
		maxScore := int64(math.MinInt64)
		for _, c := range remaining {
			s := score(i, c)
			if s > maxScore {
				maxScore = s
				best = best[:0:0]
			}
			if s == maxScore {
				best = append(best, c)
			}
		}
		if len(best) == 1 {
			return best, criteria[i]
		}
		remaining = best
	}
	return remaining, CriterionTie
}
