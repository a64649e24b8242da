package framework

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
)

// NodeSpec is the filters' copy of the node's spec: set by SetNode,
// replaced by the next SetNode, and kept by clones (preemption filters
// clones).
func TestNodeSpecFollowsSetNode(t *testing.T) {
	tainted := api.NodeSpec{Unschedulable: true, Taints: []api.Taint{{Key: "k", Value: "v", Effect: api.TaintEffectNoSchedule}}}
	ni := NewNodeInfo()
	if diff := cmp.Diff(api.NodeSpec{}, *ni.NodeSpec()); diff != "" {
		t.Errorf("before SetNode (-want +got):\n%s", diff)
	}
	ni.SetNode(&api.Node{ObjectMeta: api.ObjectMeta{Name: "n"}, Spec: tainted})
	if diff := cmp.Diff(tainted, *ni.NodeSpec()); diff != "" {
		t.Errorf("after SetNode (-want +got):\n%s", diff)
	}
	clone := ni.Clone()
	if diff := cmp.Diff(tainted, *clone.NodeSpec()); diff != "" {
		t.Errorf("clone (-want +got):\n%s", diff)
	}
	ni.SetNode(&api.Node{ObjectMeta: api.ObjectMeta{Name: "n"}})
	if diff := cmp.Diff(api.NodeSpec{}, *ni.NodeSpec()); diff != "" {
		t.Errorf("after a new SetNode (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(tainted, *clone.NodeSpec()); diff != "" {
		t.Errorf("clone after the original changed (-want +got):\n%s", diff)
	}
}
