package noderesources

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

func newBalanced(t testing.TB, resources []config.ResourceSpec) *BalancedAllocation {
	t.Helper()
	args := &config.NodeResourcesBalancedAllocationArgs{Resources: resources}
	config.SetDefaultArgs(args)
	pl, err := NewBalancedAllocation(args, nil)
	if err != nil {
		t.Fatalf("NewBalancedAllocation: %v", err)
	}
	return pl.(*BalancedAllocation)
}

// Score = 50 + (50 + withPod - withoutPod)/2 where each side is
// int((1 - std) * 100) over the requested/allocatable fractions (capped at
// 1); for two resources std = |a-b|/2. Cases follow upstream's tests.
func TestBalancedAllocationScore(t *testing.T) {
	pod3x5 := st.MakePod().Req(res{"cpu": "1", "memory": "2000"}).Container("c2", res{"cpu": "2", "memory": "3000"}).Obj()
	cpuOnly := bound(res{"cpu": "3"})
	cpuMem := bound(res{"cpu": "3", "memory": "5000"})
	gpuRes := specs("cpu", 1, "memory", 1, "nvidia.com/gpu", 1)
	tests := []struct {
		name      string
		resources []config.ResourceSpec
		pod       *api.Pod
		nodes     []scoreNode
		want      []int64
	}{
		{
			// n1: with .75/.5 -> std .125 -> 87; without 0/0 -> 100: 50+(50+87-100)/2 = 68.
			// n2: with .5/.5 -> 100; without 100: 50+50/2 = 75.
			name:  "nothing scheduled, differently sized nodes",
			pod:   pod3x5,
			nodes: []scoreNode{{alloc: res{"cpu": "4", "memory": "10000"}}, {alloc: res{"cpu": "6", "memory": "10000"}}},
			want:  []int64{68, 75},
		},
		{
			// n1: with .6/.25 -> 82; without .3/0 -> 85: 50+(50+82-85)/2 = 73.
			// n2: with .6/.5 -> 95; without .3/.25 -> 97: 50+(48)/2 = 74.
			name: "pods scheduled with resources",
			pod:  pod3x5,
			nodes: []scoreNode{
				{alloc: res{"cpu": "10", "memory": "20000"}, pods: []*api.Pod{cpuOnly}},
				{alloc: res{"cpu": "10", "memory": "20000"}, pods: []*api.Pod{cpuMem}},
			},
			want: []int64{73, 74},
		},
		{
			// n1: with 1/1 -> 100; without 1/0 -> 50: 50+(100)/2 = 100.
			// n2: with 0/1 -> 50; without 0/0 -> 100: 50+0/2 = 50.
			name: "min and max scores",
			pod:  st.MakePod().Req(res{"memory": "2000"}).Container("c2", res{"memory": "3000"}).Obj(),
			nodes: []scoreNode{
				{alloc: res{"cpu": "3", "memory": "5000"}, pods: []*api.Pod{cpuOnly}},
				{alloc: res{"cpu": "3", "memory": "5000"}},
			},
			want: []int64{100, 50},
		},
		{
			// Fractions cap at 1. n1: with 1/0 -> 50; without .5/0 -> 75: 50+25/2 = 62.
			// n2: with 1/.5 -> 75; without .5/.5 -> 100: 50+25/2 = 62.
			name: "requests at node capacity",
			pod:  st.MakePod().Req(res{"cpu": "3"}).Obj(),
			nodes: []scoreNode{
				{alloc: res{"cpu": "6", "memory": "10000"}, pods: []*api.Pod{cpuOnly}},
				{alloc: res{"cpu": "6", "memory": "10000"}, pods: []*api.Pod{cpuMem}},
			},
			want: []int64{62, 62},
		},
		{
			// Three resources use the population std. n1: with (6/7, 1/8, 4/8)
			// -> 70; without (6/7, 1/8, 3/8) -> 69: 50+51/2 = 75.
			// n2: with (6/7, 1/8, 1/8) -> 65; without (6/7, 1/8, 0) -> 62: 76.
			name:      "requested scalar resource joins the deviation",
			resources: gpuRes,
			pod:       st.MakePod().Req(res{"cpu": "0", "memory": "0", "nvidia.com/gpu": "1"}).Obj(),
			nodes: []scoreNode{
				{alloc: res{"cpu": "3500m", "memory": "40000", "nvidia.com/gpu": "8"}, pods: []*api.Pod{bound(res{"cpu": "3", "memory": "5000", "nvidia.com/gpu": "3"})}},
				{alloc: res{"cpu": "3500m", "memory": "40000", "nvidia.com/gpu": "8"}, pods: []*api.Pod{cpuMem}},
			},
			want: []int64{75, 76},
		},
		{
			// gpu unrequested: two resources. with (6/7, 1/8) -> 63; without 100: 56.
			name:      "unrequested scalar resource is left out",
			resources: gpuRes,
			pod:       pod3x5,
			nodes: []scoreNode{
				{alloc: res{"cpu": "3500m", "memory": "40000", "nvidia.com/gpu": "8"}},
				{alloc: res{"cpu": "3500m", "memory": "40000"}},
			},
			want: []int64{56, 56},
		},
		{
			// BalancedAllocation honours pod-level requests (Fit does not) and
			// adds no non-zero defaults; checked against upstream.
			// n1: with .5/0 -> 75; without 100: 50+25/2 = 62.
			// n2: with .125/0 -> 93; without 100: 50+43/2 = 71.
			name: "pod-level requests count",
			pod:  withPodLevel(st.MakePod().Obj(), res{"cpu": "2"}),
			nodes: []scoreNode{
				{alloc: res{"cpu": "4", "memory": "8Gi"}},
				{alloc: res{"cpu": "16", "memory": "8Gi"}},
			},
			want: []int64{62, 71},
		},
		{
			// A single resource has no deviation: with and without both 100: 75.
			name:      "one resource",
			resources: specs("cpu", 1),
			pod:       st.MakePod().Req(res{"cpu": "1"}).Obj(),
			nodes:     []scoreNode{{alloc: res{"cpu": "4"}}},
			want:      []int64{75},
		},
	}
	for _, tt := range tests {
		for _, runPreScore := range []bool{true, false} {
			name := tt.name
			if !runPreScore {
				name += " (no PreScore)"
			}
			t.Run(name, func(t *testing.T) {
				pl := newBalanced(t, tt.resources)
				got := scoreNodes(t, pl, tt.pod, tt.nodes, runPreScore)
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("scores (-want +got):\n%s", diff)
				}
			})
		}
	}
}

