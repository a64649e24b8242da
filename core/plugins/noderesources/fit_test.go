package noderesources

import (
	"errors"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

type res = map[string]string

// nodeInfo builds a NodeInfo for node n1 with the given allocatable and pods.
func nodeInfo(alloc res, pods ...*api.Pod) *framework.NodeInfo {
	ni := framework.NewNodeInfo(pods...)
	ni.SetNode(st.MakeNode().Name("n1").Capacity(alloc).Obj())
	return ni
}

func withPodLevel(p *api.Pod, req res) *api.Pod {
	p.Spec.Resources = &api.ResourceRequirements{Requests: st.ResourceList(req)}
	return p
}

func defaultFitArgs() *config.NodeResourcesFitArgs {
	a := &config.NodeResourcesFitArgs{}
	config.SetDefaultArgs(a)
	return a
}

func newFit(t testing.TB, args *config.NodeResourcesFitArgs) *Fit {
	t.Helper()
	pl, err := NewFit(args, nil)
	if err != nil {
		t.Fatalf("NewFit: %v", err)
	}
	return pl.(*Fit)
}

func TestFitFilter(t *testing.T) {
	// Node n1: 10 cpu, 20 bytes of memory, 32 pods, 5 example.com/aaa,
	// 20 bytes of ephemeral storage, 5 hugepages-2Mi (as upstream's fixture).
	alloc := res{"cpu": "10", "memory": "20", "pods": "32", "example.com/aaa": "5", "ephemeral-storage": "20", "hugepages-2Mi": "5"}
	used := func(r res) *api.Pod { return st.MakePod().Name("used").Node("n1").Req(r).Obj() }
	tests := []struct {
		name    string
		pod     *api.Pod
		alloc   res
		pods    []*api.Pod
		args    *config.NodeResourcesFitArgs
		want    *framework.Status
		wantIns []InsufficientResource
	}{
		{
			name: "no resources requested always fits",
			pod:  st.MakePod().Obj(),
			pods: []*api.Pod{used(res{"cpu": "10", "memory": "20"})},
		},
		{
			name: "cpu and memory both short, in that order",
			pod:  st.MakePod().Req(res{"cpu": "1", "memory": "1"}).Obj(),
			pods: []*api.Pod{used(res{"cpu": "10", "memory": "20"})},
			want: framework.NewStatus(framework.Unschedulable, ReasonInsufficientCPU, ReasonInsufficientMemory),
			wantIns: []InsufficientResource{
				{ResourceName: "cpu", Reason: "Insufficient cpu", Requested: 1000, Used: 10000, Capacity: 10000},
				{ResourceName: "memory", Reason: "Insufficient memory", Requested: 1, Used: 20, Capacity: 20},
			},
		},
		{
			name: "init container is the floor: 3 cpu does not fit in 2 free",
			pod:  st.MakePod().Req(res{"cpu": "1"}).InitReq(res{"cpu": "3"}, false).Obj(),
			pods: []*api.Pod{used(res{"cpu": "8"})},
			want: framework.NewStatus(framework.Unschedulable, ReasonInsufficientCPU),
		},
		{
			name: "init container max, not sum, fits",
			pod:  st.MakePod().Req(res{"cpu": "1"}).InitReq(res{"cpu": "2"}, false).InitReq(res{"cpu": "2"}, false).Obj(),
			pods: []*api.Pod{used(res{"cpu": "8"})},
		},
		{
			name: "sidecar adds to the app containers",
			pod:  st.MakePod().Req(res{"cpu": "1"}).InitReq(res{"cpu": "2"}, true).Obj(),
			pods: []*api.Pod{used(res{"cpu": "8"})},
			want: framework.NewStatus(framework.Unschedulable, ReasonInsufficientCPU),
		},
		{
			name: "equal edge case fits",
			pod:  st.MakePod().Req(res{"cpu": "5", "memory": "10"}).Obj(),
			pods: []*api.Pod{used(res{"cpu": "5", "memory": "10"})},
		},
		{
			name: "extended resource over allocatable is unresolvable",
			pod:  st.MakePod().Req(res{"example.com/aaa": "10"}).Obj(),
			want: framework.NewStatus(framework.UnschedulableAndUnresolvable, "Insufficient example.com/aaa"),
			wantIns: []InsufficientResource{
				{ResourceName: "example.com/aaa", Reason: "Insufficient example.com/aaa", Requested: 10, Capacity: 5, Unresolvable: true},
			},
		},
		{
			name: "extended resource in use is resolvable",
			pod:  st.MakePod().Req(res{"example.com/aaa": "1"}).Obj(),
			pods: []*api.Pod{used(res{"example.com/aaa": "5"})},
			want: framework.NewStatus(framework.Unschedulable, "Insufficient example.com/aaa"),
		},
		{
			name: "extended resource the node lacks is unresolvable",
			pod:  st.MakePod().Req(res{"example.com/bbb": "1"}).Obj(),
			want: framework.NewStatus(framework.UnschedulableAndUnresolvable, "Insufficient example.com/bbb"),
			wantIns: []InsufficientResource{
				{ResourceName: "example.com/bbb", Reason: "Insufficient example.com/bbb", Requested: 1, Unresolvable: true},
			},
		},
		{
			name: "kubernetes.io resource is checked",
			pod:  st.MakePod().Req(res{"kubernetes.io/something": "10"}).Obj(),
			want: framework.NewStatus(framework.UnschedulableAndUnresolvable, "Insufficient kubernetes.io/something"),
		},
		{
			name: "hugepages are checked",
			pod:  st.MakePod().Req(res{"hugepages-2Mi": "6"}).Obj(),
			want: framework.NewStatus(framework.UnschedulableAndUnresolvable, "Insufficient hugepages-2Mi"),
		},
		{
			name: "ephemeral storage short",
			pod:  st.MakePod().Req(res{"ephemeral-storage": "5"}).Obj(),
			pods: []*api.Pod{used(res{"ephemeral-storage": "18"})},
			want: framework.NewStatus(framework.Unschedulable, ReasonInsufficientEphemeralStorage),
			wantIns: []InsufficientResource{
				{ResourceName: "ephemeral-storage", Reason: "Insufficient ephemeral-storage", Requested: 5, Used: 18, Capacity: 20},
			},
		},
		{
			name: "ignored extended resource is skipped",
			pod:  st.MakePod().Req(res{"example.com/bbb": "1"}).Obj(),
			args: &config.NodeResourcesFitArgs{IgnoredResources: []string{"example.com/bbb"}},
		},
		{
			name: "ignored resource group skips extended resources only",
			pod:  st.MakePod().Req(res{"example.com/bbb": "1", "kubernetes.io/something": "1"}).Obj(),
			args: &config.NodeResourcesFitArgs{IgnoredResourceGroups: []string{"example.com", "kubernetes.io"}},
			want: framework.NewStatus(framework.UnschedulableAndUnresolvable, "Insufficient kubernetes.io/something"),
		},
		{
			name: "zero extended request is skipped",
			pod:  st.MakePod().Req(res{"example.com/bbb": "0"}).Obj(),
		},
		{
			name: "overhead counts: 11 memory does not fit in 10 free",
			pod:  st.MakePod().Req(res{"memory": "1"}).Overhead(res{"memory": "10"}).Obj(),
			pods: []*api.Pod{used(res{"memory": "10"})},
			want: framework.NewStatus(framework.Unschedulable, ReasonInsufficientMemory),
		},
		{
			name: "pod-level cpu replaces the container sum",
			pod:  withPodLevel(st.MakePod().Req(res{"cpu": "1"}).Obj(), res{"cpu": "7"}),
			pods: []*api.Pod{used(res{"cpu": "5"})},
			want: framework.NewStatus(framework.Unschedulable, ReasonInsufficientCPU),
			wantIns: []InsufficientResource{
				{ResourceName: "cpu", Reason: "Insufficient cpu", Requested: 7000, Used: 5000, Capacity: 10000},
			},
		},
		{
			name: "any unresolvable shortfall makes the status unresolvable",
			pod:  st.MakePod().Req(res{"cpu": "1", "memory": "21"}).Obj(),
			pods: []*api.Pod{used(res{"cpu": "10"})},
			want: framework.NewStatus(framework.UnschedulableAndUnresolvable, ReasonInsufficientCPU, ReasonInsufficientMemory),
		},
		{
			name:  "too many pods comes first",
			pod:   st.MakePod().Req(res{"cpu": "1"}).Obj(),
			alloc: res{"cpu": "1", "pods": "1"},
			pods:  []*api.Pod{used(res{"cpu": "1"})},
			want:  framework.NewStatus(framework.Unschedulable, ReasonTooManyPods, ReasonInsufficientCPU),
			wantIns: []InsufficientResource{
				{ResourceName: "pods", Reason: "Too many pods", Requested: 1, Used: 1, Capacity: 1},
				{ResourceName: "cpu", Reason: "Insufficient cpu", Requested: 1000, Used: 1000, Capacity: 1000},
			},
		},
		{
			name:  "a node without a pods allocatable holds nothing, and that is resolvable",
			pod:   st.MakePod().Obj(),
			alloc: res{"cpu": "1"},
			want:  framework.NewStatus(framework.Unschedulable, ReasonTooManyPods),
		},
		{
			name: "several scalar shortfalls are listed by name",
			pod:  st.MakePod().Req(res{"example.com/zzz": "1", "example.com/aaa": "6", "hugepages-2Mi": "6"}).Obj(),
			want: framework.NewStatus(framework.UnschedulableAndUnresolvable,
				"Insufficient example.com/aaa", "Insufficient example.com/zzz", "Insufficient hugepages-2Mi"),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := tt.args
			if args == nil {
				args = &config.NodeResourcesFitArgs{}
			}
			config.SetDefaultArgs(args)
			pl := newFit(t, args)
			a := tt.alloc
			if a == nil {
				a = alloc
			}
			ni := nodeInfo(a, tt.pods...)
			state := framework.NewCycleState()
			if _, s := pl.PreFilter(state, tt.pod, nil); !s.IsSuccess() {
				t.Fatalf("PreFilter: %v", s)
			}
			got := pl.Filter(state, tt.pod, ni)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Filter status (-want +got):\n%s", diff)
			}
			batch := []*framework.Status{nil}
			pl.FilterNodes(state, tt.pod, []*framework.NodeInfo{ni}, batch)
			if diff := cmp.Diff(tt.want, batch[0]); diff != "" {
				t.Errorf("FilterNodes status (-want +got):\n%s", diff)
			}
			if tt.wantIns != nil && tt.args == nil {
				if diff := cmp.Diff(tt.wantIns, Fits(tt.pod, ni)); diff != "" {
					t.Errorf("Fits (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestFitFilterWithoutPreFilter(t *testing.T) {
	pl := newFit(t, defaultFitArgs())
	got := pl.Filter(framework.NewCycleState(), st.MakePod().Obj(), nodeInfo(res{"pods": "1"}))
	want := `error reading "PreFilterNodeResourcesFit" from cycleState: not found`
	if got.Code() != framework.Error || got.Message() != want {
		t.Errorf("Filter = %v, want Error %q", got, want)
	}
	if !errors.Is(got.AsError(), framework.ErrNotFound) {
		t.Errorf("Filter error does not wrap ErrNotFound: %v", got.AsError())
	}
}

// Filter remembers the data it last read from a state; every change to
// that state (a new PreFilter, Write, Delete, Reset) and every other state
// (a clone) must be read afresh.
func TestFitFilterFollowsTheState(t *testing.T) {
	pl := newFit(t, defaultFitArgs())
	ni := nodeInfo(res{"cpu": "2", "memory": "2Gi", "pods": "10"})
	small := st.MakePod().Req(res{"cpu": "1"}).Obj()
	big := st.MakePod().Req(res{"cpu": "3"}).Obj()
	const notFound = `error reading "PreFilterNodeResourcesFit" from cycleState: not found`
	tooBig := framework.NewStatus(framework.UnschedulableAndUnresolvable, ReasonInsufficientCPU)

	state := framework.NewCycleState()
	check := func(step string, state *framework.CycleState, want *framework.Status, wantMsg string) {
		t.Helper()
		got := pl.Filter(state, small, ni)
		if wantMsg != "" {
			if got.Code() != framework.Error || got.Message() != wantMsg {
				t.Errorf("%s: Filter = %v, want Error %q", step, got, wantMsg)
			}
			return
		}
		if !got.Equal(want) {
			t.Errorf("%s: Filter = %v, want %v", step, got, want)
		}
	}
	prefilter := func(state *framework.CycleState, p *api.Pod) {
		t.Helper()
		if _, s := pl.PreFilter(state, p, nil); !s.IsSuccess() {
			t.Fatalf("PreFilter: %v", s)
		}
	}
	prefilter(state, small)
	check("after PreFilter", state, nil, "")
	check("same state again", state, nil, "")
	prefilter(state, big)
	check("PreFilter again on the same state", state, tooBig, "")
	state.Write(preFilterStateKey, computePodResourceRequest(small))
	check("written directly", state, nil, "")
	state.Delete(preFilterStateKey)
	check("deleted", state, nil, notFound)
	prefilter(state, big)
	check("PreFilter after Delete", state, tooBig, "")
	state.Reset()
	check("after Reset", state, nil, notFound)

	prefilter(state, small)
	clone := state.Clone()
	clone.Write(preFilterStateKey, computePodResourceRequest(big))
	check("changed clone", clone, tooBig, "")
	check("original after the clone", state, nil, "")
}

// TestFilterNodesMatchesFilter compares FilterNodes with Filter on nodes
// filled to around the pod's request, one pod short of their pod limit or
// at it, for pods with and without scalar requests: hasRoom must pass
// exactly the nodes Filter passes.
func TestFilterNodesMatchesFilter(t *testing.T) {
	pods := map[string]*api.Pod{
		"nothing":       st.MakePod().Obj(),
		"cpu":           st.MakePod().Req(res{"cpu": "2"}).Obj(),
		"cpu memory":    st.MakePod().Req(res{"cpu": "2", "memory": "2Gi"}).Obj(),
		"all three":     st.MakePod().Req(res{"cpu": "2", "memory": "2Gi", "ephemeral-storage": "2Gi"}).Obj(),
		"with a scalar": st.MakePod().Req(res{"cpu": "2", "example.com/aaa": "1"}).Obj(),
	}
	var nodes []*framework.NodeInfo
	for _, free := range []string{"1", "2", "3"} { // cpu, memory and storage free: short, exact, room
		for _, maxPods := range []string{"1", "2", "3"} {
			used := st.MakePod().Name("used").Node("n1").Req(res{"cpu": "6", "memory": "6Gi", "ephemeral-storage": "6Gi"}).Obj()
			alloc := res{"cpu": addUnits("6", free, ""), "memory": addUnits("6", free, "Gi"), "ephemeral-storage": addUnits("6", free, "Gi"),
				"pods": maxPods, "example.com/aaa": "1"}
			nodes = append(nodes, nodeInfo(alloc, used))
		}
	}
	nodes = append(nodes, nodeInfo(res{"cpu": "8"}), nodeInfo(res{"pods": "5"}))
	for name, pod := range pods {
		t.Run(name, func(t *testing.T) {
			pl := newFit(t, defaultFitArgs())
			state := framework.NewCycleState()
			if _, s := pl.PreFilter(state, pod, nil); !s.IsSuccess() {
				t.Fatalf("PreFilter: %v", s)
			}
			batch := make([]*framework.Status, len(nodes))
			pl.FilterNodes(state, pod, nodes, batch)
			passed := 0
			for i, ni := range nodes {
				want := pl.Filter(state, pod, ni)
				if diff := cmp.Diff(want, batch[i]); diff != "" {
					t.Errorf("node %d: FilterNodes status (-Filter +FilterNodes):\n%s", i, diff)
				}
				if want == nil {
					passed++
				}
			}
			if passed == 0 || passed == len(nodes) {
				t.Errorf("%d of %d nodes pass: the cases do not straddle the limits", passed, len(nodes))
			}
		})
	}
}

// addUnits is the quantity a+b (whole numbers) with unit.
func addUnits(a, b, unit string) string {
	x, _ := strconv.Atoi(a)
	y, _ := strconv.Atoi(b)
	return strconv.Itoa(x+y) + unit
}
