// Package defaultpreemption implements the DefaultPreemption PostFilter
// plugin: when a pod fits nowhere, find a node where evicting
// lower-priority pods makes room, as upstream's plugin of the same name.
package defaultpreemption

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/plugins/names"
	"github.com/schedplay/schedplay/core/preemption"
	"github.com/schedplay/schedplay/core/scheduler"
)

// Name is the plugin's name in the registry and in configurations.
const Name = names.DefaultPreemption

// Eligibility messages, worded exactly as upstream.
const (
	MsgPreemptionPolicyNever  = "not eligible due to preemptionPolicy=Never."
	MsgTerminatingOnNominated = "not eligible due to a terminating pod on the nominated node."
)

// RandSource is implemented by a Handle that supplies the simulation's
// seeded random source; without one the plugin seeds its own.
type RandSource interface {
	Rand() *rand.Rand
}

// DefaultPreemption is the PostFilter plugin running the preemption evaluator.
type DefaultPreemption struct {
	fh        framework.Handle
	args      config.DefaultPreemptionArgs
	Evaluator *preemption.Evaluator
	// Rand draws the dry run's starting node (upstream: rand.Int31n).
	Rand *rand.Rand
}

var (
	_ framework.PostFilterPlugin    = (*DefaultPreemption)(nil)
	_ preemption.Interface          = (*DefaultPreemption)(nil)
	_ scheduler.PreemptionExplainer = (*DefaultPreemption)(nil)
)

// Name returns the plugin's name.
func (pl *DefaultPreemption) Name() string { return Name }

// New builds the plugin from *config.DefaultPreemptionArgs (already
// defaulted; nil means the v1 defaults).
func New(args any, h framework.Handle) (framework.Plugin, error) {
	var a config.DefaultPreemptionArgs
	switch v := args.(type) {
	case nil:
		config.SetDefaultArgs(&a)
	case *config.DefaultPreemptionArgs:
		if v == nil {
			config.SetDefaultArgs(&a)
		} else {
			a = *v
		}
	case config.DefaultPreemptionArgs:
		a = v
	default:
		return nil, fmt.Errorf("got args of type %T, want *DefaultPreemptionArgs", args)
	}
	if err := validateArgs(&a); err != nil {
		return nil, err
	}
	pl := &DefaultPreemption{fh: h, args: a}
	if rs, ok := h.(RandSource); ok {
		pl.Rand = rs.Rand()
	}
	if pl.Rand == nil {
		pl.Rand = rand.New(rand.NewPCG(0, 0))
	}
	pl.Evaluator = preemption.NewEvaluator(Name, h, pl)
	return pl, nil
}

// validateArgs words its errors as upstream's ValidateDefaultPreemptionArgs.
func validateArgs(a *config.DefaultPreemptionArgs) error {
	var errs []error
	if a.MinCandidateNodesPercentage < 0 || a.MinCandidateNodesPercentage > 100 {
		errs = append(errs, fmt.Errorf("minCandidateNodesPercentage: Invalid value: %d: not in valid range [0, 100]", a.MinCandidateNodesPercentage))
	}
	if a.MinCandidateNodesAbsolute < 0 {
		errs = append(errs, fmt.Errorf("minCandidateNodesAbsolute: Invalid value: %d: not in valid range [0, inf)", a.MinCandidateNodesAbsolute))
	}
	if a.MinCandidateNodesPercentage == 0 && a.MinCandidateNodesAbsolute == 0 {
		errs = append(errs,
			errors.New("minCandidateNodesPercentage: Invalid value: 0: cannot be zero at the same time as minCandidateNodesAbsolute"),
			errors.New("minCandidateNodesAbsolute: Invalid value: 0: cannot be zero at the same time as minCandidateNodesPercentage"))
	}
	return errors.Join(errs...)
}

// PostFilter runs preemption. On success the result nominates the chosen
// node and the Handle's PreemptionExecutor has the victims.
func (pl *DefaultPreemption) PostFilter(state *framework.CycleState, pod *api.Pod, m framework.NodeToStatusReader) (*framework.PostFilterResult, *framework.Status) {
	result, status := pl.Evaluator.Preempt(state, pod, m, pl.Rand)
	if msg := status.Message(); msg != "" {
		return result, framework.NewStatus(status.Code(), "preemption: "+msg)
	}
	return result, status
}

// calculateNumCandidates is the share of nodes the dry run wants as
// candidates, at least the absolute minimum and at most every node.
func (pl *DefaultPreemption) calculateNumCandidates(numNodes int32) int32 {
	n := numNodes * pl.args.MinCandidateNodesPercentage / 100
	n = max(n, pl.args.MinCandidateNodesAbsolute)
	return min(n, numNodes)
}

// GetOffsetAndNumCandidates draws a random starting node and sizes the dry run.
func (pl *DefaultPreemption) GetOffsetAndNumCandidates(rng *rand.Rand, numNodes int32) (int32, int32) {
	return rng.Int32N(numNodes), pl.calculateNumCandidates(numNodes)
}

// ExplainPreemption lays out the dry run over every potential node for
// `explain`; nil when the pod may not preempt.
func (pl *DefaultPreemption) ExplainPreemption(state *framework.CycleState, pod *api.Pod, m framework.NodeToStatusReader) (*scheduler.PreemptionExplanation, error) {
	ex, err := pl.Evaluator.Explain(state, pod, m)
	if err != nil {
		return nil, fmt.Errorf("explaining preemption of pod %s: %w", pod.Key(), err)
	}
	if !ex.Eligible {
		return nil, nil
	}
	out := &scheduler.PreemptionExplanation{Candidates: map[string]scheduler.Candidate{}, Nominated: []string{}, Criterion: string(ex.Criterion)}
	for _, c := range ex.Candidates {
		victims := make([]string, 0, len(c.Victims))
		for _, v := range c.Victims {
			victims = append(victims, v.Key())
		}
		out.Candidates[c.Name] = scheduler.Candidate{Victims: victims, PDBViolations: int(c.NumPDBViolations)}
	}
	out.Nominated = append(out.Nominated, ex.Best...)
	return out, nil
}
