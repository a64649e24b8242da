package volumebinding

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

func TestPodWithoutClaims(t *testing.T) {
	pod := st.MakePod().Name("p").Obj()
	ni := framework.NewNodeInfo()
	ni.SetNode(st.MakeNode().Name("n").Obj())
	p, err := New(nil, nil)
	if err != nil {
		t.Fatalf("creating plugin: %v", err)
	}
	pl := p.(*VolumeBinding)

	// Before PreFilter the state is missing, as upstream reports it.
	if diff := cmp.Diff(framework.AsStatus(framework.ErrNotFound), pl.PreScore(framework.NewCycleState(), pod, nil)); diff != "" {
		t.Errorf("PreScore without state (-want +got):\n%s", diff)
	}

	state := framework.NewCycleState()
	res, s := pl.PreFilter(state, pod, nil)
	if res != nil || !s.IsSkip() {
		t.Fatalf("PreFilter = %v, %v; want nil, Skip", res, s)
	}
	if s := pl.Filter(state, pod, ni); !s.IsSuccess() {
		t.Errorf("Filter: %v", s)
	}
	if diff := cmp.Diff(framework.NewStatus(framework.Skip), pl.PreScore(state, pod, nil)); diff != "" {
		t.Errorf("PreScore (-want +got):\n%s", diff)
	}
	if score, s := pl.Score(state, pod, ni); score != 0 || !s.IsSuccess() {
		t.Errorf("Score = %d, %v; want 0, success", score, s)
	}
}
