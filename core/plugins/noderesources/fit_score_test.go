package noderesources

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

type scoreNode struct {
	alloc res
	pods  []*api.Pod
}

func bound(r res) *api.Pod { return st.MakePod().Name("bound").Node("n1").Req(r).Obj() }

func specs(kv ...any) []config.ResourceSpec {
	var out []config.ResourceSpec
	for i := 0; i < len(kv); i += 2 {
		out = append(out, config.ResourceSpec{Name: kv[i].(string), Weight: int64(kv[i+1].(int))})
	}
	return out
}

func shape(pts ...int32) *config.RequestedToCapacityRatioParam {
	p := &config.RequestedToCapacityRatioParam{}
	for i := 0; i < len(pts); i += 2 {
		p.Shape = append(p.Shape, config.UtilizationShapePoint{Utilization: pts[i], Score: pts[i+1]})
	}
	return p
}

type preScoreScorer interface {
	framework.PreScorePlugin
	framework.ScorePlugin
}

// scoreNodes runs PreScore (optionally) and Score over nodes.
func scoreNodes(t *testing.T, pl preScoreScorer, pod *api.Pod, nodes []scoreNode, runPreScore bool) []int64 {
	t.Helper()
	state := framework.NewCycleState()
	if runPreScore {
		if s := pl.PreScore(state, pod, nil); !s.IsSuccess() {
			t.Fatalf("PreScore: %v", s)
		}
	}
	var infos []*framework.NodeInfo
	for _, n := range nodes {
		infos = append(infos, nodeInfo(n.alloc, n.pods...))
	}
	// Every case also pins that the batch path agrees with Score.
	return scoreBothWays(t, pl, state, pod, infos)
}

// scoreBothWays returns Score for each node, and fails the test unless
// ScoreNodes gives the same.
func scoreBothWays(t *testing.T, pl framework.ScorePlugin, state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo) []int64 {
	t.Helper()
	got, batch, err := st.ScoreBothWays(pl, state, pod, nodes)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(got, batch); diff != "" {
		t.Errorf("ScoreNodes differs from Score (-Score +ScoreNodes):\n%s", diff)
	}
	return got
}

