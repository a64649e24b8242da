package runtime

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

// fakePlugin filters out listed nodes, scores by a table and can restrict
// PreFilter to a node set.
type fakePlugin struct {
	name      string
	reject    map[string]framework.Code
	scores    map[string]int64
	preNodes  map[string]bool
	preStatus *framework.Status
}

func (p *fakePlugin) Name() string { return p.name }
func (p *fakePlugin) PreFilter(*framework.CycleState, *api.Pod, []*framework.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	if p.preNodes != nil {
		return &framework.PreFilterResult{NodeNames: p.preNodes}, p.preStatus
	}
	return nil, p.preStatus
}
func (p *fakePlugin) PreFilterExtensions() framework.PreFilterExtensions { return nil }
func (p *fakePlugin) Filter(_ *framework.CycleState, _ *api.Pod, ni *framework.NodeInfo) *framework.Status {
	if c, ok := p.reject[ni.Node().Name]; ok {
		return framework.NewStatus(c, p.name+" says no")
	}
	return nil
}
func (p *fakePlugin) Score(_ *framework.CycleState, _ *api.Pod, ni *framework.NodeInfo) (int64, *framework.Status) {
	return p.scores[ni.Node().Name], nil
}
func (p *fakePlugin) ScoreExtensions() framework.ScoreExtensions { return nil }

func registryOf(ps ...*fakePlugin) framework.Registry {
	r := framework.Registry{}
	for _, p := range ps {
		p := p
		r[p.name] = func(any, framework.Handle) (framework.Plugin, error) { return p, nil }
	}
	return r
}

func TestBuildListOrdersMultiPointLikeUpstream(t *testing.T) {
	a, b, c := &fakePlugin{name: "A"}, &fakePlugin{name: "B"}, &fakePlugin{name: "C"}
	profile := &config.Profile{Plugins: &config.Plugins{
		MultiPoint: config.PluginSet{Enabled: []config.Plugin{{Name: "A"}, {Name: "B", Weight: 2}}},
		// C is explicit only, B is an explicit override of a MultiPoint plugin.
		Filter: config.PluginSet{Enabled: []config.Plugin{{Name: "C"}, {Name: "B"}}},
		Score:  config.PluginSet{Enabled: []config.Plugin{{Name: "B", Weight: 5}}, Disabled: []config.Plugin{{Name: "A"}}},
	}}
	f, err := NewFramework(registryOf(a, b, c), profile, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"B", "A", "C"}, f.PluginNames("Filter")); diff != "" {
		t.Errorf("Filter order (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"B"}, f.PluginNames("Score")); diff != "" {
		t.Errorf("Score plugins (-want +got):\n%s", diff)
	}
	if got := f.ScoreWeight("B"); got != 5 {
		t.Errorf("B weight = %d, want 5 (Score extension point wins over MultiPoint)", got)
	}
}

func TestMergeWithDefaultsReplacesInPlaceAndDisables(t *testing.T) {
	got := MergeWithDefaults(&config.Plugins{MultiPoint: config.PluginSet{
		Enabled:  []config.Plugin{{Name: "ImageLocality", Weight: 7}, {Name: "Custom"}},
		Disabled: []config.Plugin{{Name: "TaintToleration"}},
	}})
	var names []string
	for _, p := range got.MultiPoint.Enabled {
		names = append(names, p.Name)
		if p.Name == "ImageLocality" && p.Weight != 7 {
			t.Errorf("ImageLocality weight %d, want 7", p.Weight)
		}
	}
	for i, n := range names {
		if n == "TaintToleration" {
			t.Errorf("disabled TaintToleration still enabled")
		}
		if n == "ImageLocality" && names[i+1] != "DefaultBinder" {
			t.Errorf("ImageLocality moved: %v", names)
		}
	}
	if names[len(names)-1] != "Custom" {
		t.Errorf("custom plugin not appended: %v", names)
	}
}

