package framework

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
)

func TestSnapshotImageStates(t *testing.T) {
	node := func(name string, images ...api.ContainerImage) *api.Node {
		return &api.Node{ObjectMeta: api.ObjectMeta{Name: name}, Status: api.NodeStatus{Images: images}}
	}
	// Listed out of name order: sizes come from the first node by name.
	s := NewSnapshot(nil, []*api.Node{
		node("b", api.ContainerImage{Names: []string{"app:v1", "app:latest"}, SizeBytes: 200}),
		node("a", api.ContainerImage{Names: []string{"app:v1"}, SizeBytes: 100}),
		node("c"),
	})
	got := map[string]map[string]ImageStateSummary{}
	for _, ni := range s.List() {
		m := map[string]ImageStateSummary{}
		for name, st := range ni.ImageStates {
			m[name] = *st
		}
		got[ni.Node().Name] = m
	}
	want := map[string]map[string]ImageStateSummary{
		"a": {"app:v1": {Size: 100, NumNodes: 2}},
		"b": {"app:v1": {Size: 100, NumNodes: 2}, "app:latest": {Size: 200, NumNodes: 1}},
		"c": {},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("image states (-want +got):\n%s", diff)
	}
	// A node without images has no map at all (ImageLocality's per-node
	// check then reads nothing more).
	if c, _ := s.Get("c"); c.ImageStates != nil {
		t.Errorf("node c: ImageStates = %v, want nil", c.ImageStates)
	}
}
