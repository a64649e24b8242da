// Package tainttoleration filters out nodes with NoSchedule/NoExecute taints
// the pod does not tolerate and prefers nodes with fewer intolerable
// PreferNoSchedule taints.
package tainttoleration

import (
	"fmt"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/plugins/helper"
	"github.com/schedplay/schedplay/core/plugins/names"
)

// Name is the plugin's name.
const Name = names.TaintToleration

const preScoreStateKey framework.StateKey = "PreScore" + Name

// Reasons, as upstream words them.
const (
	// ErrReasonNotMatch is upstream's exported reason; Filter no longer uses it.
	ErrReasonNotMatch = "node(s) had taints that the pod didn't tolerate"
	// ErrReasonUntolerated is what Filter returns since v1.34: it no longer
	// names the taint, so every node rejected for taints shares one reason.
	ErrReasonUntolerated = "node(s) had untolerated taint(s)"
)

// TaintToleration is the plugin.
type TaintToleration struct {
	handle framework.Handle
}

var (
	_ framework.FilterPlugin       = (*TaintToleration)(nil)
	_ framework.PreScorePlugin     = (*TaintToleration)(nil)
	_ framework.ScorePlugin        = (*TaintToleration)(nil)
	_ framework.ScoreExtensions    = (*TaintToleration)(nil)
	_ framework.NamelessNormalizer = (*TaintToleration)(nil)
	_ framework.BatchScorePlugin   = (*TaintToleration)(nil)
)

// New builds the plugin.
func New(_ any, h framework.Handle) (framework.Plugin, error) {
	return &TaintToleration{handle: h}, nil
}

// Name returns the plugin's name.
func (pl *TaintToleration) Name() string { return Name }

// doNotScheduleTaint selects the taints Filter looks at.
func doNotScheduleTaint(t *api.Taint) bool {
	return t.Effect == api.TaintEffectNoSchedule || t.Effect == api.TaintEffectNoExecute
}

// Filter rejects a node with an untolerated NoSchedule or NoExecute taint.
// Unresolvable: preemption cannot remove a taint.
func (pl *TaintToleration) Filter(_ *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	taints := nodeInfo.NodeSpec().Taints
	if len(taints) == 0 {
		return nil // most nodes: no call (calls are dear in WebAssembly)
	}
	if _, untolerated := api.FindMatchingUntoleratedTaint(taints, pod.Spec.Tolerations, doNotScheduleTaint); !untolerated {
		return nil
	}
	return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonUntolerated)
}

// FilterNodes is Filter over nodes (framework.BatchFilterPlugin).
func (pl *TaintToleration) FilterNodes(state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo, statuses []*framework.Status) {
	for i, ni := range nodes {
		if statuses[i] == nil && len(ni.NodeSpec().Taints) > 0 {
			if st := pl.Filter(state, pod, ni); !st.IsSuccess() {
				statuses[i] = st
			}
		}
	}
}

type preScoreState struct {
	tolerationsPreferNoSchedule []api.Toleration
}

// Clone shares the state: it is never modified after PreScore.
func (s *preScoreState) Clone() framework.StateData { return s }

// tolerationsPreferNoSchedule keeps the tolerations that can tolerate a
// PreferNoSchedule taint (those with that effect or with no effect).
func tolerationsPreferNoSchedule(tolerations []api.Toleration) []api.Toleration {
	var out []api.Toleration
	for _, t := range tolerations {
		if t.Effect == "" || t.Effect == api.TaintEffectPreferNoSchedule {
			out = append(out, t)
		}
	}
	return out
}

// PreScore records the pod's PreferNoSchedule tolerations. It never skips.
func (pl *TaintToleration) PreScore(state *framework.CycleState, pod *api.Pod, _ []*framework.NodeInfo) *framework.Status {
	state.Write(preScoreStateKey, &preScoreState{tolerationsPreferNoSchedule: tolerationsPreferNoSchedule(pod.Spec.Tolerations)})
	return nil
}

func getPreScoreState(state *framework.CycleState) (*preScoreState, error) {
	c, err := state.Read(preScoreStateKey)
	if err != nil {
		return nil, fmt.Errorf("failed to read %q from cycleState: %w", preScoreStateKey, err)
	}
	s, ok := c.(*preScoreState)
	if !ok {
		return nil, fmt.Errorf("%+v  convert to tainttoleration.preScoreState error", c)
	}
	return s, nil
}

// countIntolerablePreferNoSchedule counts the node's PreferNoSchedule taints
// none of the tolerations tolerates.
func countIntolerablePreferNoSchedule(taints []api.Taint, tolerations []api.Toleration) int64 {
	var n int64
	for i := range taints {
		if taints[i].Effect != api.TaintEffectPreferNoSchedule {
			continue
		}
		if !api.TolerationsTolerateTaint(tolerations, &taints[i]) {
			n++
		}
	}
	return n
}

// Score is the raw count of intolerable PreferNoSchedule taints; NormalizeScore
// turns fewer taints into a higher score.
func (pl *TaintToleration) Score(state *framework.CycleState, _ *api.Pod, nodeInfo *framework.NodeInfo) (int64, *framework.Status) {
	s, err := getPreScoreState(state)
	if err != nil {
		return 0, framework.AsStatus(err)
	}
	return countIntolerablePreferNoSchedule(nodeInfo.NodeSpec().Taints, s.tolerationsPreferNoSchedule), nil
}

// ScoreNodes is Score for every node, reading the state once.
func (pl *TaintToleration) ScoreNodes(state *framework.CycleState, _ *api.Pod, nodes []*framework.NodeInfo, scores framework.NodeScoreList) *framework.Status {
	if len(nodes) == 0 {
		return nil
	}
	s, err := getPreScoreState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	for i, ni := range nodes {
		// An untainted node counts 0 without the call.
		if taints := ni.NodeSpec().Taints; len(taints) == 0 {
			scores[i].Score = 0
		} else {
			scores[i].Score = countIntolerablePreferNoSchedule(taints, s.tolerationsPreferNoSchedule)
		}
	}
	return nil
}

// NormalizeScore scales to 0..100 and reverses, so the node with the most
// intolerable taints scores 0 and a node with none scores 100.
func (pl *TaintToleration) NormalizeScore(_ *framework.CycleState, _ *api.Pod, scores framework.NodeScoreList) *framework.Status {
	return helper.DefaultNormalizeScore(framework.MaxNodeScore, true, scores)
}

// ScoreExtensions returns the plugin itself.
func (pl *TaintToleration) ScoreExtensions() framework.ScoreExtensions { return pl }

// NormalizeIgnoresNames marks NormalizeScore as reading only the scores.
func (pl *TaintToleration) NormalizeIgnoresNames() {}

// SignPod: feasibility and scores depend on the pod's tolerations
// (upstream TaintToleration.SignPod).
func (pl *TaintToleration) SignPod(pod *api.Pod) ([]framework.SignFragment, *framework.Status) {
	return []framework.SignFragment{{Key: framework.TolerationsSignerName, Value: framework.TolerationsSigner(pod)}}, nil
}
