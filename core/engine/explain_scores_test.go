package engine

import (
	"os"
	"slices"
	"testing"

	"github.com/schedplay/schedplay/core/scenario"
	"github.com/schedplay/schedplay/core/scheduler"
)

// Explain reports every plugin's score at each of upstream's three steps
// (runScorePlugins): what Score returned, what NormalizeScore made of it,
// and that times the weight, the addends of the total. The expected
// values are worked out from upstream's formulas in the comments, for
// plugins whose normalization changes the value and one without any.
func TestExplainRawNormalizedWeighted(t *testing.T) {
	ex := explainFixture(t, "default/web")
	type steps struct{ raw, normalized, weighted int64 }
	want := map[string]map[string]steps{
		// PreferNoSchedule taints the pod does not tolerate: 2, 1, 0;
		// reversed DefaultNormalizeScore 100-100*s/2; weight 3.
		"TaintToleration": {"node-a": {2, 0, 0}, "node-b": {1, 50, 150}, "node-c": {0, 100, 300}},
		// Preferred terms disk=ssd (5) and gpu=yes (3): 8, 5, 0;
		// DefaultNormalizeScore 100*s/8 (62.5 rounds down); weight 2.
		"NodeAffinity": {"node-a": {8, 100, 200}, "node-b": {5, 62, 124}, "node-c": {0, 0, 0}},
		// ScheduleAnyway over zones: zone-a holds 2 matching pods, zone-b 1,
		// each weighted by ln(2 domains + 2): round(2.77)=3, 3, round(1.39)=1;
		// normalized 100*(max+min-s)/max = 33, 33, 100; weight 2.
		"PodTopologySpread": {"node-a": {3, 33, 66}, "node-b": {3, 33, 66}, "node-c": {1, 100, 200}},
		// 523 MiB image on 2 of 3 nodes, scaled by 2/3, mapped from
		// [23 MiB, 1000 MiB] to 0..100: 33; no NormalizeScore, weight 1.
		"ImageLocality": {"node-a": {33, 33, 33}, "node-b": {33, 33, 33}, "node-c": {0, 0, 0}},
	}
	for _, n := range ex.Nodes {
		if !n.Feasible {
			t.Fatalf("%s is not feasible: %v", n.Name, n.Reasons)
		}
		for plugin, byNode := range want {
			w := byNode[n.Name]
			got := steps{n.Raw[plugin], n.Scores[plugin], n.Weighted[plugin]}
			if got != w {
				t.Errorf("%s %s: raw, normalized, weighted = %v, want %v", n.Name, plugin, got, w)
			}
		}
		var sum int64
		for p, s := range n.Weighted {
			sum += s
			if s != n.Scores[p]*int64(ex.Weights[p]) {
				t.Errorf("%s %s: weighted %d is not normalized %d x weight %d", n.Name, p, s, n.Scores[p], ex.Weights[p])
			}
			if _, ok := n.Raw[p]; !ok {
				t.Errorf("%s %s: weighted but no raw score", n.Name, p)
			}
		}
		if n.Total == nil || *n.Total != sum {
			t.Errorf("%s: total %v, the weighted scores add up to %d", n.Name, n.Total, sum)
		}
	}
}

// Explain names the plugins that did nothing for the pod: those whose
// PreFilter returned Skip (their Filter did not run) and those whose
// PreScore returned Skip (their Score did not run), in profile order.
func TestExplainSkippedPlugins(t *testing.T) {
	// Plugins that skip at PreFilter for every pod of the fixture: no
	// volumes, claims or declared features.
	always := []string{"VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding", "VolumeZone"}
	plainFilter := []string{"NodeAffinity", "NodePorts", "VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding", "VolumeZone", "PodTopologySpread", "InterPodAffinity", "DynamicResources", "NodeDeclaredFeatures"}
	tests := []struct {
		pod           string
		filter, score []string
	}{
		// Preferred node affinity and a ScheduleAnyway constraint: both
		// score; neither filters.
		{"default/web", plainFilter, []string{"VolumeBinding", "InterPodAffinity"}},
		// Nothing to prefer: NodeAffinity, PodTopologySpread and
		// InterPodAffinity skip at PreScore too.
		{"default/plain", plainFilter, []string{"NodeAffinity", "VolumeBinding", "PodTopologySpread", "InterPodAffinity"}},
		// A required term, a host port and a DoNotSchedule constraint make
		// NodeAffinity, NodePorts and PodTopologySpread filter; no requests
		// make NodeResourcesBalancedAllocation skip its Score.
		{"default/strict", []string{"VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding", "VolumeZone", "InterPodAffinity", "DynamicResources", "NodeDeclaredFeatures"},
			[]string{"NodeAffinity", "VolumeBinding", "PodTopologySpread", "InterPodAffinity", "NodeResourcesBalancedAllocation"}},
		// No node fits: PreScore never ran, so no score plugin is named.
		{"default/huge", plainFilter, nil},
	}
	for _, tt := range tests {
		t.Run(tt.pod, func(t *testing.T) {
			ex := explainFixture(t, tt.pod)
			if ex.Skipped == nil {
				t.Fatal("no skipped plugins reported")
			}
			if !slices.Equal(ex.Skipped.Filter, tt.filter) {
				t.Errorf("skipped filter plugins %v, want %v", ex.Skipped.Filter, tt.filter)
			}
			if !slices.Equal(ex.Skipped.Score, tt.score) {
				t.Errorf("skipped score plugins %v, want %v", ex.Skipped.Score, tt.score)
			}
			for _, p := range always {
				if !slices.Contains(ex.Skipped.Filter, p) {
					t.Errorf("%s did filter", p)
				}
			}
			// A plugin whose Score did not run has no score anywhere.
			for _, n := range ex.Nodes {
				for _, p := range ex.Skipped.Score {
					if _, ok := n.Scores[p]; ok {
						t.Errorf("%s: skipped %s has a score", n.Name, p)
					}
				}
			}
		})
	}
}

func explainFixture(t *testing.T, pod string) *scheduler.Explanation {
	t.Helper()
	const file = "testdata/explain-scores.yaml"
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Load(file, data)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := Explain(sc, pod)
	if err != nil {
		t.Fatal(err)
	}
	return ex
}
