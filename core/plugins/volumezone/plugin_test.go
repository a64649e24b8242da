package volumezone

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

func TestVolumeZone(t *testing.T) {
	wait := st.StorageClass("wait", "x", api.VolumeBindingWaitForFirstConsumer)
	now := st.StorageClass("now", "x", api.VolumeBindingImmediate)
	nodes := []*api.Node{
		st.MakeNode().Name("a").Zone("zone-a").Obj(),
		st.MakeNode().Name("b").Zone("zone-b").Obj(),
		st.MakeNode().Name("bare").Obj(),
		st.MakeNode().Name("beta-a").Label(api.LabelFailureDomainZone, "zone-a").Obj(),
	}
	conflict := framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonConflict)
	tests := []struct {
		name      string
		pvc       *api.PersistentVolumeClaim
		pv        *api.PersistentVolume
		preFilter *framework.Status
		want      []*framework.Status // per node, when PreFilter passes
	}{
		{name: "missing claim", preFilter: framework.NewStatus(framework.UnschedulableAndUnresolvable, `persistentvolumeclaim "data" not found`)},
		{name: "unbound delayed claim skips", pvc: st.MakePVC("data").Class("wait").Obj(), preFilter: framework.NewStatus(framework.Skip)},
		{name: "unbound immediate claim", pvc: st.MakePVC("data").Class("now").Obj(), preFilter: framework.NewStatus(framework.UnschedulableAndUnresolvable, "PersistentVolume had no name")},
		{name: "volume without zone label skips", pvc: st.MakePVC("data").BoundTo("pv").Obj(), pv: st.MakePV("pv").Zone("zone-a").Obj(), preFilter: framework.NewStatus(framework.Skip)},
		{
			name: "zone-labelled volume", pvc: st.MakePVC("data").BoundTo("pv").Obj(),
			pv: st.MakePV("pv").Label(api.LabelTopologyZone, "zone-a").Obj(),
			// Only a volume's beta key falls back to the GA key: a node with
			// the beta label alone does not match a GA-labelled volume.
			want: []*framework.Status{nil, conflict, nil, conflict},
		},
		{
			name: "multi-zone label", pvc: st.MakePVC("data").BoundTo("pv").Obj(),
			pv:   st.MakePV("pv").Label(api.LabelFailureDomainZone, "zone-a__zone-b").Obj(),
			want: []*framework.Status{nil, nil, nil, nil},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := st.NewHandle(nil, nodes)
			var pvs []*api.PersistentVolume
			var pvcs []*api.PersistentVolumeClaim
			if tc.pv != nil {
				pvs = append(pvs, tc.pv)
			}
			if tc.pvc != nil {
				pvcs = append(pvcs, tc.pvc)
			}
			h.Lister.StorageObjects = framework.NewStorage(pvs, pvcs, []*api.StorageClass{wait, now}, nil, nil)
			p, _ := New(nil, h)
			pl := p.(*VolumeZone)
			pod := st.MakePod().Name("p").Claim("data").Obj()
			state := framework.NewCycleState()
			_, s := pl.PreFilter(state, pod, nil)
			if diff := cmp.Diff(tc.preFilter, s); diff != "" {
				t.Fatalf("PreFilter (-want +got):\n%s", diff)
			}
			if tc.preFilter != nil {
				return
			}
			for i, n := range nodes {
				ni := framework.NewNodeInfo()
				ni.SetNode(n)
				if diff := cmp.Diff(tc.want[i], pl.Filter(state, pod, ni)); diff != "" {
					t.Errorf("Filter %s (-want +got):\n%s", n.Name, diff)
				}
			}
		})
	}
}
