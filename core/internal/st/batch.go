package st

import (
	"fmt"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
)

// ScoreBothWays scores nodes with pl.Score one node at a time, and with
// pl's ScoreNodes over storage that holds stale scores, as the runtime's
// reused storage does. Tests compare the two lists: a BatchScorePlugin must
// return exactly what Score does. It fails if pl has no batch path, or if
// either way fails.
func ScoreBothWays(pl framework.ScorePlugin, state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo) (perNode, batch []int64, err error) {
	bp, ok := pl.(framework.BatchScorePlugin)
	if !ok {
		return nil, nil, fmt.Errorf("%s does not implement BatchScorePlugin", pl.Name())
	}
	for _, ni := range nodes {
		score, s := pl.Score(state, pod, ni)
		if !s.IsSuccess() {
			return nil, nil, fmt.Errorf("scoring %s: %w", ni.Node().Name, s.AsError())
		}
		perNode = append(perNode, score)
	}
	list := make(framework.NodeScoreList, len(nodes))
	for i := range list {
		list[i].Score = -7
	}
	if s := bp.ScoreNodes(state, pod, nodes, list); !s.IsSuccess() {
		return nil, nil, fmt.Errorf("scoring in one call: %w", s.AsError())
	}
	for _, ns := range list {
		batch = append(batch, ns.Score)
	}
	return perNode, batch, nil
}

// NormalizeBothWays normalizes a copy of scores as given and a copy with
// every name blanked. A NamelessNormalizer must give the same scores both
// ways; tests compare the two.
func NormalizeBothWays(ext framework.ScoreExtensions, state *framework.CycleState, pod *api.Pod, scores framework.NodeScoreList) (named, nameless []int64, err error) {
	run := func(blank bool) ([]int64, error) {
		list := append(framework.NodeScoreList(nil), scores...)
		for i := range list {
			if blank {
				list[i].Name = ""
			}
		}
		if s := ext.NormalizeScore(state, pod, list); !s.IsSuccess() {
			return nil, fmt.Errorf("normalizing: %w", s.AsError())
		}
		out := make([]int64, len(list))
		for i := range list {
			out[i] = list[i].Score
		}
		return out, nil
	}
	if named, err = run(false); err != nil {
		return nil, nil, err
	}
	nameless, err = run(true)
	return named, nameless, err
}
