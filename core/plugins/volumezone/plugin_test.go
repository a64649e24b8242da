package volumezone

import (
	"testing"

	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

func TestPodWithoutVolumes(t *testing.T) {
	pod := st.MakePod().Name("p").Obj()
	ni := framework.NewNodeInfo()
	ni.SetNode(st.MakeNode().Name("n").Zone("z1").Obj())
	p, err := New(nil, nil)
	if err != nil {
		t.Fatalf("creating plugin: %v", err)
	}
	pl := p.(*VolumeZone)
	state := framework.NewCycleState()
	if res, s := pl.PreFilter(state, pod, nil); res != nil || !s.IsSkip() {
		t.Fatalf("PreFilter = %v, %v; want nil, Skip", res, s)
	}
	if s := pl.Filter(state, pod, ni); !s.IsSuccess() {
		t.Errorf("Filter = %v, want success", s)
	}
}
