package framework_test

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

// TestNodeToStatusSetNodeInfo checks that statuses recorded by snapshot
// position read back exactly as statuses recorded by name: the same node
// twice counts once, the last status wins, a Reset forgets them, and
// NodeInfos outside the snapshot or naming another node at a known
// position still land under their own names.
func TestNodeToStatusSetNodeInfo(t *testing.T) {
	nodes := []*api.Node{
		st.MakeNode().Name("a").Obj(), st.MakeNode().Name("b").Obj(), st.MakeNode().Name("c").Obj(),
	}
	snap := framework.NewSnapshot(nil, nodes)
	get := func(name string) *framework.NodeInfo {
		ni, err := snap.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		return ni
	}
	other := framework.NewSnapshot(nil, []*api.Node{st.MakeNode().Name("x").Obj()})
	loose := framework.NewNodeInfo()
	loose.SetNode(st.MakeNode().Name("loose").Obj())
	// A new object for node b at b's position, as a node update leaves it.
	bUpdated := get("b").Clone()
	bUpdated.SetNode(st.MakeNode().Name("b").Obj())
	s1 := framework.NewStatus(framework.Unschedulable, "one")
	s2 := framework.NewStatus(framework.UnschedulableAndUnresolvable, "two")

	type set struct {
		ni *framework.NodeInfo
		s  *framework.Status
	}
	tests := []struct {
		name string
		sets []set
		// byName also calls Set(name) before the SetNodeInfo calls.
		byName map[string]*framework.Status
		want   map[string]string
	}{
		{name: "none", want: map[string]string{}},
		{name: "two nodes", sets: []set{{get("a"), s1}, {get("c"), s2}}, want: map[string]string{"a": "one", "c": "two"}},
		{name: "same node twice, last wins", sets: []set{{get("b"), s1}, {get("b").Clone(), s2}}, want: map[string]string{"b": "two"}},
		{name: "a new object for the same node at its position", sets: []set{{get("b"), s1}, {bUpdated, s2}}, want: map[string]string{"b": "two"}},
		{name: "another snapshot's node at a used position", sets: []set{{get("a"), s1}, {other.List()[0], s2}}, want: map[string]string{"a": "one", "x": "two"}},
		{name: "a NodeInfo outside a snapshot", sets: []set{{loose, s1}, {get("b"), s2}}, want: map[string]string{"loose": "one", "b": "two"}},
		{name: "statuses shared, interleaved and changed", sets: []set{{get("a"), s1}, {get("b"), s1}, {get("c"), s2}, {get("b"), s2}, {get("a"), s1}},
			want: map[string]string{"a": "one", "b": "two", "c": "two"}},
		{name: "another snapshot's node at a position used before the Reset", sets: []set{{other.List()[0], s2}}, want: map[string]string{"x": "two"}},
		{name: "after Set by name", byName: map[string]*framework.Status{"a": s2}, sets: []set{{get("a"), s1}, {get("c"), s1}},
			want: map[string]string{"a": "one", "c": "one"}},
	}
	m := framework.NewDefaultNodeToStatus()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// One map reused across cases, as the scheduler does.
			m.Reset()
			for n, s := range tt.byName {
				m.Set(n, s)
			}
			for _, x := range tt.sets {
				m.SetNodeInfo(x.ni, x.s)
			}
			if m.Len() != len(tt.want) {
				t.Errorf("Len() = %d, want %d", m.Len(), len(tt.want))
			}
			got := map[string]string{}
			m.ForEachExplicitNode(func(n string, s *framework.Status) { got[n] = s.Message() })
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ForEachExplicitNode (-want +got):\n%s", diff)
			}
			for n, msg := range tt.want {
				if g := m.Get(n).Message(); g != msg {
					t.Errorf("Get(%q) = %q, want %q", n, g, msg)
				}
			}
			if m.Len() != len(tt.want) {
				t.Errorf("Len() after reading = %d, want %d", m.Len(), len(tt.want))
			}
			if g := m.Get("nowhere"); g != m.AbsentNodesStatus() {
				t.Errorf("Get of an unset node = %v, want the absent-nodes status", g)
			}
		})
	}

	t.Run("pending statuses by code", func(t *testing.T) {
		m := framework.NewDefaultNodeToStatus()
		m.SetNodeInfo(get("c"), s1)
		m.SetNodeInfo(get("a"), s1)
		m.SetNodeInfo(get("b"), s2)
		nis, err := m.NodesForStatusCode(snap, framework.Unschedulable)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, ni := range nis {
			names = append(names, ni.Node().Name)
		}
		sort.Strings(names)
		if diff := cmp.Diff([]string{"a", "c"}, names); diff != "" {
			t.Errorf("NodesForStatusCode(Unschedulable) (-want +got):\n%s", diff)
		}
	})
}
