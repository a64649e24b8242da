package volumebinding

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

type storage struct {
	pvs     []*api.PersistentVolume
	pvcs    []*api.PersistentVolumeClaim
	classes []*api.StorageClass
}

func newPlugin(t *testing.T, s storage, nodes ...*api.Node) (*VolumeBinding, *st.Handle) {
	t.Helper()
	h := st.NewHandle(nil, nodes)
	h.Lister.StorageObjects = framework.NewStorage(s.pvs, s.pvcs, s.classes, nil, nil)
	p, err := New(nil, h)
	if err != nil {
		t.Fatalf("creating plugin: %v", err)
	}
	return p.(*VolumeBinding), h
}

func nodeInfo(n *api.Node) *framework.NodeInfo {
	ni := framework.NewNodeInfo()
	ni.SetNode(n)
	return ni
}

func TestPodWithoutClaims(t *testing.T) {
	pod := st.MakePod().Name("p").Obj()
	pl, _ := newPlugin(t, storage{})
	state := framework.NewCycleState()
	res, s := pl.PreFilter(state, pod, nil)
	if res != nil || !s.IsSkip() {
		t.Fatalf("PreFilter = %v, %v; want nil, Skip", res, s)
	}
	// Without StorageCapacityScoring upstream's scorer is nil: PreScore skips.
	if diff := cmp.Diff(framework.NewStatus(framework.Skip), pl.PreScore(state, pod, nil)); diff != "" {
		t.Errorf("PreScore (-want +got):\n%s", diff)
	}
	if s := pl.Reserve(state, pod, "n"); !s.IsSuccess() {
		t.Errorf("Reserve: %v", s)
	}
	if s := pl.PreBind(state, pod, "n"); !s.IsSkip() {
		t.Errorf("PreBind = %v, want Skip", s)
	}
}

var (
	wffc      = api.VolumeBindingWaitForFirstConsumer
	immediate = api.VolumeBindingImmediate
)

func TestPreFilterAndFilter(t *testing.T) {
	nodeA := st.MakeNode().Name("node-a").Zone("zone-a").Obj()
	nodeB := st.MakeNode().Name("node-b").Zone("zone-b").Obj()
	wait := st.StorageClass("wait", "ebs.csi.aws.com", wffc)
	static := st.StorageClass("static", api.NotSupportedProvisioner, wffc)
	now := st.StorageClass("now", "ebs.csi.aws.com", immediate)
	zonal := st.StorageClass("zonal", "ebs.csi.aws.com", wffc, api.TopologySelectorTerm{MatchLabelExpressions: []api.TopologySelectorLabelRequirement{{Key: api.LabelTopologyZone, Values: []string{"zone-b"}}}})
	tests := []struct {
		name      string
		claims    []*api.PersistentVolumeClaim
		volumes   []*api.PersistentVolume
		preFilter *framework.Status
		// filter is the status per node, when PreFilter passes.
		filter map[string]*framework.Status
		// static and provisioned: what Filter found for node-a.
		static, provisioned []string
	}{
		{
			name:      "missing claim",
			preFilter: framework.NewStatus(framework.UnschedulableAndUnresolvable, `persistentvolumeclaim "data" not found`),
		},
		{
			name:      "unbound immediate claim",
			claims:    []*api.PersistentVolumeClaim{st.MakePVC("data").Class("now").Obj()},
			preFilter: framework.NewStatus(framework.UnschedulableAndUnresolvable, ReasonUnboundImmediate),
		},
		{
			name:      "claim of a class that does not exist is immediate",
			claims:    []*api.PersistentVolumeClaim{st.MakePVC("data").Class("gone").Obj()},
			preFilter: framework.NewStatus(framework.UnschedulableAndUnresolvable, ReasonUnboundImmediate),
		},
		{
			name:    "bound to a zonal volume",
			claims:  []*api.PersistentVolumeClaim{st.MakePVC("data").Class("wait").BoundTo("pv-a").Obj()},
			volumes: []*api.PersistentVolume{st.MakePV("pv-a").Class("wait").Zone("zone-a").ClaimRef("data").Obj()},
			filter: map[string]*framework.Status{
				"node-a": nil,
				"node-b": framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonNodeConflict),
			},
		},
		{
			name:   "bound to a volume that does not exist",
			claims: []*api.PersistentVolumeClaim{st.MakePVC("data").Class("wait").BoundTo("pv-gone").Obj()},
			filter: map[string]*framework.Status{
				"node-a": framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonPVNotExist),
				"node-b": framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonPVNotExist),
			},
		},
		{
			name:   "delayed claim, static volume in one zone, smallest fitting volume",
			claims: []*api.PersistentVolumeClaim{st.MakePVC("data").Class("static").Size("5Gi").Obj()},
			volumes: []*api.PersistentVolume{
				st.MakePV("big-a").Class("static").Size("100Gi").Zone("zone-a").Obj(),
				st.MakePV("small-a").Class("static").Size("5Gi").Zone("zone-a").Obj(),
				st.MakePV("tiny-a").Class("static").Size("1Gi").Zone("zone-a").Obj(),
				st.MakePV("other-class-b").Class("wait").Zone("zone-b").Obj(),
			},
			filter: map[string]*framework.Status{
				"node-a": nil,
				"node-b": framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonBindConflict),
			},
			static: []string{"small-a"},
		},
		{
			name:        "delayed claim, dynamic provisioning anywhere",
			claims:      []*api.PersistentVolumeClaim{st.MakePVC("data").Class("wait").Obj()},
			filter:      map[string]*framework.Status{"node-a": nil, "node-b": nil},
			provisioned: []string{"data"},
		},
		{
			name:   "delayed claim, provisioning limited by allowed topologies",
			claims: []*api.PersistentVolumeClaim{st.MakePVC("data").Class("zonal").Obj()},
			filter: map[string]*framework.Status{
				"node-a": framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonBindConflict),
				"node-b": nil,
			},
		},
		{
			name:   "delayed claim already given to another node",
			claims: []*api.PersistentVolumeClaim{st.MakePVC("data").Class("wait").SelectedNode("node-b").Obj()},
			filter: map[string]*framework.Status{
				"node-a": framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonBindConflict),
				"node-b": nil,
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pl, _ := newPlugin(t, storage{pvs: tc.volumes, pvcs: tc.claims, classes: []*api.StorageClass{wait, static, now, zonal}}, nodeA, nodeB)
			pod := st.MakePod().Name("p").Claim("data").Obj()
			state := framework.NewCycleState()
			_, s := pl.PreFilter(state, pod, nil)
			if diff := cmp.Diff(tc.preFilter, s); diff != "" {
				t.Fatalf("PreFilter (-want +got):\n%s", diff)
			}
			if tc.preFilter != nil {
				return
			}
			for _, n := range []*api.Node{nodeA, nodeB} {
				if diff := cmp.Diff(tc.filter[n.Name], pl.Filter(state, pod, nodeInfo(n))); diff != "" {
					t.Errorf("Filter %s (-want +got):\n%s", n.Name, diff)
				}
			}
			sd, _ := getStateData(state)
			var gotStatic, gotProv []string
			if v := sd.podVolumesByNode["node-a"]; v != nil {
				for _, b := range v.StaticBindings {
					gotStatic = append(gotStatic, b.PV.Name)
				}
				for _, c := range v.DynamicProvisions {
					gotProv = append(gotProv, c.Name)
				}
			}
			if diff := cmp.Diff(tc.static, gotStatic); diff != "" {
				t.Errorf("static bindings on node-a (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.provisioned, gotProv); diff != "" {
				t.Errorf("provisioning on node-a (-want +got):\n%s", diff)
			}
		})
	}
}

