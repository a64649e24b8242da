package framework

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedplay/schedplay/core/api"
)

func TestMatchClusterEvents(t *testing.T) {
	for _, tt := range []struct {
		name       string
		registered ClusterEvent
		incoming   ClusterEvent
		want       bool
	}{
		{"specific update matches general", ClusterEvent{Resource: Node, ActionType: Update}, ClusterEvent{Resource: Node, ActionType: UpdateNodeLabel}, true},
		{"general update does not match specific", ClusterEvent{Resource: Node, ActionType: UpdateNodeLabel}, ClusterEvent{Resource: Node, ActionType: Update}, false},
		{"pod matches assigned pod", ClusterEvent{Resource: Pod, ActionType: Delete}, EventAssignedPodDelete, true},
		{"pod matches unscheduled pod", ClusterEvent{Resource: Pod, ActionType: Update}, EventUnscheduledPodUpdate, true},
		{"other resource", ClusterEvent{Resource: Node, ActionType: Add}, EventAssignedPodAdd, false},
		{"other action", ClusterEvent{Resource: Pod, ActionType: Delete}, EventAssignedPodAdd, false},
		{"wildcard registration matches anything", ClusterEvent{Resource: WildCard, ActionType: All}, EventNodeAdd, true},
		{"combined registration", ClusterEvent{Resource: Node, ActionType: Add | UpdateNodeTaint}, ClusterEvent{Resource: Node, ActionType: UpdateNodeTaint}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := MatchClusterEvents(tt.registered, tt.incoming); got != tt.want {
				t.Errorf("MatchClusterEvents(%s, %s) = %v, want %v", tt.registered.Label(), tt.incoming.Label(), got, tt.want)
			}
		})
	}
}

func TestLabels(t *testing.T) {
	got := []string{EventAssignedPodDelete.Label(), EventNodeAdd.Label(), EventUnschedulableTimeout.Label(),
		(ClusterEvent{Resource: Node, ActionType: UpdateNodeTaint}).Label(), EventUnscheduledPodUpdate.Label()}
	want := []string{"AssignedPodDelete", "NodeAdd", "UnschedulableTimeout", "NodeUpdateNodeTaint", "UnschedulablePodUpdate"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func pod(mut func(*api.Pod)) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default", Labels: map[string]string{"a": "1"}},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{"cpu": api.MustParseQuantity("2")}}}}}}
	if mut != nil {
		mut(p)
	}
	return p
}

func TestPodSchedulingPropertiesChange(t *testing.T) {
	for _, tt := range []struct {
		name     string
		old, new *api.Pod
		want     []ClusterEvent
	}{
		{"label change of an unscheduled pod", pod(nil), pod(func(p *api.Pod) { p.Labels = map[string]string{"a": "2"} }),
			[]ClusterEvent{{Resource: UnschedulablePod, ActionType: UpdatePodLabel}}},
		{"scale down of a bound pod", pod(func(p *api.Pod) { p.Spec.NodeName = "n" }), pod(func(p *api.Pod) {
			p.Spec.NodeName = "n"
			p.Spec.Containers[0].Resources.Requests = api.ResourceList{"cpu": api.MustParseQuantity("1")}
		}), []ClusterEvent{{Resource: AssignedPod, ActionType: UpdatePodScaleDown}}},
		{"gates eliminated and toleration added", pod(func(p *api.Pod) { p.Spec.SchedulingGates = []api.PodSchedulingGate{{Name: "g"}} }),
			pod(func(p *api.Pod) { p.Spec.Tolerations = []api.Toleration{{Key: "k", Operator: api.TolerationOpExists}} }),
			[]ClusterEvent{{Resource: UnschedulablePod, ActionType: UpdatePodSchedulingGatesEliminated}, {Resource: UnschedulablePod, ActionType: UpdatePodToleration}}},
		{"status only is a general update", pod(nil), pod(func(p *api.Pod) { p.Status.NominatedNodeName = "n" }),
			[]ClusterEvent{EventUnscheduledPodUpdate}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, PodSchedulingPropertiesChange(tt.new, tt.old)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestNodeSchedulingPropertiesChange(t *testing.T) {
	base := func() *api.Node {
		return &api.Node{ObjectMeta: api.ObjectMeta{Name: "n", Labels: map[string]string{"zone": "a"}},
			Status: api.NodeStatus{Allocatable: api.ResourceList{"cpu": api.MustParseQuantity("1")}}}
	}
	for _, tt := range []struct {
		name   string
		mutate func(old, new *api.Node)
		want   []ClusterEvent
	}{
		{"nothing", func(_, _ *api.Node) {}, nil},
		{"uncordon counts as taint update", func(o, n *api.Node) { o.Spec.Unschedulable = true }, []ClusterEvent{{Resource: Node, ActionType: UpdateNodeTaint}}},
		{"cordon is no event", func(o, n *api.Node) { n.Spec.Unschedulable = true }, nil},
		{"allocatable by value", func(o, n *api.Node) { n.Status.Allocatable = api.ResourceList{"cpu": api.MustParseQuantity("1000m")} }, nil},
		{"allocatable, labels and taints in upstream order", func(o, n *api.Node) {
			n.Status.Allocatable = api.ResourceList{"cpu": api.MustParseQuantity("2")}
			n.Labels = map[string]string{"zone": "b"}
			n.Spec.Taints = []api.Taint{{Key: "k", Effect: api.TaintEffectNoSchedule}}
		}, []ClusterEvent{{Resource: Node, ActionType: UpdateNodeAllocatable}, {Resource: Node, ActionType: UpdateNodeLabel}, {Resource: Node, ActionType: UpdateNodeTaint}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o, n := base(), base()
			tt.mutate(o, n)
			if diff := cmp.Diff(tt.want, NodeSchedulingPropertiesChange(n, o)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
