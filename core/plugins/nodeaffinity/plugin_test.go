package nodeaffinity

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

func req(key string, op api.NodeSelectorOperator, values ...string) api.NodeSelectorRequirement {
	return api.NodeSelectorRequirement{Key: key, Operator: op, Values: values}
}

func nameIn(values ...string) api.NodeSelectorRequirement {
	return req(metadataNameField, api.NodeSelectorOpIn, values...)
}

// podWithTerms gives a pod required node affinity with the given terms.
func podWithTerms(terms ...api.NodeSelectorTerm) *api.Pod {
	p := st.MakePod().Name("p").Obj()
	p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{NodeSelectorTerms: terms},
	}}
	return p
}

func exprs(rs ...api.NodeSelectorRequirement) api.NodeSelectorTerm {
	return api.NodeSelectorTerm{MatchExpressions: rs}
}

func fields(rs ...api.NodeSelectorRequirement) api.NodeSelectorTerm {
	return api.NodeSelectorTerm{MatchFields: rs}
}

func TestPreFilterAndFilter(t *testing.T) {
	unmatched := framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonPod)
	added := &config.NodeAffinityArgs{AddedAffinity: &api.NodeAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{
			exprs(req("zone", api.NodeSelectorOpIn, "foo")),
		}},
	}}
	tests := []struct {
		name          string
		pod           *api.Pod
		labels        map[string]string
		nodeName      string
		args          *config.NodeAffinityArgs
		skipPreFilter bool
		wantPFResult  *framework.PreFilterResult
		wantPFStatus  *framework.Status
		want          *framework.Status
	}{
		{
			name:   "nodeSelector label missing",
			pod:    st.MakePod().Name("p").NodeSelector(map[string]string{"foo": "bar"}).Obj(),
			labels: map[string]string{"baz": "blah"},
			want:   unmatched,
		},
		{
			name:   "nodeSelector subset of node labels",
			pod:    st.MakePod().Name("p").NodeSelector(map[string]string{"foo": "bar"}).Obj(),
			labels: map[string]string{"foo": "bar", "baz": "blah"},
		},
		{
			name:   "nodeSelector superset of node labels",
			pod:    st.MakePod().Name("p").NodeSelector(map[string]string{"foo": "bar", "baz": "blah"}).Obj(),
			labels: map[string]string{"foo": "bar"},
			want:   unmatched,
		},
		{
			name:   "empty non-nil nodeSelector does not skip PreFilter and matches",
			pod:    st.MakePod().Name("p").NodeSelector(map[string]string{}).Obj(),
			labels: map[string]string{"foo": "bar"},
		},
		{
			name:   "In matches",
			pod:    podWithTerms(exprs(req("foo", api.NodeSelectorOpIn, "value1", "bar"))),
			labels: map[string]string{"foo": "bar"},
		},
		{
			name:   "Gt matches numerically",
			pod:    podWithTerms(exprs(req("kernel-version", api.NodeSelectorOpGt, "0204"))),
			labels: map[string]string{"kernel-version": "0206"},
		},
		{
			name:   "NotIn matches a node without the value",
			pod:    podWithTerms(exprs(req("mem-type", api.NodeSelectorOpNotIn, "DDR", "DDR2"))),
			labels: map[string]string{"mem-type": "DDR3"},
		},
		{
			name:   "Exists matches",
			pod:    podWithTerms(exprs(req("GPU", api.NodeSelectorOpExists))),
			labels: map[string]string{"GPU": "NVIDIA-GRID-K1"},
		},
		{
			name:   "no matching value",
			pod:    podWithTerms(exprs(req("GPU", api.NodeSelectorOpNotIn, "AMD", "INTER"))),
			labels: map[string]string{"GPU": "AMD"},
			want:   unmatched,
		},
		{
			name:   "empty term matches nothing",
			pod:    podWithTerms(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{}}),
			labels: map[string]string{"foo": "bar"},
			want:   unmatched,
		},
		{
			name:         "no affinity skips",
			pod:          st.MakePod().Name("p").Obj(),
			labels:       map[string]string{"foo": "bar"},
			wantPFStatus: framework.NewStatus(framework.Skip),
		},
		{
			name: "affinity with nil required selector skips",
			pod: func() *api.Pod {
				p := st.MakePod().Name("p").Obj()
				p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{}}
				return p
			}(),
			wantPFStatus: framework.NewStatus(framework.Skip),
		},
		{
			name:   "expressions in one term are ANDed",
			pod:    podWithTerms(exprs(req("GPU", api.NodeSelectorOpExists), req("GPU", api.NodeSelectorOpNotIn, "AMD", "INTER"))),
			labels: map[string]string{"GPU": "AMD"},
			want:   unmatched,
		},
		{
			name: "terms are ORed",
			pod: podWithTerms(
				exprs(req("foo", api.NodeSelectorOpIn, "bar", "value2")),
				exprs(req("diffkey", api.NodeSelectorOpIn, "wrong", "value2"))),
			labels: map[string]string{"foo": "bar"},
		},
		{
			name: "affinity matches but nodeSelector does not",
			pod: func() *api.Pod {
				p := podWithTerms(exprs(req("foo", api.NodeSelectorOpExists)))
				p.Spec.NodeSelector = map[string]string{"foo": "bar"}
				return p
			}(),
			labels: map[string]string{"foo": "barrrrrr"},
			want:   unmatched,
		},
		{
			name:   "invalid label value in NotIn makes the term match nothing",
			pod:    podWithTerms(exprs(req("foo", api.NodeSelectorOpNotIn, "invalid value: ___@#$%^"))),
			labels: map[string]string{"foo": "bar"},
			want:   unmatched,
		},
		{
			name:         "matchFields In the node's name narrows PreFilter",
			pod:          podWithTerms(fields(nameIn("node1"))),
			wantPFResult: &framework.PreFilterResult{NodeNames: map[string]bool{"node1": true}},
		},
		{
			name:         "matchFields In another node",
			pod:          podWithTerms(fields(nameIn("node2"))),
			wantPFResult: &framework.PreFilterResult{NodeNames: map[string]bool{"node2": true}},
			want:         unmatched,
		},
		{
			name: "a term without matchFields disables the PreFilter result",
			pod: podWithTerms(
				fields(nameIn("node2")),
				exprs(req("foo", api.NodeSelectorOpIn, "bar"))),
			labels: map[string]string{"foo": "bar"},
		},
		{
			name: "one term with fields and expressions: fields decide the result",
			pod: podWithTerms(api.NodeSelectorTerm{
				MatchExpressions: []api.NodeSelectorRequirement{req("foo", api.NodeSelectorOpIn, "bar")},
				MatchFields:      []api.NodeSelectorRequirement{nameIn("node2")},
			}),
			labels:       map[string]string{"foo": "bar"},
			wantPFResult: &framework.PreFilterResult{NodeNames: map[string]bool{"node2": true}},
			want:         unmatched,
		},
		{
			name:         "two name terms are unioned",
			pod:          podWithTerms(fields(nameIn("node1")), fields(nameIn("node2"))),
			wantPFResult: &framework.PreFilterResult{NodeNames: map[string]bool{"node1": true, "node2": true}},
		},
		{
			name:         "conflicting name requirements in one term",
			pod:          podWithTerms(fields(nameIn("node1"), nameIn("node2"))),
			wantPFStatus: framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonConflict),
			want:         unmatched,
		},
		{
			name:         "NotIn metadata.name does not narrow",
			pod:          podWithTerms(fields(req(metadataNameField, api.NodeSelectorOpNotIn, "node2"))),
			wantPFResult: nil,
		},
		{
			name:   "added affinity and pod affinity both match",
			pod:    podWithTerms(exprs(req("foo", api.NodeSelectorOpIn, "bar"))),
			labels: map[string]string{"foo": "bar", "zone": "foo"},
			args:   added,
		},
		{
			name:   "added affinity matches, pod affinity does not",
			pod:    podWithTerms(exprs(req("foo", api.NodeSelectorOpIn, "bar"))),
			labels: map[string]string{"zone": "foo"},
			args:   added,
			want:   unmatched,
		},
		{
			name:   "added affinity fails first, with its own reason",
			pod:    podWithTerms(exprs(req("foo", api.NodeSelectorOpIn, "bar"))),
			labels: map[string]string{"foo": "bar", "zone": "bar"},
			args:   added,
			want:   framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonEnforced),
		},
		{
			name:   "added affinity alone does not skip PreFilter",
			pod:    st.MakePod().Name("p").Obj(),
			labels: map[string]string{"zone": "foo"},
			args:   added,
		},
		{
			name:          "nodeSelector checked even if PreFilter did not run",
			pod:           st.MakePod().Name("p").NodeSelector(map[string]string{"foo": "bar"}).Obj(),
			labels:        map[string]string{"foo": "baz"},
			skipPreFilter: true,
			want:          unmatched,
		},
		{
			name:          "affinity checked even if PreFilter did not run",
			pod:           podWithTerms(exprs(req("foo", api.NodeSelectorOpIn, "bar"))),
			labels:        map[string]string{"foo": "bar"},
			skipPreFilter: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node1", Labels: tt.labels}}
			ni := framework.NewNodeInfo()
			ni.SetNode(node)
			var args any
			if tt.args != nil {
				args = tt.args
			}
			p, err := New(args, st.NewHandle(nil, []*api.Node{node}))
			if err != nil {
				t.Fatalf("creating plugin: %v", err)
			}
			pl := p.(*NodeAffinity)
			state := framework.NewCycleState()
			if !tt.skipPreFilter {
				res, s := pl.PreFilter(state, tt.pod, nil)
				if diff := cmp.Diff(tt.wantPFStatus, s); diff != "" {
					t.Errorf("PreFilter status (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(tt.wantPFResult, res); diff != "" {
					t.Errorf("PreFilter result (-want +got):\n%s", diff)
				}
			}
			got := pl.Filter(state, tt.pod, ni)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Filter status (-want +got):\n%s", diff)
			}
		})
	}
}

