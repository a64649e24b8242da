package podtopologyspread

import (
	"testing"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

var (
	honorPolicy  = api.NodeInclusionPolicyHonor
	ignorePolicy = api.NodeInclusionPolicyIgnore
	// fooSelector selects pods having label foo, whatever its value.
	fooSelector = &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "foo", Operator: api.LabelSelectorOpExists}}}
	barSelector = &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "bar", Operator: api.LabelSelectorOpExists}}}
	// fooBar is the docs' "foo: bar" selector.
	fooBar = st.LabelSelector(map[string]string{"foo": "bar"})
)

func int32Ptr(v int32) *int32 { return &v }

// withoutLabel drops a label the st builder added (Name adds the hostname).
func withoutLabel(n *api.Node, key string) *api.Node {
	delete(n.Labels, key)
	return n
}

// docsNodes are the docs' cluster: zoneA holds node1 and node2, zoneB
// node3 and node4.
func docsNodes() []*api.Node {
	return []*api.Node{
		st.MakeNode().Name("node1").Zone("zoneA").Obj(),
		st.MakeNode().Name("node2").Zone("zoneA").Obj(),
		st.MakeNode().Name("node3").Zone("zoneB").Obj(),
		st.MakeNode().Name("node4").Zone("zoneB").Obj(),
	}
}

// newPlugin builds the plugin over a test handle; nil args mean the v1
// defaults (System defaulting).
func newPlugin(t *testing.T, args *config.PodTopologySpreadArgs, h *st.Handle) *PodTopologySpread {
	t.Helper()
	var a any
	if args != nil {
		a = args
	}
	p, err := New(a, h)
	if err != nil {
		t.Fatalf("creating plugin: %v", err)
	}
	return p.(*PodTopologySpread)
}

// ownedBy adds a controller reference with the given apiVersion and kind.
func ownedBy(p *api.Pod, apiVersion, kind, name string) *api.Pod {
	t := true
	p.OwnerReferences = append(p.OwnerReferences, api.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: name, Controller: &t})
	return p
}

// nodeInfosOf returns the snapshot's infos for the named nodes, in order.
func nodeInfosOf(t *testing.T, h *st.Handle, names []string) []*framework.NodeInfo {
	t.Helper()
	var out []*framework.NodeInfo
	for _, n := range names {
		ni, err := h.Snapshot.Get(n)
		if err != nil {
			t.Fatalf("getting node %s: %v", n, err)
		}
		out = append(out, ni)
	}
	return out
}

// namedNodes makes nodes labelled only with their hostname.
func namedNodes(names ...string) []*api.Node {
	out := make([]*api.Node, 0, len(names))
	for _, n := range names {
		out = append(out, st.MakeNode().Name(n).Obj())
	}
	return out
}

// docsPods are the docs' three pods labelled foo=bar on node1, node2, node3.
func docsPods() []*api.Pod {
	return []*api.Pod{
		st.MakePod().Name("p1").Label("foo", "bar").Node("node1").Obj(),
		st.MakePod().Name("p2").Label("foo", "bar").Node("node2").Obj(),
		st.MakePod().Name("p3").Label("foo", "bar").Node("node3").Obj(),
	}
}