// TestBatchScoreMatchesScore compares ScoreNodes with Score on generated
// nodes and pods, for every strategy, with and without PreScore, with
// scalar, ephemeral and unknown resources, and with more resources than
// the on-stack lists hold.
func TestBatchScoreMatchesScore(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	amount := func(unit string) string {
		if rng.IntN(5) == 0 {
			return "0"
		}
		return strconv.Itoa(1+rng.IntN(64)) + unit
	}
	gpus := specs("cpu", 1, "memory", 1, "nvidia.com/gpu", 1, "ephemeral-storage", 1)
	many := specs("cpu", 3, "memory", 1, "ephemeral-storage", 2, "example.com/a", 1, "example.com/b", 1,
		"example.com/c", 1, "example.com/d", 1, "example.com/e", 1, "hugepages-2Mi", 1, "pods", 1)
	randomRes := func(withScalars bool) res {
		r := res{"cpu": amount(""), "memory": amount("Gi"), "ephemeral-storage": amount("Gi")}
		if withScalars {
			for _, n := range []string{"nvidia.com/gpu", "example.com/a", "example.com/c", "hugepages-2Mi"} {
				if rng.IntN(2) == 0 {
					r[n] = amount("")
				}
			}
		}
		return r
	}
	var nodes []*framework.NodeInfo
	for i := 0; i < 40; i++ {
		var pods []*api.Pod
		for j := rng.IntN(4); j > 0; j-- {
			pods = append(pods, bound(randomRes(rng.IntN(2) == 0)))
		}
		if rng.IntN(6) == 0 { // no requests: non-zero defaults apply
			pods = append(pods, st.MakePod().Name("be").Node("n1").Obj())
		}
		nodes = append(nodes, nodeInfo(randomRes(i%3 != 0), pods...))
	}
	pods := []*api.Pod{st.MakePod().Obj(), withPodLevel(st.MakePod().Obj(), res{"cpu": "2"})}
	for i := 0; i < 6; i++ {
		pods = append(pods, st.MakePod().Req(randomRes(i%2 == 0)).Obj())
	}
	strategies := map[string]*config.ScoringStrategy{
		"least":      {Type: config.LeastAllocated, Resources: specs("cpu", 1, "memory", 1)},
		"most two":   {Type: config.MostAllocated, Resources: specs("ephemeral-storage", 2, "cpu", 5)},
		"least two":  {Type: config.LeastAllocated, Resources: specs("memory", 3, "ephemeral-storage", 1)},
		"most gpus":  {Type: config.MostAllocated, Resources: gpus},
		"least many": {Type: config.LeastAllocated, Resources: many},
		"most many":  {Type: config.MostAllocated, Resources: many},
		"ratio": {Type: config.RequestedToCapacityRatio, Resources: gpus,
			RequestedToCapacityRatio: shape(0, 0, 30, 7, 100, 10)},
	}
	plugins := map[string]preScoreScorer{
		"balanced":      newBalanced(t, nil),
		"balanced two":  newBalanced(t, specs("ephemeral-storage", 1, "memory", 1)),
		"balanced gpus": newBalanced(t, specs("cpu", 1, "memory", 1, "nvidia.com/gpu", 1, "ephemeral-storage", 1)),
		"balanced many": newBalanced(t, specs("cpu", 1, "memory", 1, "ephemeral-storage", 1, "example.com/a", 1, "example.com/b", 1,
			"example.com/c", 1, "example.com/d", 1, "example.com/e", 1, "hugepages-2Mi", 1, "pods", 1)),
	}
	for name, s := range strategies {
		a := defaultFitArgs()
		a.ScoringStrategy = s
		plugins["fit "+name] = newFit(t, a)
	}
	for name, pl := range plugins {
		for pi, pod := range pods {
			for _, runPreScore := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/pod %d/prescore %v", name, pi, runPreScore), func(t *testing.T) {
					state := framework.NewCycleState()
					if runPreScore && pl.PreScore(state, pod, nodes).IsSkip() {
						return
					}
					want := scoreBothWays(t, pl, state, pod, nodes)
					// Two cpu/memory/storage resources are scored on locals:
					// they must agree with the list-based scorers.
					r := scorerOf(pl)
					if !runPreScore || !r.twoFixed {
						return
					}
					podRequests := r.calculatePodResourceRequestList(pod)
					var lists []int64
					for _, ni := range nodes {
						lists = append(lists, r.builtinScore(ni, podRequests))
					}
					if diff := cmp.Diff(lists, want); diff != "" {
						t.Errorf("two-resource scoring differs from the lists (-lists +got):\n%s", diff)
					}
				})
			}
		}
	}
}

