package volumerestrictions

import (
	"testing"

	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

func TestPodWithoutVolumes(t *testing.T) {
	pod := st.MakePod().Name("p").Obj()
	ni := framework.NewNodeInfo()
	ni.SetNode(st.MakeNode().Name("n").Obj())
	p, err := New(nil, nil)
	if err != nil {
		t.Fatalf("creating plugin: %v", err)
	}
	pl := p.(*VolumeRestrictions)
	state := framework.NewCycleState()
	if res, s := pl.PreFilter(state, pod, nil); res != nil || !s.IsSkip() {
		t.Fatalf("PreFilter = %v, %v; want nil, Skip", res, s)
	}
	// Upstream's Filter needs PreFilter state, which a skipping PreFilter
	// does not write: the framework never calls it then.
	s := pl.Filter(state, pod, ni)
	if want := `cannot read "PreFilterVolumeRestrictions" from cycleState`; s.Code() != framework.Error || s.Message() != want {
		t.Errorf("Filter = %v, want Error %q", s, want)
	}
}
