// Package podtopologyspread implements the PodTopologySpread plugin: it
// filters out nodes that would break a pod's DoNotSchedule spread
// constraints and prefers nodes that keep ScheduleAnyway constraints (or
// the cluster's default constraints) balanced, as upstream's plugin of the
// same name.
package podtopologyspread

import (
	"fmt"
	"strings"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/plugins/names"
)

// Name is the plugin's name in the registry and in configurations.
const Name = names.PodTopologySpread

// Filter reasons, worded exactly as upstream.
const (
	// ErrReasonConstraintsNotMatch rejects a node whose domain would be too skewed.
	ErrReasonConstraintsNotMatch = "node(s) didn't match pod topology spread constraints"
	// ErrReasonNodeLabelNotMatch rejects a node lacking a constraint's topology key.
	ErrReasonNodeLabelNotMatch = ErrReasonConstraintsNotMatch + " (missing required label)"
)

// systemDefaultConstraints apply, with the pod's workload selector, to pods
// without constraints when the defaulting type is System.
var systemDefaultConstraints = []api.TopologySpreadConstraint{
	{TopologyKey: api.LabelHostname, WhenUnsatisfiable: api.ScheduleAnyway, MaxSkew: 3},
	{TopologyKey: api.LabelTopologyZone, WhenUnsatisfiable: api.ScheduleAnyway, MaxSkew: 5},
}

// PodTopologySpread spreads pods over topology domains.
//
// The v1.36 feature gates it depends on are fixed at their defaults:
// NodeInclusionPolicyInPodTopologySpread (GA, locked on) and
// MatchLabelKeysInPodTopologySpread (beta, on) are honoured;
// TaintTolerationComparisonOperators (alpha, off) is not.
type PodTopologySpread struct {
	skip               framework.SkipStatus // handed out for every Skip
	systemDefaulted    bool
	defaultConstraints []api.TopologySpreadConstraint
	handle             framework.Handle
	// counts keeps per-domain pod counts between cycles (see counts.go).
	counts countCache
	// Filter's two rejections, made once and shared by every node they
	// reject: with maxSkew over a few zones most nodes fail, and a fresh
	// Status each was most of a cycle's garbage. Nothing changes a filter
	// status after the runtime names its plugin (always this one), so
	// sharing is invisible to preemption, FitError and explain.
	rejectLabel, rejectSkew *framework.Status
	// lastState and lastPreFilter are the cycle state PreFilter last wrote
	// to and what it wrote, so that Filter, which runs for thousands of
	// nodes, reads it without a CycleState lookup. Only PreFilter writes
	// this key, and holding the pointer keeps it from being reused; a
	// clone (preemption, nominated pods) is another pointer and is read.
	lastState     *framework.CycleState
	lastPreFilter *preFilterState
}

var (
	_ framework.PreFilterPlugin     = (*PodTopologySpread)(nil)
	_ framework.PreFilterExtensions = (*PodTopologySpread)(nil)
	_ framework.FilterPlugin        = (*PodTopologySpread)(nil)
	_ framework.PreScorePlugin      = (*PodTopologySpread)(nil)
	_ framework.ScorePlugin         = (*PodTopologySpread)(nil)
	_ framework.ScoreExtensions     = (*PodTopologySpread)(nil)
	_ framework.BatchScorePlugin    = (*PodTopologySpread)(nil)
)

// Name returns the plugin's name.
func (pl *PodTopologySpread) Name() string { return Name }

