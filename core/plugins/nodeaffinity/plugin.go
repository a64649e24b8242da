// Package nodeaffinity enforces a pod's spec.nodeSelector and required node
// affinity (plus the scheduler-enforced addedAffinity) and scores nodes by
// the pod's preferred node affinity terms.
package nodeaffinity

import (
	"fmt"
	"github.com/schedplay/schedplay/core/api"

	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/labels"
	"github.com/schedplay/schedplay/core/plugins/names"
)

// Name is the plugin's name.
const Name = names.NodeAffinity

const (
	preScoreStateKey  framework.StateKey = "PreScore" + Name
	preFilterStateKey framework.StateKey = "PreFilter" + Name
)

// Reasons, as upstream words them.
const (
	// ErrReasonPod is returned when the pod's nodeSelector or required node
	// affinity does not match the node.
	ErrReasonPod = "node(s) didn't match Pod's node affinity/selector"
	// ErrReasonEnforced is returned when the node fails the profile's
	// addedAffinity.
	ErrReasonEnforced = "node(s) didn't match scheduler-enforced node affinity"
	// ErrReasonConflict is returned by PreFilter when the metadata.name
	// matchFields of the required terms leave no node at all.
	ErrReasonConflict = "pod affinity terms conflict"
)

// NodeAffinity is the plugin.
type NodeAffinity struct {
	skip                framework.SkipStatus // handed out for every Skip
	handle              framework.Handle
	addedNodeSelector   *labels.NodeSelectorTerms
	addedPrefSchedTerms *preferredTerms
}

var (
	_ framework.PreFilterPlugin    = (*NodeAffinity)(nil)
	_ framework.FilterPlugin       = (*NodeAffinity)(nil)
	_ framework.PreScorePlugin     = (*NodeAffinity)(nil)
	_ framework.ScorePlugin        = (*NodeAffinity)(nil)
	_ framework.ScoreExtensions    = (*NodeAffinity)(nil)
	_ framework.NamelessNormalizer = (*NodeAffinity)(nil)
)

// New builds the plugin from *config.NodeAffinityArgs (nil means defaults).
func New(args any, h framework.Handle) (framework.Plugin, error) {
	pl := &NodeAffinity{handle: h}
	var a *config.NodeAffinityArgs
	switch v := args.(type) {
	case nil:
		return pl, nil
	case *config.NodeAffinityArgs:
		a = v
	default:
		return nil, fmt.Errorf("args are not of type NodeAffinityArgs, got %T", args)
	}
	if a == nil || a.AddedAffinity == nil {
		return pl, nil
	}
	if ns := a.AddedAffinity.RequiredDuringSchedulingIgnoredDuringExecution; ns != nil {
		pl.addedNodeSelector = labels.NewNodeSelector(ns)
	}
	if terms := a.AddedAffinity.PreferredDuringSchedulingIgnoredDuringExecution; len(terms) != 0 {
		pl.addedPrefSchedTerms = newPreferredTerms(terms)
	}
	return pl, nil
}

// Name returns the plugin's name.
func (pl *NodeAffinity) Name() string { return Name }

// SignPod: filtering and scoring depend on the node affinity and the node
// selector (upstream NodeAffinity.SignPod).
func (pl *NodeAffinity) SignPod(pod *api.Pod) ([]framework.SignFragment, *framework.Status) {
	aff, err := framework.NodeAffinitySigner(pod)
	if err != nil {
		return nil, framework.AsStatus(err)
	}
	return []framework.SignFragment{
		{Key: framework.NodeAffinitySignerName, Value: aff},
		{Key: framework.NodeSelectorSignerName, Value: pod.Spec.NodeSelector},
	}, nil
}
