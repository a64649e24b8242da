package nodedeclaredfeatures

import (
	"testing"

	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

func TestPodRequiringNoFeature(t *testing.T) {
	pod := st.MakePod().Name("p").InitReq(nil, true).Obj()
	ni := framework.NewNodeInfo()
	ni.SetNode(st.MakeNode().Name("n").Obj())
	p, err := New(nil, nil)
	if err != nil {
		t.Fatalf("creating plugin: %v", err)
	}
	pl := p.(*NodeDeclaredFeatures)
	state := framework.NewCycleState()
	if res, s := pl.PreFilter(state, pod, nil); res != nil || !s.IsSkip() {
		t.Fatalf("PreFilter = %v, %v; want nil, Skip", res, s)
	}
	if s := pl.Filter(state, pod, ni); s.Code() != framework.Error {
		t.Errorf("Filter without PreFilter state = %v, want Error", s)
	}
}
