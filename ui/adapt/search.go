package adapt

import (
	"github.com/schedplay/schedplay/core/engine"
	"github.com/schedplay/schedplay/ui"
)

// SearchView is the canvas's picture of an explained cycle's node search
// (the engine's Explanation.Search), or nil when the cycle looked at every
// node.
func SearchView(a *engine.Attempt) *ui.SearchView {
	if a == nil || a.Explanation == nil || a.Explanation.Search == nil {
		return nil
	}
	ex := a.Explanation
	s := ex.Search
	v := &ui.SearchView{Pod: ex.Pod, Nodes: s.Nodes, Evaluated: s.Evaluated, Feasible: s.Feasible,
		Want: s.Want, Percentage: s.Percentage, Start: s.Start, StoppedOn: s.StoppedOn,
		NotEvaluated: make(map[string]bool, len(s.NotEvaluated)), CouldTake: len(s.CouldTake)}
	for _, n := range s.NotEvaluated {
		v.NotEvaluated[n] = true
	}
	if ex.Tie != nil {
		v.Tie = ex.Tie.Nodes
	}
	return v
}
