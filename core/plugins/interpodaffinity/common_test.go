package interpodaffinity

import (
	"testing"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

// Selector shorthands for terms.
func in(key string, values ...string) *api.LabelSelector {
	return &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: key, Operator: api.LabelSelectorOpIn, Values: values}}}
}

func notIn(key string, values ...string) *api.LabelSelector {
	return &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: key, Operator: api.LabelSelectorOpNotIn, Values: values}}}
}

func exists(key string) *api.LabelSelector {
	return &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: key, Operator: api.LabelSelectorOpExists}}}
}

// exprs ANDs requirements into one selector.
func exprs(reqs ...api.LabelSelectorRequirement) *api.LabelSelector {
	return &api.LabelSelector{MatchExpressions: reqs}
}

func node(name string, labels map[string]string) *api.Node {
	n := st.MakeNode().Name(name)
	for k, v := range labels {
		n.Label(k, v)
	}
	return n.Obj()
}

// termKind picks which of a pod's term lists termNamespaces edits.
type termKind int

const (
	requiredAffinity termKind = iota
	requiredAntiAffinity
	preferredAffinity
	preferredAntiAffinity
)

// termNamespaces sets namespaces and namespaceSelector on every term of
// one kind of p.
func termNamespaces(p *api.Pod, kind termKind, namespaces []string, nsSelector *api.LabelSelector) *api.Pod {
	set := func(t *api.PodAffinityTerm) {
		t.Namespaces = namespaces
		t.NamespaceSelector = nsSelector
	}
	a := p.Spec.Affinity
	switch kind {
	case requiredAffinity:
		for i := range a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution {
			set(&a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution[i])
		}
	case requiredAntiAffinity:
		for i := range a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution {
			set(&a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[i])
		}
	case preferredAffinity:
		for i := range a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution {
			set(&a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution[i].PodAffinityTerm)
		}
	case preferredAntiAffinity:
		for i := range a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution {
			set(&a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution[i].PodAffinityTerm)
		}
	}
	return p
}

// teamNamespaces are the namespaces upstream's tests use, labelled by team.
var teamNamespaces = []*api.Namespace{
	{ObjectMeta: api.ObjectMeta{Name: "subteam1.team1", Labels: map[string]string{"team": "team1"}}},
	{ObjectMeta: api.ObjectMeta{Name: "subteam2.team1", Labels: map[string]string{"team": "team1"}}},
	{ObjectMeta: api.ObjectMeta{Name: "subteam1.team2", Labels: map[string]string{"team": "team2"}}},
	{ObjectMeta: api.ObjectMeta{Name: "subteam2.team2", Labels: map[string]string{"team": "team2"}}},
}

// newPlugin builds the plugin over a snapshot of pods and nodes.
func newPlugin(t *testing.T, args config.InterPodAffinityArgs, pods []*api.Pod, nodes []*api.Node, namespaces []*api.Namespace) (*InterPodAffinity, *st.Handle) {
	t.Helper()
	h := st.NewHandle(pods, nodes)
	h.Lister.Namespaces = namespaces
	p, err := New(&args, h)
	if err != nil {
		t.Fatalf("creating plugin: %v", err)
	}
	return p.(*InterPodAffinity), h
}

func defaultArgs() config.InterPodAffinityArgs {
	a := config.NewDefaultArgs(Name).(*config.InterPodAffinityArgs)
	return *a
}

// statusString renders a status for comparison (nil is "Success").
func statusString(s *framework.Status) string { return s.String() }

func TestNew(t *testing.T) {
	tests := []struct {
		name    string
		args    any
		wantErr string
	}{
		{name: "defaults", args: &config.InterPodAffinityArgs{HardPodAffinityWeight: 1}},
		{name: "zero weight is valid", args: &config.InterPodAffinityArgs{}},
		{name: "weight 100 is valid", args: &config.InterPodAffinityArgs{HardPodAffinityWeight: 100}},
		{name: "weight above 100", args: &config.InterPodAffinityArgs{HardPodAffinityWeight: 101},
			wantErr: "hardPodAffinityWeight: Invalid value: 101: not in valid range [0, 100]"},
		{name: "negative weight", args: &config.InterPodAffinityArgs{HardPodAffinityWeight: -1},
			wantErr: "hardPodAffinityWeight: Invalid value: -1: not in valid range [0, 100]"},
		{name: "wrong args type", args: &config.NodeAffinityArgs{},
			wantErr: "want args to be of type InterPodAffinityArgs, got *config.NodeAffinityArgs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.args, st.NewHandle(nil, nil))
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.wantErr {
				t.Errorf("New() error = %q, want %q", got, tt.wantErr)
			}
		})
	}
}