func TestRunPreFilterEmptyIntersectionRejectsAll(t *testing.T) {
	a := &fakePlugin{name: "A", preNodes: map[string]bool{"n1": true}}
	b := &fakePlugin{name: "B", preNodes: map[string]bool{"n2": true}}
	f, err := NewFramework(registryOf(a, b), &config.Profile{Plugins: &config.Plugins{MultiPoint: config.PluginSet{Enabled: []config.Plugin{{Name: "A"}, {Name: "B"}}}}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	f.SetSnapshot(framework.NewSnapshot(nil, []*api.Node{st.MakeNode().Name("n1").Obj(), st.MakeNode().Name("n2").Obj()}))
	_, s, _ := f.RunPreFilterPlugins(framework.NewCycleState(), st.MakePod().Name("p").Obj())
	want := "node(s) didn't satisfy plugin(s) [A B] simultaneously"
	if s.Code() != framework.UnschedulableAndUnresolvable || s.Message() != want {
		t.Errorf("got %v, want UnschedulableAndUnresolvable %q", s, want)
	}
}

type nominator map[string][]*framework.PodInfo

func (n nominator) NominatedPodsForNode(node string) []*framework.PodInfo { return n[node] }

// countingNominator also says how many nodes have nominated pods, which
// lets filtering skip the per-node lookup when there are none.
type countingNominator struct{ nominator }

func (n countingNominator) NumNominatedNodes() int { return len(n.nominator) }

// countFilter rejects a node holding more than max pods.
type countFilter struct{ max int }

func (c *countFilter) Name() string { return "Count" }
func (c *countFilter) Filter(_ *framework.CycleState, _ *api.Pod, ni *framework.NodeInfo) *framework.Status {
	if len(ni.Pods) > c.max {
		return framework.NewStatus(framework.Unschedulable, "too many")
	}
	return nil
}

func TestFilterWithNominatedPodsCountsOnlyHigherOrEqualPriority(t *testing.T) {
	reg := framework.Registry{"Count": func(any, framework.Handle) (framework.Plugin, error) { return &countFilter{max: 0}, nil }}
	node := st.MakeNode().Name("n1").Obj()
	tests := []struct {
		name     string
		nomPrio  int32
		wantPass bool
	}{
		{"higher-priority nominated pod blocks", 10, false},
		{"equal-priority nominated pod blocks", 5, false},
		{"lower-priority nominated pod is ignored", 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nom := nominator{"n1": {framework.NewPodInfo(st.MakePod().Name("nom").Priority(tt.nomPrio).Obj())}}
			for _, n := range []Nominator{nom, countingNominator{nom}} {
				f, err := NewFramework(reg, &config.Profile{Plugins: &config.Plugins{Filter: config.PluginSet{Enabled: []config.Plugin{{Name: "Count"}}}}}, Options{Nominator: n})
				if err != nil {
					t.Fatal(err)
				}
				snap := framework.NewSnapshot(nil, []*api.Node{node})
				f.SetSnapshot(snap)
				ni, _ := snap.Get("n1")
				s := f.RunFilterPluginsWithNominatedPods(framework.NewCycleState(), st.MakePod().Name("p").Priority(5).Obj(), ni)
				if s.IsSuccess() != tt.wantPass {
					t.Errorf("%T: pass=%v, want %v (%v)", n, s.IsSuccess(), tt.wantPass, s)
				}
				if len(ni.Pods) != 0 {
					t.Errorf("snapshot NodeInfo was modified")
				}
			}
		})
	}
}

// skipPreScore is a score plugin whose PreScore returns Skip.
type skipPreScore struct{ fakePlugin }

func (p *skipPreScore) PreScore(*framework.CycleState, *api.Pod, []*framework.NodeInfo) *framework.Status {
	return framework.NewStatus(framework.Skip)
}

func TestScoreWeightsSkipsAndTotals(t *testing.T) {
	a := &fakePlugin{name: "A", scores: map[string]int64{"n1": 10, "n2": 50, "n3": 100}}
	b := &fakePlugin{name: "B", scores: map[string]int64{"n1": 7, "n2": 0, "n3": 1}}
	c := &skipPreScore{fakePlugin{name: "C", scores: map[string]int64{"n1": 100, "n2": 100, "n3": 100}}}
	reg := registryOf(a, b)
	reg["C"] = func(any, framework.Handle) (framework.Plugin, error) { return c, nil }
	f, err := NewFramework(reg, &config.Profile{Plugins: &config.Plugins{MultiPoint: config.PluginSet{Enabled: []config.Plugin{{Name: "A", Weight: 2}, {Name: "B", Weight: 3}, {Name: "C"}}}}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var nodes []*api.Node
	for _, n := range []string{"n1", "n2", "n3"} {
		nodes = append(nodes, st.MakeNode().Name(n).Obj())
	}
	snap := framework.NewSnapshot(nil, nodes)
	f.SetSnapshot(snap)
	pod := st.MakePod().Name("p").Obj()
	want := []NodePluginScores{
		{Name: "n1", Scores: []PluginScore{{Name: "A", Raw: 10, Normalized: 10, Score: 20}, {Name: "B", Raw: 7, Normalized: 7, Score: 21}}, TotalScore: 41},
		{Name: "n2", Scores: []PluginScore{{Name: "A", Raw: 50, Normalized: 50, Score: 100}, {Name: "B", Raw: 0, Normalized: 0, Score: 0}}, TotalScore: 100},
		{Name: "n3", Scores: []PluginScore{{Name: "A", Raw: 100, Normalized: 100, Score: 200}, {Name: "B", Raw: 1, Normalized: 1, Score: 3}}, TotalScore: 203},
	}
	// Cycles of different sizes reuse the score lists: each must stand alone.
	for _, infos := range [][]*framework.NodeInfo{snap.List(), snap.List()[1:], snap.List()} {
		state := framework.NewCycleState()
		if s := f.RunPreScorePlugins(state, pod, infos); !s.IsSuccess() {
			t.Fatal(s)
		}
		got, s := f.RunScorePlugins(state, pod, infos)
		if !s.IsSuccess() {
			t.Fatal(s)
		}
		wantHere := want[len(want)-len(infos):]
		if diff := cmp.Diff(wantHere, got); diff != "" {
			t.Errorf("%d nodes: scores (-want +got):\n%s", len(infos), diff)
		}
		totals, s := f.RunScorePluginsTotals(state, pod, infos)
		if !s.IsSuccess() {
			t.Fatal(s)
		}
		var wantTotals []int64
		for _, w := range wantHere {
			wantTotals = append(wantTotals, w.TotalScore)
		}
		if diff := cmp.Diff(wantTotals, totals); diff != "" {
			t.Errorf("%d nodes: totals (-want +got):\n%s", len(infos), diff)
		}
	}
}

// batchPlugin scores through ScoreNodes from its own table, and its
// per-node Score returns something else, so a test sees which one ran. Its
// NormalizeScore adds the length of each node's name, so it fails unless
// the runtime fills in the names a batch scorer leaves out.
type batchPlugin struct {
	fakePlugin
	batch map[string]int64
	fail  string
}

func (p *batchPlugin) ScoreNodes(_ *framework.CycleState, _ *api.Pod, nodes []*framework.NodeInfo, scores framework.NodeScoreList) *framework.Status {
	for i, ni := range nodes {
		if ni.Node().Name == p.fail {
			return framework.NewStatus(framework.Error, "batch failed on "+p.fail)
		}
		scores[i].Score = p.batch[ni.Node().Name]
	}
	return nil
}
func (p *batchPlugin) ScoreExtensions() framework.ScoreExtensions { return p }
func (p *batchPlugin) NormalizeScore(_ *framework.CycleState, _ *api.Pod, scores framework.NodeScoreList) *framework.Status {
	for i := range scores {
		scores[i].Score += int64(len(scores[i].Name))
	}
	return nil
}

func TestScoreUsesBatchScorer(t *testing.T) {
	a := &fakePlugin{name: "A", scores: map[string]int64{"n1": 10, "node2": 50}}
	b := &batchPlugin{fakePlugin: fakePlugin{name: "B", scores: map[string]int64{"n1": 99, "node2": 99}},
		batch: map[string]int64{"n1": 7, "node2": 20}}
	reg := registryOf(a)
	reg["B"] = func(any, framework.Handle) (framework.Plugin, error) { return b, nil }
	f, err := NewFramework(reg, &config.Profile{Plugins: &config.Plugins{MultiPoint: config.PluginSet{Enabled: []config.Plugin{{Name: "A"}, {Name: "B", Weight: 2}}}}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	snap := framework.NewSnapshot(nil, []*api.Node{st.MakeNode().Name("n1").Obj(), st.MakeNode().Name("node2").Obj()})
	f.SetSnapshot(snap)
	pod := st.MakePod().Name("p").Obj()
	want := []NodePluginScores{
		{Name: "n1", Scores: []PluginScore{{Name: "A", Raw: 10, Normalized: 10, Score: 10}, {Name: "B", Raw: 7, Normalized: 9, Score: 18}}, TotalScore: 28},
		{Name: "node2", Scores: []PluginScore{{Name: "A", Raw: 50, Normalized: 50, Score: 50}, {Name: "B", Raw: 20, Normalized: 25, Score: 50}}, TotalScore: 100},
	}
	got, s := f.RunScorePlugins(framework.NewCycleState(), pod, snap.List())
	if !s.IsSuccess() {
		t.Fatal(s)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("scores (-want +got):\n%s", diff)
	}

	b.fail = "node2"
	_, s = f.RunScorePluginsTotals(framework.NewCycleState(), pod, snap.List())
	wantMsg := `running Score plugins: plugin "B" failed with: batch failed on node2`
	if s.Code() != framework.Error || s.Message() != wantMsg {
		t.Errorf("got %v, want Error %q", s, wantMsg)
	}
}

func TestScoreOutOfRangeNamesFirstNodeFirst(t *testing.T) {
	// A is out of range on n2 only, B on n1 only: walking nodes first, then
	// plugins, B's score on n1 comes first.
	a := &fakePlugin{name: "A", scores: map[string]int64{"n1": 5, "n2": 101}}
	b := &fakePlugin{name: "B", scores: map[string]int64{"n1": -1, "n2": 5}}
	f, err := NewFramework(registryOf(a, b), &config.Profile{Plugins: &config.Plugins{MultiPoint: config.PluginSet{Enabled: []config.Plugin{{Name: "A"}, {Name: "B"}}}}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	snap := framework.NewSnapshot(nil, []*api.Node{st.MakeNode().Name("n1").Obj(), st.MakeNode().Name("n2").Obj()})
	f.SetSnapshot(snap)
	want := `applying score defaultWeights on Score plugins: plugin "B" returns an invalid score -1, it should in the range of [0, 100] after normalizing`
	pod := st.MakePod().Name("p").Obj()
	if _, s := f.RunScorePlugins(framework.NewCycleState(), pod, snap.List()); s.Code() != framework.Error || s.Message() != want {
		t.Errorf("breakdown: got %v, want Error %q", s, want)
	}
	if _, s := f.RunScorePluginsTotals(framework.NewCycleState(), pod, snap.List()); s.Code() != framework.Error || s.Message() != want {
		t.Errorf("totals: got %v, want Error %q", s, want)
	}
}

// labelSkipper skips PreFilter and PreScore for pods labelled skip=<name>,
// and its Filter rejects every node.
type labelSkipper struct{ name string }

func (p *labelSkipper) Name() string { return p.name }
func (p *labelSkipper) skips(pod *api.Pod) *framework.Status {
	if pod.Labels["skip"] == p.name {
		return framework.NewStatus(framework.Skip)
	}
	return nil
}
func (p *labelSkipper) PreFilter(_ *framework.CycleState, pod *api.Pod, _ []*framework.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	return nil, p.skips(pod)
}
func (p *labelSkipper) PreFilterExtensions() framework.PreFilterExtensions { return nil }
func (p *labelSkipper) Filter(*framework.CycleState, *api.Pod, *framework.NodeInfo) *framework.Status {
	return framework.NewStatus(framework.Unschedulable, p.name+" says no")
}
func (p *labelSkipper) PreScore(_ *framework.CycleState, pod *api.Pod, _ []*framework.NodeInfo) *framework.Status {
	return p.skips(pod)
}

// Skip sets are reused while the same plugins skip; a state from an
// earlier cycle must keep its own set and filter list.
func TestSkipSetsPerCycle(t *testing.T) {
	reg := framework.Registry{}
	for _, n := range []string{"A", "B"} {
		p := &labelSkipper{name: n}
		reg[n] = func(any, framework.Handle) (framework.Plugin, error) { return p, nil }
	}
	f, err := NewFramework(reg, &config.Profile{Plugins: &config.Plugins{MultiPoint: config.PluginSet{Enabled: []config.Plugin{{Name: "A"}, {Name: "B"}}}}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	snap := framework.NewSnapshot(nil, []*api.Node{st.MakeNode().Name("n1").Obj()})
	f.SetSnapshot(snap)
	ni, _ := snap.Get("n1")
	skips := []string{"A", "A", "B", "none", "A"}
	var states []*framework.CycleState
	for i, sk := range skips {
		pod := st.MakePod().Name(fmt.Sprintf("p%d", i)).Label("skip", sk).Obj()
		state := framework.NewCycleState()
		f.RunPreFilterPlugins(state, pod)
		if s := f.RunPreScorePlugins(state, pod, snap.List()); !s.IsSuccess() {
			t.Fatal(s)
		}
		states = append(states, state)
	}
	for i, sk := range skips {
		want := map[string]bool{}
		rejector := "A"
		switch sk {
		case "A":
			want["A"], rejector = true, "B"
		case "B":
			want["B"] = true
		}
		if diff := cmp.Diff(want, states[i].SkipFilterPlugins); diff != "" {
			t.Errorf("cycle %d: SkipFilterPlugins (-want +got):\n%s", i, diff)
		}
		if diff := cmp.Diff(want, states[i].SkipScorePlugins); diff != "" {
			t.Errorf("cycle %d: SkipScorePlugins (-want +got):\n%s", i, diff)
		}
		if got := f.RunFilterPlugins(states[i], nil, ni).Plugin(); got != rejector {
			t.Errorf("cycle %d: rejected by %q, want %q", i, got, rejector)
		}
	}
}

// namelessPlugin is a batch scorer whose normalizer promises to ignore
// names; it records the names it was given anyway.
type namelessPlugin struct {
	batchPlugin
	seen []string
}

func (p *namelessPlugin) ScoreExtensions() framework.ScoreExtensions { return p }
func (p *namelessPlugin) NormalizeIgnoresNames()                     {}
func (p *namelessPlugin) NormalizeScore(_ *framework.CycleState, _ *api.Pod, scores framework.NodeScoreList) *framework.Status {
	for _, s := range scores {
		p.seen = append(p.seen, s.Name)
	}
	return nil
}

func TestNamelessNormalizerGetsNoNames(t *testing.T) {
	named := &batchPlugin{fakePlugin: fakePlugin{name: "Named"}, batch: map[string]int64{"n1": 1, "node2": 2}}
	nameless := &namelessPlugin{batchPlugin: batchPlugin{fakePlugin: fakePlugin{name: "Nameless"}, batch: map[string]int64{"n1": 3, "node2": 4}}}
	reg := framework.Registry{
		"Named":    func(any, framework.Handle) (framework.Plugin, error) { return named, nil },
		"Nameless": func(any, framework.Handle) (framework.Plugin, error) { return nameless, nil },
	}
	f, err := NewFramework(reg, &config.Profile{Plugins: &config.Plugins{MultiPoint: config.PluginSet{Enabled: []config.Plugin{{Name: "Named"}, {Name: "Nameless"}}}}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	snap := framework.NewSnapshot(nil, []*api.Node{st.MakeNode().Name("n1").Obj(), st.MakeNode().Name("node2").Obj()})
	f.SetSnapshot(snap)
	totals, s := f.RunScorePluginsTotals(framework.NewCycleState(), st.MakePod().Name("p").Obj(), snap.List())
	if !s.IsSuccess() {
		t.Fatal(s)
	}
	// Named adds len(name) in NormalizeScore: 1+2 and 2+5; Nameless adds nothing.
	if diff := cmp.Diff([]int64{1 + 2 + 3, 2 + 5 + 4}, totals); diff != "" {
		t.Errorf("totals (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"", ""}, nameless.seen); diff != "" {
		t.Errorf("names given to a NamelessNormalizer (-want +got):\n%s", diff)
	}
}
