package engine

import (
	"fmt"
	"testing"

	"github.com/schedplay/schedplay/core/engine/enginetest"
	"github.com/schedplay/schedplay/core/plugins/podtopologyspread"
	"github.com/schedplay/schedplay/core/scenario"
)

// spreadScenarios are every example and generated spread scenarios.
func spreadScenarios(t *testing.T, generated int) map[string]*scenario.Scenario {
	t.Helper()
	out := map[string]*scenario.Scenario{}
	for name, text := range exampleTexts(t) {
		sc, err := scenario.Load(name, []byte(text))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = sc
	}
	for seed := range uint64(generated) {
		src := enginetest.SpreadScenario(seed)
		sc, err := scenario.Load("gen.yaml", []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		out[fmt.Sprintf("spread-gen-%d", seed)] = sc
	}
	return out
}

// SpreadAt at the moment each cycle began agrees with what that cycle's
// Filter decided (the explanation of the real cycle, replayed): a node
// PodTopologySpread rejected is not a fit, a feasible node is. And at
// every event, for every pending pod and node, the skews PreFilter's
// counts give (nominated pods counted as Filter counts them) agree with
// Filter's verdict.
func TestSpreadAtAgreesWithFilter(t *testing.T) {
	rejected, feasible, verdicts := 0, 0, 0
	for name, sc := range spreadScenarios(t, 30) {
		sim, err := Simulate(sc, Options{Seed: 1})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		last := len(sim.Trace()) - 1
		for seq := -1; seq <= last; seq++ {
			for _, p := range sim.StateAt(seq).Pods {
				if p.Phase != PhasePending {
					continue
				}
				v, err := sim.SpreadAt(p.Key, seq)
				if err != nil {
					t.Fatalf("%s: SpreadAt(%s, %d): %v", name, p.Key, seq, err)
				}
				if v == nil || len(v.Constraints) == 0 {
					continue
				}
				for _, n := range v.Nodes {
					if got := skewsFit(v.Constraints, n.Skews); got != n.Fits {
						t.Errorf("%s: after event %d, %s on %s: skews %+v say fit=%v, Filter says %v (%s)", name, seq, p.Key, n.Name, n.Skews, got, n.Fits, n.Reason)
					}
					verdicts++
				}
			}
		}
		for _, key := range sim.order {
			for number := range sim.Attempts(key, last) {
				a, err := sim.ExplainAttempt(key, last, number+1)
				if err != nil {
					t.Fatalf("%s: %s attempt %d: %v", name, key, number+1, err)
				}
				v, err := sim.SpreadAt(key, a.Before)
				if err != nil || v == nil {
					t.Fatalf("%s: SpreadAt(%s, %d) = %v, %v", name, key, a.Before, v, err)
				}
				if len(v.Constraints) == 0 {
					continue // the plugin skips the pod: it rejects no node
				}
				fits := map[string]bool{}
				for _, n := range v.Nodes {
					fits[n.Name] = n.Fits
				}
				for _, nr := range a.Explanation.Nodes {
					switch {
					case nr.Feasible && !fits[nr.Name]:
						t.Errorf("%s: %s cycle %d (after event %d): %s was feasible, the spread view rejects it", name, key, a.Number, a.Before, nr.Name)
					case nr.Plugin == podtopologyspread.Name && fits[nr.Name]:
						t.Errorf("%s: %s cycle %d (after event %d): PodTopologySpread rejected %s (%v), the spread view fits it", name, key, a.Number, a.Before, nr.Name, nr.Reasons)
					case nr.Feasible:
						feasible++
					case nr.Plugin == podtopologyspread.Name:
						rejected++
					}
				}
			}
		}
	}
	t.Logf("%d cycles' nodes rejected by PodTopologySpread and %d feasible agreed; %d verdicts matched their skews", rejected, feasible, verdicts)
	if rejected < 20 || feasible < 20 || verdicts < 200 {
		t.Errorf("too few checks: %d rejected, %d feasible, %d verdicts", rejected, feasible, verdicts)
	}
}

func skewsFit(cs []podtopologyspread.ConstraintReport, skews []NodeSkewAlias) bool {
	for i, c := range cs {
		if !skews[i].Has || skews[i].Skew > int(c.MaxSkew) {
			return false
		}
	}
	return true
}

// NodeSkewAlias keeps the helper's signature short.
type NodeSkewAlias = podtopologyspread.NodeSkew
