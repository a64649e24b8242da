// Package interpodaffinity implements the InterPodAffinity plugin: required
// pod affinity and anti-affinity (both the incoming pod's and, symmetrically,
// the existing pods' anti-affinity) at Filter, and preferred terms plus
// existing pods' required affinity at Score, as upstream v1.36 does.
package interpodaffinity

import (
	"fmt"
	"github.com/schedplay/schedplay/core/api"

	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/plugins/names"
)

// Name is the plugin's name in the registry and in configurations.
const Name = names.InterPodAffinity

// Bounds of args.hardPodAffinityWeight, as upstream's validation.
const (
	minHardPodAffinityWeight = 0
	maxHardPodAffinityWeight = 100
)

var (
	_ framework.PreFilterPlugin     = (*InterPodAffinity)(nil)
	_ framework.PreFilterExtensions = (*InterPodAffinity)(nil)
	_ framework.FilterPlugin        = (*InterPodAffinity)(nil)
	_ framework.PreScorePlugin      = (*InterPodAffinity)(nil)
	_ framework.ScorePlugin         = (*InterPodAffinity)(nil)
	_ framework.ScoreExtensions     = (*InterPodAffinity)(nil)
)

// InterPodAffinity checks inter-pod affinity and anti-affinity.
type InterPodAffinity struct {
	skip framework.SkipStatus // handed out for every Skip
	args config.InterPodAffinityArgs
	// handle is asked for the snapshot and cluster every cycle: the
	// framework swaps in a new snapshot per cycle.
	handle framework.Handle
}

// Name returns the plugin's name.
func (pl *InterPodAffinity) Name() string { return Name }

// New builds the plugin from *config.InterPodAffinityArgs.
func New(args any, h framework.Handle) (framework.Plugin, error) {
	if h.SnapshotSharedLister() == nil {
		return nil, fmt.Errorf("SnapshotSharedlister is nil")
	}
	a, err := getArgs(args)
	if err != nil {
		return nil, err
	}
	if w := a.HardPodAffinityWeight; w < minHardPodAffinityWeight || w > maxHardPodAffinityWeight {
		return nil, fmt.Errorf("hardPodAffinityWeight: Invalid value: %d: not in valid range [%d, %d]",
			w, minHardPodAffinityWeight, maxHardPodAffinityWeight)
	}
	return &InterPodAffinity{args: a, handle: h}, nil
}

func getArgs(obj any) (config.InterPodAffinityArgs, error) {
	switch a := obj.(type) {
	case *config.InterPodAffinityArgs:
		return *a, nil
	case config.InterPodAffinityArgs:
		return a, nil
	}
	return config.InterPodAffinityArgs{}, fmt.Errorf("want args to be of type InterPodAffinityArgs, got %T", obj)
}

// SignPod: a pod with (anti-)affinity terms depends on where other pods
// run and cannot be signed; otherwise its labels matter, since existing
// pods' terms may select it (upstream InterPodAffinity.SignPod).
func (pl *InterPodAffinity) SignPod(pod *api.Pod) ([]framework.SignFragment, *framework.Status) {
	if a := pod.Spec.Affinity; a != nil && (a.PodAffinity != nil || a.PodAntiAffinity != nil) {
		return nil, framework.NewStatus(framework.Unschedulable, "pods with InterPodAffinity are not signable")
	}
	if pl.args.IgnorePreferredTermsOfExistingPods {
		return nil, nil
	}
	return []framework.SignFragment{{Key: framework.LabelsSignerName, Value: pod.Labels}}, nil
}