func TestFitScore(t *testing.T) {
	// pod3x5 asks for 3000m cpu and 5000 bytes over two containers.
	pod3x5 := st.MakePod().Req(res{"cpu": "1", "memory": "2000"}).Container("c2", res{"cpu": "2", "memory": "3000"}).Obj()
	nodeA := scoreNode{alloc: res{"cpu": "4", "memory": "10000", "pods": "10"}}
	nodeB := scoreNode{alloc: res{"cpu": "6", "memory": "10000", "pods": "10"}}
	// small holds 1 cpu and 1000Mi; best-effort pods count 100m and 200Mi.
	small := res{"cpu": "1", "memory": "1000Mi", "pods": "10"}
	bestEffort := st.MakePod().Obj()
	extRes := specs("cpu", 1, "memory", 1, "ephemeral-storage", 1, "example.com/gpu", 2)
	tests := []struct {
		name     string
		strategy config.ScoringStrategy
		pod      *api.Pod
		nodes    []scoreNode
		want     []int64
	}{
		{
			// A: cpu (4000-3000)*100/4000=25, mem (10000-5000)*100/10000=50 -> 75/2=37
			// B: cpu (6000-3000)*100/6000=50, mem 50 -> 50
			name:     "least allocated: differently sized nodes",
			strategy: config.ScoringStrategy{Type: config.LeastAllocated},
			pod:      pod3x5,
			nodes:    []scoreNode{nodeA, nodeB},
			want:     []int64{37, 50},
		},
		{
			// Non-zero defaults on both sides: cpu 200/1000 -> 80, mem 400Mi/1000Mi -> 60; 140/2=70.
			name:     "least allocated: best-effort pods count the non-zero defaults",
			strategy: config.ScoringStrategy{Type: config.LeastAllocated},
			pod:      bestEffort,
			nodes:    []scoreNode{{alloc: small, pods: []*api.Pod{bound(nil)}}},
			want:     []int64{70},
		},
		{
			// The bound pod's explicit cpu 0 stays 0: cpu 100/1000 -> 90, mem 400Mi -> 60; 75.
			name:     "least allocated: explicit zero request is not defaulted",
			strategy: config.ScoringStrategy{Type: config.LeastAllocated},
			pod:      bestEffort,
			nodes:    []scoreNode{{alloc: small, pods: []*api.Pod{bound(res{"cpu": "0"})}}},
			want:     []int64{75},
		},
		{
			// (80*3 + 60*1) / 4 = 75.
			name:     "least allocated: weights",
			strategy: config.ScoringStrategy{Type: config.LeastAllocated, Resources: specs("cpu", 3, "memory", 1)},
			pod:      bestEffort,
			nodes:    []scoreNode{{alloc: small, pods: []*api.Pod{bound(nil)}}},
			want:     []int64{75},
		},
		{
			// cpu 2000+100 > 1000 -> 0; mem 400Mi -> 60; 60/2 = 30.
			name:     "least allocated: overcommitted resource scores 0",
			strategy: config.ScoringStrategy{Type: config.LeastAllocated},
			pod:      bestEffort,
			nodes:    []scoreNode{{alloc: small, pods: []*api.Pod{bound(res{"cpu": "2"})}}},
			want:     []int64{30},
		},
		{
			// Fit's scorer ignores spec.resources (upstream never hands it the
			// PodLevelResources gate): cpu counts the 100m default, not 2000m.
			// cpu (4000-100)*100/4000=97, mem (1000Mi-200Mi)/1000Mi=80; 177/2=88.
			name:     "least allocated: pod-level requests are not scored",
			strategy: config.ScoringStrategy{Type: config.LeastAllocated},
			pod:      withPodLevel(st.MakePod().Obj(), res{"cpu": "2"}),
			nodes:    []scoreNode{{alloc: res{"cpu": "4", "memory": "1000Mi"}}},
			want:     []int64{88},
		},
		{
			// cpu 200/1000 -> 80, mem 400Mi -> 60, storage reads Requested
			// 300+100 of 1000 -> 60, gpu 1+1 of 4 -> 50 (weight 2):
			// (80+60+60+50*2)/5 = 60.
			name:     "least allocated: ephemeral storage and extended resources",
			strategy: config.ScoringStrategy{Type: config.LeastAllocated, Resources: extRes},
			pod:      st.MakePod().Req(res{"ephemeral-storage": "100", "example.com/gpu": "1"}).Obj(),
			nodes: []scoreNode{{
				alloc: res{"cpu": "1", "memory": "1000Mi", "ephemeral-storage": "1000", "example.com/gpu": "4"},
				pods:  []*api.Pod{bound(res{"ephemeral-storage": "300", "example.com/gpu": "1"})},
			}},
			want: []int64{60},
		},
		{
			// gpu is scalar and unrequested: left out. Storage is not scalar, so
			// it stays in with the pod's 0: 300/1000 -> 70. (80+60+70)/3 = 70.
			name:     "least allocated: unrequested scalar resource is left out",
			strategy: config.ScoringStrategy{Type: config.LeastAllocated, Resources: extRes},
			pod:      bestEffort,
			nodes: []scoreNode{{
				alloc: res{"cpu": "1", "memory": "1000Mi", "ephemeral-storage": "1000", "example.com/gpu": "4"},
				pods:  []*api.Pod{bound(res{"ephemeral-storage": "300", "example.com/gpu": "1"})},
			}},
			want: []int64{70},
		},
		{
			// Neither storage nor gpu on the node: only cpu 80 and mem 60 count.
			name:     "least allocated: resources the node lacks are left out",
			strategy: config.ScoringStrategy{Type: config.LeastAllocated, Resources: extRes},
			pod:      st.MakePod().Req(res{"ephemeral-storage": "100", "example.com/gpu": "1"}).Obj(),
			nodes:    []scoreNode{{alloc: small, pods: []*api.Pod{bound(nil)}}},
			want:     []int64{70},
		},
		{
			// A: cpu 3000*100/4000=75, mem 50 -> 125/2=62. B: 50, 50 -> 50.
			name:     "most allocated: differently sized nodes",
			strategy: config.ScoringStrategy{Type: config.MostAllocated},
			pod:      pod3x5,
			nodes:    []scoreNode{nodeA, nodeB},
			want:     []int64{62, 50},
		},
		{
			// cpu capped at capacity -> 100, mem 400Mi/1000Mi -> 40; 70.
			name:     "most allocated: overcommitted resource is capped",
			strategy: config.ScoringStrategy{Type: config.MostAllocated},
			pod:      bestEffort,
			nodes:    []scoreNode{{alloc: small, pods: []*api.Pod{bound(res{"cpu": "2"})}}},
			want:     []int64{70},
		},
		{
			// (75*1 + 50*3) / 4 = 56.
			name:     "most allocated: weights",
			strategy: config.ScoringStrategy{Type: config.MostAllocated, Resources: specs("cpu", 1, "memory", 3)},
			pod:      pod3x5,
			nodes:    []scoreNode{nodeA},
			want:     []int64{56},
		},
		{
			// Shape (0,0)-(100,10) scales to (0,0)-(100,100): score = utilization.
			// A: 75 and 50 -> round(62.5) = 63 (MostAllocated truncates to 62).
			// B: 50 and 50 -> 50.
			name:     "requested to capacity ratio: bin packing rounds",
			strategy: config.ScoringStrategy{Type: config.RequestedToCapacityRatio, RequestedToCapacityRatio: shape(0, 0, 100, 10)},
			pod:      pod3x5,
			nodes:    []scoreNode{nodeA, nodeB},
			want:     []int64{63, 50},
		},
		{
			// f(p) = 100 - p: A: 25 and 50 -> round(37.5) = 38. B: 50.
			name:     "requested to capacity ratio: spreading",
			strategy: config.ScoringStrategy{Type: config.RequestedToCapacityRatio, RequestedToCapacityRatio: shape(0, 10, 100, 0)},
			pod:      pod3x5,
			nodes:    []scoreNode{nodeA, nodeB},
			want:     []int64{38, 50},
		},
		{
			// Memory is explicitly 0, so its utilization is 0 and its score 0,
			// which drops it (weight too) from the average: cpu 75 alone.
			name:     "requested to capacity ratio: a zero-scoring resource drops out",
			strategy: config.ScoringStrategy{Type: config.RequestedToCapacityRatio, RequestedToCapacityRatio: shape(0, 0, 100, 10)},
			pod:      st.MakePod().Req(res{"cpu": "3", "memory": "0"}).Obj(),
			nodes:    []scoreNode{nodeA},
			want:     []int64{75},
		},
		{
			// cpu over capacity scores f(100) = 100; mem 40 -> 40; 70.
			name:     "requested to capacity ratio: overcommitted resource scores f(100)",
			strategy: config.ScoringStrategy{Type: config.RequestedToCapacityRatio, RequestedToCapacityRatio: shape(0, 0, 100, 10)},
			pod:      bestEffort,
			nodes:    []scoreNode{{alloc: small, pods: []*api.Pod{bound(res{"cpu": "2"})}}},
			want:     []int64{70},
		},
		{
			// Score = utilization; checked against upstream through the harness.
			// c: cpu 200*100/1000=20, mem 400Mi/1000Mi=40, storage 400/1000=40,
			//    gpu 2/4=50 (weight 2): (20+40+40+100)/5 = 40.
			// d: cpu 10, mem 20, storage 10, gpu 25: (10+20+10+50)/5 = 18.
			name:     "requested to capacity ratio: storage and extended resources",
			strategy: config.ScoringStrategy{Type: config.RequestedToCapacityRatio, Resources: extRes, RequestedToCapacityRatio: shape(0, 0, 100, 10)},
			pod:      st.MakePod().Req(res{"ephemeral-storage": "100", "example.com/gpu": "1"}).Obj(),
			nodes: []scoreNode{
				{
					alloc: res{"cpu": "1", "memory": "1000Mi", "ephemeral-storage": "1000", "example.com/gpu": "4"},
					pods:  []*api.Pod{bound(res{"ephemeral-storage": "300", "example.com/gpu": "1"})},
				},
				{alloc: res{"cpu": "1", "memory": "1000Mi", "ephemeral-storage": "1000", "example.com/gpu": "4"}},
			},
			want: []int64{40, 18},
		},
		{
			// Shape (10,20) (50,60) (80,100) after scaling.
			// A: cpu 75 -> 60 + 40*(75-50)/30 = 60+33 = 93; mem 50 -> 60.
			//    weights 2/1: (93*2 + 60)/3 = 82.
			// C: cpu 3000*100/100000 = 3 -> below the first point: 20;
			//    mem 5000*100/1000000 = 0 -> 20. 20.
			name:     "requested to capacity ratio: piecewise interpolation and weights",
			strategy: config.ScoringStrategy{Type: config.RequestedToCapacityRatio, Resources: specs("cpu", 2, "memory", 1), RequestedToCapacityRatio: shape(10, 2, 50, 6, 80, 10)},
			pod:      pod3x5,
			nodes:    []scoreNode{nodeA, {alloc: res{"cpu": "100", "memory": "1000000"}}},
			want:     []int64{82, 20},
		},
	}
	for _, tt := range tests {
		for _, runPreScore := range []bool{true, false} {
			name := tt.name
			if !runPreScore {
				name += " (no PreScore)"
			}
			t.Run(name, func(t *testing.T) {
				strategy := tt.strategy
				args := &config.NodeResourcesFitArgs{ScoringStrategy: &strategy}
				config.SetDefaultArgs(args)
				pl := newFit(t, args)
				got := scoreNodes(t, pl, tt.pod, tt.nodes, runPreScore)
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("scores (-want +got):\n%s", diff)
				}
			})
		}
	}
}

