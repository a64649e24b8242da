package defaultpreemption

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
	"github.com/schedplay/schedplay/core/preemption"
	"github.com/schedplay/schedplay/core/scheduler"
)

func TestPostFilter(t *testing.T) {
	web := st.LabelSelector(map[string]string{"app": "web"})
	twoNodes := []*api.Node{node("n1", "2"), node("n2", "2")}
	tests := []struct {
		name         string
		nodes        []*api.Node
		pods         []*api.Pod
		pdbs         []*api.PodDisruptionBudget
		pod          *api.Pod
		unresolvable []string
		wantResult   *framework.PostFilterResult
		wantStatus   *framework.Status
		wantVictims  []string
	}{
		{
			name:  "the node with the lower-priority victim is chosen",
			nodes: twoNodes,
			pods: []*api.Pod{
				victim("mid", "n1", 5, "2", 0).Obj(),
				victim("low", "n2", 1, "2", 0).Obj(),
			},
			pod:         preemptor(10, "2").Obj(),
			wantResult:  preemption.NewPostFilterResultWithNominatedNode("n2"),
			wantStatus:  framework.NewStatus(framework.Success),
			wantVictims: []string{"low"},
		},
		{
			name:  "a PDB moves preemption to the node that violates none",
			nodes: twoNodes,
			pods: []*api.Pod{
				victim("mid", "n1", 5, "2", 0).Obj(),
				victim("low", "n2", 1, "2", 0).Label("app", "web").Obj(),
			},
			pdbs:        []*api.PodDisruptionBudget{pdbFor(web, 0)},
			pod:         preemptor(10, "2").Obj(),
			wantResult:  preemption.NewPostFilterResultWithNominatedNode("n1"),
			wantStatus:  framework.NewStatus(framework.Success),
			wantVictims: []string{"mid"},
		},
		{
			name:  "nodes that are UnschedulableAndUnresolvable are not tried",
			nodes: twoNodes,
			pods: []*api.Pod{
				victim("mid", "n1", 5, "2", 0).Obj(),
				victim("low", "n2", 1, "2", 0).Obj(),
			},
			pod:          preemptor(10, "2").Obj(),
			unresolvable: []string{"n2"},
			wantResult:   preemption.NewPostFilterResultWithNominatedNode("n1"),
			wantStatus:   framework.NewStatus(framework.Success),
			wantVictims:  []string{"mid"},
		},
		{
			name:         "no node where preemption might help",
			nodes:        twoNodes,
			pods:         []*api.Pod{victim("low", "n1", 1, "2", 0).Obj()},
			pod:          preemptor(10, "2").Obj(),
			unresolvable: []string{"n1", "n2"},
			wantResult:   preemption.NewPostFilterResultWithNominatedNode(""),
			wantStatus:   framework.NewStatus(framework.Unschedulable, "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."),
		},
		{
			name:  "nodes fail for their own reasons",
			nodes: []*api.Node{node("n1", "2"), node("n2", "2"), node("n3", "2")},
			pods: []*api.Pod{
				victim("high", "n1", 20, "2", 0).Obj(),
				victim("big", "n2", 20, "1", 0).Obj(),
				victim("low", "n2", 1, "1", 0).Obj(),
			},
			pod:          preemptor(10, "2").Obj(),
			unresolvable: []string{"n3"},
			wantResult:   preemption.NewPostFilterResultWithNominatedNode(""),
			wantStatus: framework.NewStatus(framework.Unschedulable,
				"preemption: 0/3 nodes are available: 1 Insufficient cpu, 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling."),
		},
		{
			name:       "preemptionPolicy Never",
			nodes:      twoNodes,
			pods:       []*api.Pod{victim("low", "n1", 1, "2", 0).Obj()},
			pod:        preemptor(10, "2").PreemptionPolicy(api.PreemptNever).Obj(),
			wantStatus: framework.NewStatus(framework.Unschedulable, "preemption: "+MsgPreemptionPolicyNever),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pl, h := newPlugin(t, tt.pods, tt.nodes, tt.pdbs, nil)
			state := framework.NewCycleState()
			result, status := pl.PostFilter(state, tt.pod, statuses(tt.nodes, tt.unresolvable...))
			if diff := cmp.Diff(tt.wantResult, result); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			if !status.Equal(tt.wantStatus) {
				t.Errorf("status = %v, want %v", status, tt.wantStatus)
			}
			if got, want := len(h.actuated), map[bool]int{true: 1}[tt.wantVictims != nil]; got != want {
				t.Fatalf("preemptions handed to the executor: %d, want %d", got, want)
			}
			if tt.wantVictims != nil {
				a := h.actuated[0]
				if diff := cmp.Diff(tt.wantVictims, podNames(a.victims.Pods)); diff != "" {
					t.Errorf("victims (-want +got):\n%s", diff)
				}
				if a.node != result.NominatedNodeName || a.preemptor != tt.pod.Key() {
					t.Errorf("executor got %s on %q, result nominates %q", a.preemptor, a.node, result.NominatedNodeName)
				}
			}
		})
	}
}

