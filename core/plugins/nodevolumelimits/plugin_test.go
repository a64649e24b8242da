package nodevolumelimits

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

func TestCSILimits(t *testing.T) {
	const driver = "ebs.csi.aws.com"
	node := st.MakeNode().Name("n").Obj()
	class := st.StorageClass("gp3", driver, api.VolumeBindingWaitForFirstConsumer)
	pvs := []*api.PersistentVolume{st.MakePV("v1").CSI(driver, "h1").Obj(), st.MakePV("v2").CSI(driver, "h2").Obj()}
	pvcs := []*api.PersistentVolumeClaim{
		st.MakePVC("c1").BoundTo("v1").Obj(), st.MakePVC("c2").BoundTo("v2").Obj(),
		st.MakePVC("new").Class("gp3").Obj(),
	}
	existing := []*api.Pod{st.MakePod().Name("e1").Node("n").Claim("c1").Obj(), st.MakePod().Name("e2").Node("n").Claim("c2").Obj()}
	over := framework.NewStatus(framework.Unschedulable, ErrReasonMaxVolumeCountExceeded)
	tests := []struct {
		name  string
		limit int32
		pod   *api.Pod
		want  *framework.Status
	}{
		{name: "room for one more", limit: 3, pod: st.MakePod().Name("p").Claim("new").Obj()},
		{name: "limit reached", limit: 2, pod: st.MakePod().Name("p").Claim("new").Obj(), want: over},
		{name: "a volume already attached counts once", limit: 2, pod: st.MakePod().Name("p").Claim("c1").Obj()},
		{name: "missing claim", limit: 2, pod: st.MakePod().Name("p").Claim("gone").Obj(),
			want: framework.NewStatus(framework.UnschedulableAndUnresolvable, `looking up PVC default/gone: persistentvolumeclaim "gone" not found`)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := st.NewHandle(existing, []*api.Node{node})
			h.Lister.StorageObjects = framework.NewStorage(pvs, pvcs, []*api.StorageClass{class}, []*api.CSINode{st.CSINode("n", driver, tc.limit)}, nil)
			p, _ := New(nil, h)
			pl := p.(*CSILimits)
			if _, s := pl.PreFilter(framework.NewCycleState(), tc.pod, nil); !s.IsSuccess() {
				t.Fatalf("PreFilter: %v", s)
			}
			ni, _ := h.Snapshot.Get("n")
			if diff := cmp.Diff(tc.want, pl.Filter(framework.NewCycleState(), tc.pod, ni)); diff != "" {
				t.Errorf("Filter (-want +got):\n%s", diff)
			}
		})
	}
	p, _ := New(nil, st.NewHandle(nil, nil))
	if _, s := p.(*CSILimits).PreFilter(framework.NewCycleState(), st.MakePod().Name("p").Obj(), nil); !s.IsSkip() {
		t.Errorf("PreFilter without claims = %v, want Skip", s)
	}
}