// recordingBinder plays the PV controller: it binds what PreBind hands it.
type recordingBinder struct {
	st    *framework.Storage
	calls []string
}

func (b *recordingBinder) BindPodVolumes(pod *api.Pod, node string, bindings []framework.StaticBinding, provisions []*api.PersistentVolumeClaim) error {
	for _, x := range bindings {
		b.calls = append(b.calls, "bind "+x.PVC.Name+" to "+x.PV.Name+" on "+node)
		c := *x.PVC
		c.Spec.VolumeName, c.Annotations = x.PV.Name, map[string]string{api.AnnBindCompleted: "yes"}
		b.st.PutClaim(&c)
	}
	for _, x := range provisions {
		b.calls = append(b.calls, "provision "+x.Name+" on "+node)
	}
	return nil
}

func TestReserveAndPreBind(t *testing.T) {
	nodeA := st.MakeNode().Name("node-a").Zone("zone-a").Obj()
	static := st.StorageClass("static", api.NotSupportedProvisioner, wffc)
	wait := st.StorageClass("wait", "ebs.csi.aws.com", wffc)
	pl, h := newPlugin(t, storage{
		pvs:     []*api.PersistentVolume{st.MakePV("pv-a").Class("static").Zone("zone-a").Obj()},
		pvcs:    []*api.PersistentVolumeClaim{st.MakePVC("data").Class("static").Obj(), st.MakePVC("logs").Class("wait").Obj()},
		classes: []*api.StorageClass{static, wait},
	}, nodeA)
	b := &recordingBinder{st: h.Lister.StorageObjects}
	h.Binder = b
	pod := st.MakePod().Name("p").Claim("data").Claim("logs").Obj()
	state := framework.NewCycleState()
	if _, s := pl.PreFilter(state, pod, nil); !s.IsSuccess() {
		t.Fatalf("PreFilter: %v", s)
	}
	if s := pl.Filter(state, pod, nodeInfo(nodeA)); !s.IsSuccess() {
		t.Fatalf("Filter: %v", s)
	}
	if s := pl.Reserve(state, pod, "node-a"); !s.IsSuccess() {
		t.Fatalf("Reserve: %v", s)
	}
	// The recording binder leaves logs unbound: PreBind reports it.
	s := pl.PreBind(state, pod, "node-a")
	if s.Code() != framework.Error || s.Message() != "binding volumes: timed out waiting for the condition" {
		t.Errorf("PreBind = %v", s)
	}
	want := []string{"bind data to pv-a on node-a", "provision logs on node-a"}
	if diff := cmp.Diff(want, b.calls); diff != "" {
		t.Errorf("binder calls (-want +got):\n%s", diff)
	}
}
