package engine

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/scenario"
)

func loadExample(t *testing.T, name string) *Simulation {
	t.Helper()
	b, err := os.ReadFile("../../examples/" + name + ".yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Load(name+".yaml", b)
	if err != nil {
		t.Fatal(err)
	}
	sim, err := Simulate(sc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return sim
}

// TestPodStorageAt: a pod's claims before and after PreBind bound them,
// and the zone a bound volume pins the pod to.
func TestPodStorageAt(t *testing.T) {
	sim := loadExample(t, "storage-dynamic-provisioning")
	preBind := -1
	for _, e := range sim.Trace() {
		if e.Kind == EvPreBind && e.Pod == "default/web-1" {
			preBind = e.Seq
		}
	}
	if preBind < 0 {
		t.Fatal("no PreBind for web-1")
	}
	before := sim.PodStorageAt("default/web-1", preBind-1)
	want := &PodStorage{Claims: []ClaimState{{
		Volume: "www", Claim: "www-web-1", Phase: "Pending", Class: "gp3", BindingMode: "WaitForFirstConsumer",
		AccessModes: []string{"ReadWriteOnce"}, Size: "1Gi",
		Note: "WaitForFirstConsumer: bound in PreBind once the scheduler picks a node",
	}}}
	if diff := cmp.Diff(want, before); diff != "" {
		t.Errorf("before PreBind (-want +got):\n%s", diff)
	}
	after := sim.PodStorageAt("default/web-1", len(sim.Trace())-1)
	want = &PodStorage{Claims: []ClaimState{{
		Volume: "www", Claim: "www-web-1", Phase: "Bound", Class: "gp3", BindingMode: "WaitForFirstConsumer",
		AccessModes: []string{"ReadWriteOnce"}, Size: "1Gi", PV: "pvc-pvc-default-www-web-1",
		Pinned: "topology.kubernetes.io/zone In zone-b", Zones: []string{"zone-b"},
	}}, Zones: []string{"zone-b"}}
	if diff := cmp.Diff(want, after); diff != "" {
		t.Errorf("at the end (-want +got):\n%s", diff)
	}

	zoneB := loadExample(t, "statefulset-pending-in-zone-b").PodStorageAt("default/db-1", -1)
	if diff := cmp.Diff([]string{"zone-b"}, zoneB.Zones); zoneB == nil || diff != "" {
		t.Errorf("db-1's zones (-want +got):\n%s", diff)
	}
	missing := loadExample(t, "storage-missing-claim").PodStorageAt("default/app", 0)
	if missing == nil || len(missing.Claims) != 1 || !missing.Claims[0].Missing {
		t.Errorf("missing claim: %+v", missing)
	}
}
