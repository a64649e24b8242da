package engine

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
	"github.com/schedplay/schedplay/core/scenario"
	"github.com/schedplay/schedplay/core/scheduler"
)

// The scheduler reuses a successful cycle's NodeToStatus for the next
// cycle; a FitError's map must stay as its cycle left it through later
// cycles that succeed or fail.
func TestFitErrorSurvivesLaterCycles(t *testing.T) {
	sc := &scenario.Scenario{Config: config.Default(), T0: scenario.DefaultT0}
	for i := 0; i < 6; i++ {
		cpu := "1"
		if i >= 3 {
			cpu = "4"
		}
		sc.Nodes = append(sc.Nodes, st.MakeNode().Name(fmt.Sprintf("node-%d", i)).
			Capacity(map[string]string{"cpu": cpu, "memory": "8Gi", "pods": "110"}).Obj())
	}
	big := st.MakePod().Name("big").Req(map[string]string{"cpu": "2"}).Obj()
	huge := st.MakePod().Name("huge").Req(map[string]string{"cpu": "8"}).Obj()
	c := BuildCluster(sc, nil)
	fwk, err := NewFramework(&sc.Config.Profiles[0], c)
	if err != nil {
		t.Fatal(err)
	}
	s := &scheduler.Scheduler{Framework: fwk}
	const wantMsg = "0/6 nodes are available: 6 Insufficient cpu."
	var fitErrs []*framework.FitError
	for i, pod := range []string{"huge", "big", "huge", "big", "big", "huge"} {
		p := big
		if pod == "huge" {
			p = huge
		}
		res, err := s.SchedulePod(scheduler.Cycle{}, framework.NewCycleState(), p, c.Snapshot)
		if pod == "big" {
			if err != nil {
				t.Fatalf("cycle %d: %v", i, err)
			}
			if res.EvaluatedNodes != 6 || res.FeasibleNodes != 3 {
				t.Errorf("cycle %d: evaluated %d, feasible %d; want 6, 3", i, res.EvaluatedNodes, res.FeasibleNodes)
			}
			continue
		}
		var fe *framework.FitError
		if !errors.As(err, &fe) {
			t.Fatalf("cycle %d: err = %v, want a FitError", i, err)
		}
		fitErrs = append(fitErrs, fe)
	}
	for i, fe := range fitErrs {
		if diff := cmp.Diff(wantMsg, fe.Error()); diff != "" {
			t.Errorf("FitError %d (-want +got):\n%s", i, diff)
		}
		if n := fe.Diagnosis.NodeToStatus.Len(); n != 6 {
			t.Errorf("FitError %d holds %d nodes, want 6", i, n)
		}
		for j := i + 1; j < len(fitErrs); j++ {
			if fe.Diagnosis.NodeToStatus == fitErrs[j].Diagnosis.NodeToStatus {
				t.Errorf("FitErrors %d and %d share one NodeToStatus", i, j)
			}
		}
	}
}
