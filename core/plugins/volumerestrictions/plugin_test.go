package volumerestrictions

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

func TestReadWriteOncePod(t *testing.T) {
	node := st.MakeNode().Name("n").Obj()
	running := st.MakePod().Name("running").Node("n").Claim("solo").Obj()
	rwop := st.MakePVC("solo").Modes(api.ReadWriteOncePod).Obj()
	rwo := st.MakePVC("shared").Obj()
	conflict := framework.NewStatus(framework.Unschedulable, ErrReasonReadWriteOncePodConflict)
	tests := []struct {
		name      string
		pod       *api.Pod
		preFilter *framework.Status
		filter    *framework.Status
	}{
		{name: "no volumes", pod: st.MakePod().Name("p").Obj(), preFilter: framework.NewStatus(framework.Skip)},
		{name: "missing claim", pod: st.MakePod().Name("p").Claim("gone").Obj(), preFilter: framework.NewStatus(framework.UnschedulableAndUnresolvable, `persistentvolumeclaim "gone" not found`)},
		{name: "ReadWriteOnce claim in use", pod: st.MakePod().Name("p").Claim("shared").Obj(), preFilter: framework.NewStatus(framework.Skip)},
		{name: "ReadWriteOncePod claim in use", pod: st.MakePod().Name("p").Claim("solo").Obj(), filter: conflict},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := st.NewHandle([]*api.Pod{running, st.MakePod().Name("other").Node("n").Claim("shared").Obj()}, []*api.Node{node})
			h.Lister.StorageObjects = framework.NewStorage(nil, []*api.PersistentVolumeClaim{rwop, rwo}, nil, nil, nil)
			p, _ := New(nil, h)
			pl := p.(*VolumeRestrictions)
			state := framework.NewCycleState()
			_, s := pl.PreFilter(state, tc.pod, nil)
			if diff := cmp.Diff(tc.preFilter, s); diff != "" {
				t.Fatalf("PreFilter (-want +got):\n%s", diff)
			}
			if tc.preFilter != nil {
				return
			}
			ni := framework.NewNodeInfo()
			ni.SetNode(node)
			if diff := cmp.Diff(tc.filter, pl.Filter(state, tc.pod, ni)); diff != "" {
				t.Errorf("Filter (-want +got):\n%s", diff)
			}
			// Preemption removing the user of the claim lifts the conflict.
			if s := pl.RemovePod(state, tc.pod, framework.NewPodInfo(running), ni); !s.IsSuccess() {
				t.Fatalf("RemovePod: %v", s)
			}
			if s := pl.Filter(state, tc.pod, ni); !s.IsSuccess() {
				t.Errorf("Filter after RemovePod = %v, want success", s)
			}
		})
	}
}