func TestDryRunPreemption(t *testing.T) {
	web := st.LabelSelector(map[string]string{"app": "web"})
	var nodes []*api.Node
	for _, n := range []string{"n1", "n2", "n3", "n4", "n5"} {
		nodes = append(nodes, node(n, "1"))
	}
	lowOn := func(n string) *st.PodWrapper { return victim("low-"+n, n, 1, "1", 0) }
	tests := []struct {
		name           string
		webOn          map[string]bool
		offset, num    int32
		wantCandidates []string
		wantChecked    int
	}{
		{
			name:           "stops once enough candidates are found",
			offset:         3,
			num:            2,
			wantCandidates: []string{"n4", "n5"},
			wantChecked:    2,
		},
		{
			name:           "wraps around the node list",
			offset:         4,
			num:            2,
			wantCandidates: []string{"n5", "n1"},
			wantChecked:    2,
		},
		{
			name:           "violating candidates come after the others",
			webOn:          map[string]bool{"n4": true},
			offset:         3,
			num:            2,
			wantCandidates: []string{"n5", "n4"},
			wantChecked:    2,
		},
		{
			name:   "keeps going until one candidate violates no PDB",
			webOn:  map[string]bool{"n4": true, "n5": true},
			offset: 3,
			num:    2,
			// n4 and n5 fill the violating list; n1 is the first clean one.
			wantCandidates: []string{"n1", "n4", "n5"},
			wantChecked:    3,
		},
		{
			name:           "every node when as many candidates as nodes are wanted",
			offset:         0,
			num:            5,
			wantCandidates: []string{"n1", "n2", "n3", "n4", "n5"},
			wantChecked:    5,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var pods []*api.Pod
			for _, n := range nodes {
				w := lowOn(n.Name)
				if tt.webOn[n.Name] {
					w.Label("app", "web")
				}
				pods = append(pods, w.Obj())
			}
			pdbs := []*api.PodDisruptionBudget{pdbFor(web, 0)}
			pl, h := newPlugin(t, pods, nodes, pdbs, nil)
			candidates, _, err := pl.Evaluator.DryRunPreemption(framework.NewCycleState(), preemptor(10, "1").Obj(), h.Snapshot.List(), pdbs, tt.offset, tt.num)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range candidates {
				got = append(got, c.Name)
			}
			if diff := cmp.Diff(tt.wantCandidates, got); diff != "" {
				t.Errorf("candidates (-want +got):\n%s", diff)
			}
			// Each checked node filters once with all victims gone and once per reprieve.
			if checked := h.filterCalls / 2; checked != tt.wantChecked {
				t.Errorf("checked %d nodes, want %d", checked, tt.wantChecked)
			}
		})
	}
}

