package controllers

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
	"github.com/schedplay/schedplay/core/scenario"
)

func TestSyncVolumes(t *testing.T) {
	now := st.StorageClass("now", api.NotSupportedProvisioner, api.VolumeBindingImmediate)
	dyn := st.StorageClass("dyn", "ebs.csi.aws.com", api.VolumeBindingImmediate,
		api.TopologySelectorTerm{MatchLabelExpressions: []api.TopologySelectorLabelRequirement{{Key: api.LabelTopologyZone, Values: []string{"zone-c", "zone-d"}}}})
	wait := st.StorageClass("wait", "ebs.csi.aws.com", api.VolumeBindingWaitForFirstConsumer)
	pending := func(w *st.PVWrapper) *api.PersistentVolume {
		v := w.Obj()
		v.Status.Phase = api.VolumePending
		return v
	}
	s := framework.NewStorage(
		[]*api.PersistentVolume{
			pending(st.MakePV("big").Class("now").Size("50Gi")),
			pending(st.MakePV("fits").Class("now").Size("5Gi")),
			pending(st.MakePV("for-later").Class("wait")),
			pending(st.MakePV("reserved").Class("wait").ClaimRef("pre")),
		},
		[]*api.PersistentVolumeClaim{
			st.MakePVC("a").Class("now").Size("4Gi").Obj(),
			st.MakePVC("b").Class("dyn").Obj(),
			st.MakePVC("c").Class("wait").Obj(),
			st.MakePVC("pre").Class("wait").Obj(),
			st.MakePVC("d").Class("wait").SelectedNode("node-b").Obj(),
		},
		[]*api.StorageClass{now, dyn, wait},
		[]*api.CSINode{st.CSINode("node-b", "ebs.csi.aws.com", 10)}, nil)
	nodeB := st.MakeNode().Name("node-b").Zone("zone-b").Obj()
	SyncVolumes(s, func(n string) *api.Node {
		if n == "node-b" {
			return nodeB
		}
		return nil
	}, scenario.DefaultT0)
	got := map[string]string{}
	for k, c := range s.Claims {
		got[k] = c.Status.Phase + " " + c.Spec.VolumeName
	}
	want := map[string]string{
		"default/a":   "Bound fits", // the smallest Available volume that fits
		"default/b":   "Bound pvc-pvc-b",
		"default/c":   "Pending ", // waits for the scheduler
		"default/pre": "Bound reserved",
		"default/d":   "Bound pvc-pvc-d",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("claims (-want +got):\n%s", diff)
	}
	zone := func(pv string) []string {
		v := s.PersistentVolume(pv)
		if v == nil || v.Spec.NodeAffinity == nil {
			return nil
		}
		return v.Spec.NodeAffinity.Required.NodeSelectorTerms[0].MatchExpressions[0].Values
	}
	if diff := cmp.Diff([]string{"zone-c"}, zone("pvc-pvc-b")); diff != "" {
		t.Errorf("Immediate provisioning takes the first allowed zone (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"zone-b"}, zone("pvc-pvc-d")); diff != "" {
		t.Errorf("provisioning for a selected node uses its zone (-want +got):\n%s", diff)
	}
	phases := map[string]string{}
	for n, v := range s.Volumes {
		phases[n] = v.Status.Phase
	}
	wantPhases := map[string]string{"big": "Available", "fits": "Bound", "for-later": "Available", "reserved": "Bound", "pvc-pvc-b": "Bound", "pvc-pvc-d": "Bound"}
	if diff := cmp.Diff(wantPhases, phases); diff != "" {
		t.Errorf("volume phases (-want +got):\n%s", diff)
	}
	if ann := s.PersistentVolumeClaim("default", "a").Annotations[api.AnnBindCompleted]; ann != "yes" {
		t.Errorf("bind-completed = %q", ann)
	}
}

func TestStatefulSetClaims(t *testing.T) {
	sts := &api.StatefulSet{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "shop"}}
	sts.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	sts.Spec.VolumeClaimTemplates = []api.PersistentVolumeClaimTemplate{{ObjectMeta: api.ObjectMeta{Name: "data", Labels: map[string]string{"tier": "db"}}}}
	sts.Spec.Template.Spec.Volumes = []api.Volume{{Name: "data", EmptyDir: map[string]any{}}}
	claims := StatefulSetClaims(sts, 2, scenario.DefaultT0)
	if len(claims) != 1 || claims[0].Key() != "shop/data-web-2" {
		t.Fatalf("claims = %+v", claims)
	}
	if diff := cmp.Diff(map[string]string{"tier": "db", "app": "web"}, claims[0].Labels); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
	p := StatefulSetPod(sts, 2, scenario.DefaultT0)
	want := []api.Volume{{Name: "data", PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: "data-web-2"}}}
	if diff := cmp.Diff(want, p.Spec.Volumes); diff != "" {
		t.Errorf("the template's volume of the same name is replaced (-want +got):\n%s", diff)
	}
}
