package framework

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedplay/schedplay/core/api"
)

func zoned(name, region, zone string) *api.Node {
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{}}}
	if region != "" {
		n.Labels[api.LabelTopologyRegion] = region
	}
	if zone != "" {
		n.Labels[api.LabelTopologyZone] = zone
	}
	return n
}

// Upstream's nodeTree lists one node per zone per round, zones in order of
// first appearance (node_tree_test.go's TestNodeTree_List facts).
func TestNodeTreeOrderInterleavesZones(t *testing.T) {
	nodes := []*api.Node{
		zoned("a1", "r", "a"), zoned("a2", "r", "a"), zoned("a3", "r", "a"),
		zoned("b1", "r", "b"), zoned("c1", "r", "c"), zoned("c2", "r", "c"),
		zoned("none", "", ""),
	}
	want := []string{"a1", "b1", "c1", "none", "a2", "c2", "a3"}
	if diff := cmp.Diff(want, NodeTreeOrder(nodes)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// A zone label alone and the legacy failure-domain label both form zone keys;
// the same zone name in two regions is two zones.
func TestGetZoneKey(t *testing.T) {
	legacy := &api.Node{ObjectMeta: api.ObjectMeta{Labels: map[string]string{api.LabelFailureDomainZone: "z"}}}
	if got := GetZoneKey(legacy); got != ":\x00:z" {
		t.Errorf("legacy label: %q", got)
	}
	if GetZoneKey(zoned("x", "r1", "z")) == GetZoneKey(zoned("y", "r2", "z")) {
		t.Errorf("same zone in two regions must differ")
	}
	if got := GetZoneKey(zoned("x", "", "")); got != "" {
		t.Errorf("no labels: %q", got)
	}
}

// The snapshot lists nodes sorted by name (the API server's LIST order),
// then interleaved by zone.
func TestSnapshotListOrder(t *testing.T) {
	s := NewSnapshot(nil, []*api.Node{zoned("b2", "r", "b"), zoned("a1", "r", "a"), zoned("b1", "r", "b"), zoned("a2", "r", "a")})
	var got []string
	for _, ni := range s.List() {
		got = append(got, ni.Node().Name)
	}
	if diff := cmp.Diff([]string{"a1", "b1", "a2", "b2"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