func TestCalculateNumCandidates(t *testing.T) {
	tests := []struct {
		name     string
		args     config.DefaultPreemptionArgs
		numNodes int32
		want     int32
	}{
		{name: "absolute minimum wins", args: config.DefaultPreemptionArgs{MinCandidateNodesPercentage: 10, MinCandidateNodesAbsolute: 100}, numNodes: 500, want: 100},
		{name: "percentage wins", args: config.DefaultPreemptionArgs{MinCandidateNodesPercentage: 10, MinCandidateNodesAbsolute: 100}, numNodes: 5000, want: 500},
		{name: "capped at the number of nodes", args: config.DefaultPreemptionArgs{MinCandidateNodesPercentage: 10, MinCandidateNodesAbsolute: 100}, numNodes: 3, want: 3},
		{name: "percentage rounds down", args: config.DefaultPreemptionArgs{MinCandidateNodesPercentage: 25, MinCandidateNodesAbsolute: 0}, numNodes: 10, want: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pl, _ := newPlugin(t, nil, nil, nil, &tt.args)
			if got := pl.calculateNumCandidates(tt.numNodes); got != tt.want {
				t.Errorf("got %d, want %d", got, tt.want)
			}
			off, _ := pl.GetOffsetAndNumCandidates(rand.New(rand.NewPCG(1, 2)), tt.numNodes)
			if off < 0 || off >= tt.numNodes {
				t.Errorf("offset %d outside [0, %d)", off, tt.numNodes)
			}
		})
	}
}

func TestNewValidatesArgs(t *testing.T) {
	tests := []struct {
		name string
		args config.DefaultPreemptionArgs
		want string
	}{
		{name: "percentage above 100", args: config.DefaultPreemptionArgs{MinCandidateNodesPercentage: 101, MinCandidateNodesAbsolute: 1},
			want: "minCandidateNodesPercentage: Invalid value: 101: not in valid range [0, 100]"},
		{name: "negative absolute", args: config.DefaultPreemptionArgs{MinCandidateNodesPercentage: 1, MinCandidateNodesAbsolute: -1},
			want: "minCandidateNodesAbsolute: Invalid value: -1: not in valid range [0, inf)"},
		{name: "both zero", args: config.DefaultPreemptionArgs{},
			want: "minCandidateNodesPercentage: Invalid value: 0: cannot be zero at the same time as minCandidateNodesAbsolute\n" +
				"minCandidateNodesAbsolute: Invalid value: 0: cannot be zero at the same time as minCandidateNodesPercentage"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(&tt.args, st.NewHandle(nil, nil))
			if err == nil || err.Error() != tt.want {
				t.Errorf("error = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestExplainPreemption(t *testing.T) {
	nodes := []*api.Node{node("n1", "2"), node("n2", "2"), node("n3", "2"), node("n4", "2")}
	pods := []*api.Pod{
		victim("a", "n1", 5, "2", 0).Obj(),
		victim("b", "n2", 1, "2", 0).Obj(),
		victim("c", "n3", 1, "2", 0).Obj(),
		victim("d", "n4", 1, "2", 0).Obj(),
	}
	tests := []struct {
		name         string
		pod          *api.Pod
		unresolvable []string
		want         *scheduler.PreemptionExplanation
	}{
		{
			name:         "every candidate and the ones tying for best",
			pod:          preemptor(10, "2").Obj(),
			unresolvable: []string{"n4"},
			want: &scheduler.PreemptionExplanation{
				Candidates: map[string]scheduler.Candidate{
					"n1": {Victims: []string{"default/a"}},
					"n2": {Victims: []string{"default/b"}},
					"n3": {Victims: []string{"default/c"}},
				},
				Nominated: []string{"n2", "n3"},
				Criterion: string(preemption.CriterionTie),
			},
		},
		{
			name:         "a single candidate",
			pod:          preemptor(10, "2").Obj(),
			unresolvable: []string{"n2", "n3", "n4"},
			want: &scheduler.PreemptionExplanation{
				Candidates: map[string]scheduler.Candidate{"n1": {Victims: []string{"default/a"}}},
				Nominated:  []string{"n1"},
				Criterion:  string(preemption.CriterionOnlyCandidate),
			},
		},
		{
			name:         "no candidates",
			pod:          preemptor(10, "2").Obj(),
			unresolvable: []string{"n1", "n2", "n3", "n4"},
			want:         &scheduler.PreemptionExplanation{Candidates: map[string]scheduler.Candidate{}, Nominated: []string{}},
		},
		{
			name: "not eligible",
			pod:  preemptor(10, "2").PreemptionPolicy(api.PreemptNever).Obj(),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pl, _ := newPlugin(t, pods, nodes, nil, nil)
			got, err := pl.ExplainPreemption(framework.NewCycleState(), tt.pod, statuses(nodes, tt.unresolvable...))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("explanation (-want +got):\n%s", diff)
			}
		})
	}
}
