package framework_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

// TestChangeLogNamesChangedNodes pins what caches rely on: every change to a
// snapshot's node (through the snapshot or the NodeInfo itself) is logged
// with the node's List position, clones keep the position but log nothing,
// and a reader that fell behind what the log keeps is told so.
func TestChangeLogNamesChangedNodes(t *testing.T) {
	nodes := []*api.Node{
		st.MakeNode().Name("a").Zone("z1").Obj(),
		st.MakeNode().Name("b").Zone("z1").Obj(),
		st.MakeNode().Name("c").Zone("z2").Obj(),
	}
	p := st.MakePod().Name("p").Node("b").Obj()
	snap := framework.NewSnapshot(nil, nodes)
	// Node-tree order interleaves zones: a, c, b.
	var order []string
	for i, ni := range snap.List() {
		order = append(order, ni.Node().Name)
		if got := ni.Index(); got != i {
			t.Errorf("%s: Index() = %d, want %d", ni.Node().Name, got, i)
		}
	}
	if diff := cmp.Diff([]string{"a", "c", "b"}, order); diff != "" {
		t.Fatalf("List order (-want +got):\n%s", diff)
	}
	log := snap.List()[0].ChangeLog()
	if log == nil {
		t.Fatal("a snapshot's NodeInfo has no change log")
	}
	start := log.End()

	if err := snap.AddPod(p); err != nil {
		t.Fatal(err)
	}
	updated := *p
	updated.Labels = map[string]string{"x": "y"}
	if err := snap.UpdatePod(p, &updated); err != nil {
		t.Fatal(err)
	}
	a, _ := snap.Get("a")
	a.AddPod(st.MakePod().Name("q").Node("a").Obj())
	clone := a.Clone()
	clone.AddPod(st.MakePod().Name("r").Node("a").Obj())
	if err := snap.RemovePod(&updated); err != nil {
		t.Fatal(err)
	}
	got, ok := log.Since(start)
	if !ok {
		t.Fatal("Since(start) not ok")
	}
	// b: add, update (remove and add), remove; a: direct add. Not the clone.
	if diff := cmp.Diff([]int32{2, 2, 2, 0, 2}, got); diff != "" {
		t.Errorf("changes since start (-want +got):\n%s", diff)
	}
	if clone.ChangeLog() != nil || clone.Index() != 0 {
		t.Errorf("clone: ChangeLog() = %p, Index() = %d; want nil, 0", clone.ChangeLog(), clone.Index())
	}
	if ni := framework.NewNodeInfo(); ni.Index() != -1 || ni.ChangeLog() != nil {
		t.Errorf("NodeInfo outside a snapshot: Index() = %d, ChangeLog() = %p; want -1, nil", ni.Index(), ni.ChangeLog())
	}
	if _, ok := log.Since(log.End() + 1); ok {
		t.Error("Since a position after the end is ok")
	}

	// Far more changes than the log keeps: the early positions are gone.
	for range 3000 {
		a.AddPod(p)
		if err := a.RemovePod(p); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := log.Since(start); ok {
		t.Error("Since(start) still ok after 6,000 changes")
	}
	end := log.End()
	c, _ := snap.Get("c")
	c.AddPod(p)
	got, ok = log.Since(end)
	if diff := cmp.Diff([]int32{1}, got); !ok || diff != "" {
		t.Errorf("changes since the end (ok %v, -want +got):\n%s", ok, diff)
	}
	if other := framework.NewSnapshot(nil, nodes); other.List()[0].ChangeLog() == log {
		t.Error("a rebuilt snapshot shares the old log")
	}
}