// New builds the plugin from *config.PodTopologySpreadArgs (already
// defaulted; nil means the v1 defaults).
func New(args any, h framework.Handle) (framework.Plugin, error) {
	if h == nil || h.SnapshotSharedLister() == nil {
		return nil, fmt.Errorf("SnapshotSharedlister is nil")
	}
	var a config.PodTopologySpreadArgs
	switch v := args.(type) {
	case nil:
		config.SetDefaultArgs(&a)
	case *config.PodTopologySpreadArgs:
		a = *v
	case config.PodTopologySpreadArgs:
		a = v
	default:
		return nil, fmt.Errorf("want args to be of type PodTopologySpreadArgs, got %T", args)
	}
	if err := validateArgs(&a); err != nil {
		return nil, err
	}
	pl := &PodTopologySpread{
		defaultConstraints: a.DefaultConstraints,
		handle:             h,
		rejectLabel:        framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonNodeLabelNotMatch),
		rejectSkew:         framework.NewStatus(framework.Unschedulable, ErrReasonConstraintsNotMatch),
	}
	if a.DefaultingType == config.SystemDefaulting {
		pl.defaultConstraints = systemDefaultConstraints
		pl.systemDefaulted = true
	}
	return pl, nil
}

// validateArgs checks the rules of upstream's ValidatePodTopologySpreadArgs,
// joining the field errors the way an aggregate error prints them.
func validateArgs(a *config.PodTopologySpreadArgs) error {
	var errs []string
	switch a.DefaultingType {
	case config.SystemDefaulting:
		if len(a.DefaultConstraints) > 0 {
			errs = append(errs, fmt.Sprintf("defaultingType: Invalid value: %q: when .defaultConstraints are not empty", a.DefaultingType))
		}
	case config.ListDefaulting:
	default:
		errs = append(errs, fmt.Sprintf("defaultingType: Unsupported value: %q: supported values: \"System\", \"List\"", a.DefaultingType))
	}
	for i, c := range a.DefaultConstraints {
		p := fmt.Sprintf("defaultConstraints[%d]", i)
		if c.MaxSkew <= 0 {
			errs = append(errs, fmt.Sprintf("%s.maxSkew: Invalid value: %d: not in valid range (0, inf)", p, c.MaxSkew))
		}
		if c.TopologyKey == "" {
			errs = append(errs, p+".topologyKey: Required value: can not be empty")
		}
		switch c.WhenUnsatisfiable {
		case api.DoNotSchedule, api.ScheduleAnyway:
		case "":
			errs = append(errs, p+".whenUnsatisfiable: Required value: can not be empty")
		default:
			errs = append(errs, fmt.Sprintf("%s.whenUnsatisfiable: Unsupported value: %q: supported values: \"DoNotSchedule\", \"ScheduleAnyway\"", p, c.WhenUnsatisfiable))
		}
		if c.LabelSelector != nil {
			errs = append(errs, p+".labelSelector: Forbidden: constraint must not define a selector, as they deduced for each pod")
		}
		for j := 0; j < i; j++ {
			o := a.DefaultConstraints[j]
			if o.TopologyKey == c.TopologyKey && o.WhenUnsatisfiable == c.WhenUnsatisfiable {
				errs = append(errs, fmt.Sprintf("defaultConstraints[%d]: Duplicate value: \"{%s, %s}\"", i, c.TopologyKey, c.WhenUnsatisfiable))
				break
			}
		}
	}
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("validating PodTopologySpread args: %s", errs[0])
	}
	return fmt.Errorf("validating PodTopologySpread args: [%s]", strings.Join(errs, ", "))
}

// SignPod: spreading depends on where other pods run, so a pod with
// constraints, its own or the default ones, cannot be signed (upstream
// PodTopologySpread.SignPod).
func (pl *PodTopologySpread) SignPod(pod *api.Pod) ([]framework.SignFragment, *framework.Status) {
	if len(pod.Spec.TopologySpreadConstraints) > 0 {
		return nil, unsignableOwn
	}
	if len(pl.defaultConstraints) > 0 {
		return nil, unsignableDefault
	}
	return nil, nil
}

// SignPod's refusals, shared: with the system defaults every pod is
// refused, every cycle, and only the runtime names the plugin on them.
var (
	unsignableOwn     = framework.NewStatus(framework.Unschedulable, "pods with topology constraints are not signable")
	unsignableDefault = framework.NewStatus(framework.Unschedulable, "pods with default topology constraints are not signable")
)
