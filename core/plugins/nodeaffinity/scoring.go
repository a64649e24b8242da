package nodeaffinity

import (
	"fmt"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/labels"
	"github.com/schedplay/schedplay/core/plugins/helper"
)

type preferredTerm struct {
	selector *labels.NodeSelectorTerms
	weight   int64
}

// preferredTerms is a compiled list of weighted node selector terms.
type preferredTerms struct {
	terms []preferredTerm
}

// newPreferredTerms compiles terms, dropping those with weight 0 or with
// neither expressions nor fields, which upstream ignores.
func newPreferredTerms(terms []api.PreferredSchedulingTerm) *preferredTerms {
	out := &preferredTerms{}
	for _, t := range terms {
		if t.Weight == 0 || (len(t.Preference.MatchExpressions) == 0 && len(t.Preference.MatchFields) == 0) {
			continue
		}
		sel := labels.NewNodeSelector(&api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{t.Preference}})
		out.terms = append(out.terms, preferredTerm{selector: sel, weight: int64(t.Weight)})
	}
	return out
}

// score sums the weights of the terms node matches.
func (p *preferredTerms) score(node *api.Node) int64 {
	var s int64
	for _, t := range p.terms {
		if t.selector.Match(node) {
			s += t.weight
		}
	}
	return s
}

type preScoreState struct {
	preferredNodeAffinity *preferredTerms
}

// Clone shares the state: it is never modified after PreScore.
func (s *preScoreState) Clone() framework.StateData { return s }

// podPreferredTerms is nil only when the pod's preferred list is nil; an
// empty list still scores (every node 0), as upstream.
func podPreferredTerms(pod *api.Pod) *preferredTerms {
	a := pod.Spec.Affinity
	if a != nil && a.NodeAffinity != nil && a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution != nil {
		return newPreferredTerms(a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution)
	}
	return nil
}

// PreScore skips scoring when neither the pod nor addedAffinity has
// preferred terms.
func (pl *NodeAffinity) PreScore(state *framework.CycleState, pod *api.Pod, _ []*framework.NodeInfo) *framework.Status {
	pref := podPreferredTerms(pod)
	if pref == nil && pl.addedPrefSchedTerms == nil {
		return pl.skip.Get()
	}
	state.Write(preScoreStateKey, &preScoreState{preferredNodeAffinity: pref})
	return nil
}

func getPreScoreState(state *framework.CycleState) (*preScoreState, error) {
	c, err := state.Read(preScoreStateKey)
	if err != nil {
		return nil, fmt.Errorf("reading %q from cycleState: %w", preScoreStateKey, err)
	}
	s, ok := c.(*preScoreState)
	if !ok {
		return nil, fmt.Errorf("invalid PreScore state, got type %T", c)
	}
	return s, nil
}

// Score sums the weights of the matching addedAffinity and pod terms.
func (pl *NodeAffinity) Score(state *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) (int64, *framework.Status) {
	node := nodeInfo.Node()
	var count int64
	if pl.addedPrefSchedTerms != nil {
		count += pl.addedPrefSchedTerms.score(node)
	}
	s, err := getPreScoreState(state)
	if err != nil {
		// Without PreScore (e.g. called directly), compile the terms here.
		s = &preScoreState{preferredNodeAffinity: podPreferredTerms(pod)}
	}
	if s.preferredNodeAffinity != nil {
		count += s.preferredNodeAffinity.score(node)
	}
	return count, nil
}

// NormalizeScore scales the sums to 0..100, the best node getting 100.
func (pl *NodeAffinity) NormalizeScore(_ *framework.CycleState, _ *api.Pod, scores framework.NodeScoreList) *framework.Status {
	return helper.DefaultNormalizeScore(framework.MaxNodeScore, false, scores)
}

// ScoreExtensions returns the plugin itself.
func (pl *NodeAffinity) ScoreExtensions() framework.ScoreExtensions { return pl }

// NormalizeIgnoresNames marks NormalizeScore as reading only the scores.
func (pl *NodeAffinity) NormalizeIgnoresNames() {}