func TestNewFitRejectsBadArgs(t *testing.T) {
	tests := []struct {
		name string
		args *config.NodeResourcesFitArgs
		want string
	}{
		{
			name: "unknown strategy",
			args: &config.NodeResourcesFitArgs{ScoringStrategy: &config.ScoringStrategy{Type: "Nope", Resources: specs("cpu", 1)}},
			want: `scoringStrategy.type: Unsupported value: "Nope": supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"`,
		},
		{
			name: "weight out of range",
			args: &config.NodeResourcesFitArgs{ScoringStrategy: &config.ScoringStrategy{Type: config.LeastAllocated, Resources: specs("cpu", 101)}},
			want: "scoringStrategy.resources[0].weight: Invalid value: 101: resource weight of cpu not in valid range (0, 100]",
		},
		{
			name: "ratio without shape",
			args: &config.NodeResourcesFitArgs{ScoringStrategy: &config.ScoringStrategy{Type: config.RequestedToCapacityRatio, Resources: specs("cpu", 1)}},
			want: "scoringStrategy.requestedToCapacityRatio: Required value: must be specified when type is RequestedToCapacityRatio",
		},
		{
			name: "unsorted shape",
			args: &config.NodeResourcesFitArgs{ScoringStrategy: &config.ScoringStrategy{Type: config.RequestedToCapacityRatio, Resources: specs("cpu", 1), RequestedToCapacityRatio: shape(50, 1, 50, 2)}},
			want: "scoringStrategy.requestedToCapacityRatio.shape[1].utilization: Invalid value: 50: values must be sorted in increasing order",
		},
		{
			name: "shape score out of range",
			args: &config.NodeResourcesFitArgs{ScoringStrategy: &config.ScoringStrategy{Type: config.RequestedToCapacityRatio, Resources: specs("cpu", 1), RequestedToCapacityRatio: shape(0, 11)}},
			want: "scoringStrategy.requestedToCapacityRatio.shape[0].score: Invalid value: 11: not in valid range [0, 10]",
		},
		{
			name: "shape with another strategy",
			args: &config.NodeResourcesFitArgs{ScoringStrategy: &config.ScoringStrategy{Type: config.MostAllocated, Resources: specs("cpu", 1), RequestedToCapacityRatio: shape(0, 1)}},
			want: "scoringStrategy.requestedToCapacityRatio: Forbidden: must be nil when type is not RequestedToCapacityRatio",
		},
		{
			name: "resource group with a slash",
			args: &config.NodeResourcesFitArgs{IgnoredResourceGroups: []string{"example.com/x"}, ScoringStrategy: &config.ScoringStrategy{Type: config.LeastAllocated, Resources: specs("cpu", 1)}},
			want: `ignoredResourceGroups[0]: Invalid value: "example.com/x": resource group name can't contain '/'`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewFit(tt.args, nil)
			if err == nil || err.Error() != tt.want {
				t.Errorf("NewFit error = %v, want %q", err, tt.want)
			}
		})
	}
	if _, err := NewFit(&config.NodeResourcesBalancedAllocationArgs{}, nil); err == nil {
		t.Error("NewFit accepted the wrong args type")
	}
}

func scorerOf(pl preScoreScorer) *resourceAllocationScorer {
	switch pl := pl.(type) {
	case *Fit:
		return pl.resourceAllocationScorer
	case *BalancedAllocation:
		return &pl.resourceAllocationScorer
	}
	panic(fmt.Sprintf("no scorer in %T", pl))
}
