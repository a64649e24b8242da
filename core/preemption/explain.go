package preemption

import (
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
)

// Explanation is preemption evaluated on every potential node, for a
// person: where the pod could go, at what cost, and why one node wins.
type Explanation struct {
	// Eligible is false when the pod may not preempt; Reason says why.
	Eligible bool
	Reason   string
	// Candidates are every node where preemption lets the pod fit, with
	// the victims upstream would pick there; PDB-respecting ones first.
	Candidates []*Candidate
	// NodeStatuses says why each other potential node is no candidate.
	NodeStatuses *framework.NodeToStatus
	// Best are the candidates that tie for best under the ordering, in
	// candidate order; upstream picks among them at random.
	Best []string
	// Criterion is what narrowed the candidates down to Best.
	Criterion Criterion
}

// Explain dry-runs preemption on all nodes whose filter verdict was
// Unschedulable, without sampling or a random offset, so the result
// depends only on the cluster.
func (ev *Evaluator) Explain(state *framework.CycleState, pod *api.Pod, m framework.NodeToStatusReader) (*Explanation, error) {
	if ok, msg := ev.PodEligibleToPreemptOthers(pod, m.Get(pod.Status.NominatedNodeName)); !ok {
		return &Explanation{Reason: msg}, nil
	}
	out := &Explanation{Eligible: true, NodeStatuses: framework.NewDefaultNodeToStatus()}
	potential, err := ev.potentialNodes(m)
	if err != nil {
		return nil, err
	}
	if len(potential) == 0 {
		return out, nil
	}
	// Asking for as many candidates as there are nodes means the dry run
	// never stops early.
	candidates, statuses, err := ev.DryRunPreemption(state, pod, potential, ev.pdbs(), 0, int32(len(potential)))
	if err != nil && len(candidates) == 0 {
		return nil, err
	}
	out.Candidates, out.NodeStatuses = candidates, statuses
	switch len(candidates) {
	case 0:
		out.Criterion = criterionNone
	case 1:
		out.Best, out.Criterion = []string{candidates[0].Name}, CriterionOnlyCandidate
	default:
		best, criterion := rankCandidates(candidates)
		for _, c := range best {
			out.Best = append(out.Best, c.Name)
		}
		out.Criterion = criterion
	}
	return out, nil
}