func TestBalancedAllocationSkipsBestEffort(t *testing.T) {
	tests := []struct {
		name string
		pod  *api.Pod
		want framework.Code
	}{
		{name: "no requests: skip (no non-zero defaults here)", pod: st.MakePod().Obj(), want: framework.Skip},
		{name: "explicit zeros: skip", pod: st.MakePod().Req(res{"cpu": "0", "memory": "0"}).Obj(), want: framework.Skip},
		{name: "only an unscored resource: skip", pod: st.MakePod().Req(res{"example.com/gpu": "1"}).Obj(), want: framework.Skip},
		{name: "memory only: score", pod: st.MakePod().Req(res{"memory": "1"}).Obj(), want: framework.Success},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pl := newBalanced(t, nil)
			if got := pl.PreScore(framework.NewCycleState(), tt.pod, nil).Code(); got != tt.want {
				t.Errorf("PreScore code = %v, want %v", got, tt.want)
			}
		})
	}
	// Without PreScore, Score gives a best-effort pod 0.
	pl := newBalanced(t, nil)
	if score, s := pl.Score(framework.NewCycleState(), st.MakePod().Obj(), nodeInfo(res{"cpu": "1", "memory": "1"})); score != 0 || !s.IsSuccess() {
		t.Errorf("Score of a best-effort pod = %d, %v; want 0, success", score, s)
	}
}

func TestNewBalancedAllocationRejectsBadArgs(t *testing.T) {
	tests := []struct {
		name string
		args *config.NodeResourcesBalancedAllocationArgs
		want string
	}{
		{
			name: "weight other than 1",
			args: &config.NodeResourcesBalancedAllocationArgs{Resources: specs("cpu", 2)},
			want: "resources[0].weight: Invalid value: 2: must be 1",
		},
		{
			name: "duplicate resource",
			args: &config.NodeResourcesBalancedAllocationArgs{Resources: specs("cpu", 1, "cpu", 1)},
			want: `resources[1].name: Duplicate value: "cpu"`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewBalancedAllocation(tt.args, nil)
			if err == nil || err.Error() != tt.want {
				t.Errorf("error = %v, want %q", err, tt.want)
			}
		})
	}
}