func preferred(weight int32, rs ...api.NodeSelectorRequirement) api.PreferredSchedulingTerm {
	return api.PreferredSchedulingTerm{Weight: weight, Preference: exprs(rs...)}
}

func podWithPreferred(terms ...api.PreferredSchedulingTerm) *api.Pod {
	p := st.MakePod().Name("p").Obj()
	p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: terms}}
	return p
}

func TestScore(t *testing.T) {
	label1 := map[string]string{"foo": "bar"}
	label2 := map[string]string{"key": "value"}
	label3 := map[string]string{"az": "az1"}
	label4 := map[string]string{"abc": "az11", "def": "az22"}
	label5 := map[string]string{"foo": "bar", "key": "value", "az": "az1"}
	fooBar := req("foo", api.NodeSelectorOpIn, "bar")
	keyValue := req("key", api.NodeSelectorOpIn, "value")
	affinity1 := podWithPreferred(preferred(2, fooBar))
	affinity2 := podWithPreferred(
		preferred(2, fooBar),
		preferred(4, keyValue),
		preferred(5, fooBar, keyValue, req("az", api.NodeSelectorOpIn, "az1")))
	type node struct {
		name   string
		labels map[string]string
	}
	tests := []struct {
		name         string
		pod          *api.Pod
		nodes        []node
		args         *config.NodeAffinityArgs
		skipPreScore bool
		wantPreScore *framework.Status
		want         framework.NodeScoreList
	}{
		{
			name:         "no node affinity skips PreScore",
			pod:          st.MakePod().Name("p").Obj(),
			nodes:        []node{{"node1", label1}},
			wantPreScore: framework.NewStatus(framework.Skip),
		},
		{
			name:  "no node matches: all zero",
			pod:   affinity1,
			nodes: []node{{"node1", label4}, {"node2", label2}, {"node3", label3}},
			want:  framework.NodeScoreList{{Name: "node1"}, {Name: "node2"}, {Name: "node3"}},
		},
		{
			name:  "only node1 matches",
			pod:   affinity1,
			nodes: []node{{"node1", label1}, {"node2", label2}, {"node3", label3}},
			want:  framework.NodeScoreList{{Name: "node1", Score: 100}, {Name: "node2"}, {Name: "node3"}},
		},
		{
			name:  "weights sum and normalize",
			pod:   affinity2,
			nodes: []node{{"node1", label1}, {"node5", label5}, {"node2", label2}},
			// raw 2, 11, 4 -> 100*2/11=18, 100, 100*4/11=36
			want: framework.NodeScoreList{{Name: "node1", Score: 18}, {Name: "node5", Score: 100}, {Name: "node2", Score: 36}},
		},
		{
			name:  "added preferred affinity alone scores",
			pod:   st.MakePod().Name("p").Obj(),
			nodes: []node{{"node1", label1}, {"node2", label2}},
			args:  &config.NodeAffinityArgs{AddedAffinity: affinity1.Spec.Affinity.NodeAffinity},
			want:  framework.NodeScoreList{{Name: "node1", Score: 100}, {Name: "node2"}},
		},
		{
			name:  "added preferred affinity adds to the pod's",
			pod:   affinity1,
			nodes: []node{{"node1", label1}, {"node2", label2}, {"node3", label5}},
			args: &config.NodeAffinityArgs{AddedAffinity: &api.NodeAffinity{
				PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{preferred(3, keyValue)},
			}},
			want: framework.NodeScoreList{{Name: "node1", Score: 40}, {Name: "node2", Score: 60}, {Name: "node3", Score: 100}},
		},
		{
			name:         "scores without PreScore",
			pod:          affinity2,
			nodes:        []node{{"node1", label1}, {"node5", label5}, {"node2", label2}},
			skipPreScore: true,
			want:         framework.NodeScoreList{{Name: "node1", Score: 18}, {Name: "node5", Score: 100}, {Name: "node2", Score: 36}},
		},
		{
			name:  "weight-0 and empty terms are ignored",
			pod:   podWithPreferred(preferred(0, fooBar), api.PreferredSchedulingTerm{Weight: 7}, preferred(1, keyValue)),
			nodes: []node{{"node1", label1}, {"node2", label2}},
			want:  framework.NodeScoreList{{Name: "node1"}, {Name: "node2", Score: 100}},
		},
		{
			name:  "empty non-nil preferred list still scores (all zero)",
			pod:   podWithPreferred([]api.PreferredSchedulingTerm{}...),
			nodes: []node{{"node1", label1}},
			want:  framework.NodeScoreList{{Name: "node1"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var nodes []*api.Node
			for _, n := range tt.nodes {
				nodes = append(nodes, &api.Node{ObjectMeta: api.ObjectMeta{Name: n.name, Labels: n.labels}})
			}
			h := st.NewHandle(nil, nodes)
			var args any
			if tt.args != nil {
				args = tt.args
			}
			p, err := New(args, h)
			if err != nil {
				t.Fatalf("creating plugin: %v", err)
			}
			pl := p.(*NodeAffinity)
			state := framework.NewCycleState()
			if !tt.skipPreScore {
				s := pl.PreScore(state, tt.pod, h.Snapshot.List())
				if diff := cmp.Diff(tt.wantPreScore, s); diff != "" {
					t.Fatalf("PreScore status (-want +got):\n%s", diff)
				}
				if s.IsSkip() {
					return
				}
			}
			var got framework.NodeScoreList
			for _, n := range nodes {
				ni, err := h.Snapshot.Get(n.Name)
				if err != nil {
					t.Fatal(err)
				}
				score, s := pl.Score(state, tt.pod, ni)
				if !s.IsSuccess() {
					t.Fatalf("Score: %v", s)
				}
				got = append(got, framework.NodeScore{Name: n.Name, Score: score})
			}
			// NormalizeScore must not need the names (NamelessNormalizer).
			named, nameless, err := st.NormalizeBothWays(pl, state, tt.pod, got)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(named, nameless); diff != "" {
				t.Errorf("normalized without names (-with +without):\n%s", diff)
			}
			if s := pl.NormalizeScore(state, tt.pod, got); !s.IsSuccess() {
				t.Fatalf("NormalizeScore: %v", s)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("scores (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNewRejectsOtherArgs(t *testing.T) {
	if _, err := New(&config.InterPodAffinityArgs{}, nil); err == nil {
		t.Error("New accepted InterPodAffinityArgs")
	}
}
