package dynamicresources

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

func TestPodWithoutClaims(t *testing.T) {
	pod := st.MakePod().Name("p").Req(map[string]string{"cpu": "1", "example.com/gpu": "1"}).Obj()
	ni := framework.NewNodeInfo()
	ni.SetNode(st.MakeNode().Name("n").Obj())
	tests := []struct {
		name          string
		runPreFilter  bool
		wantPostMsg   *framework.Status
		wantFilter    *framework.Status
		wantScoreCode framework.Code
	}{
		{
			name:          "after PreFilter: nothing to deallocate, every node fits and scores 0",
			runPreFilter:  true,
			wantPostMsg:   framework.NewStatus(framework.Unschedulable, MsgNoNewClaims),
			wantScoreCode: framework.Success,
		},
		{
			// An earlier PreFilter rejection means this PreFilter never ran.
			name:          "without PreFilter: the missing state is an error saying not found",
			wantPostMsg:   framework.AsStatus(framework.ErrNotFound),
			wantFilter:    framework.AsStatus(framework.ErrNotFound),
			wantScoreCode: framework.Error,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(nil, nil)
			if err != nil {
				t.Fatalf("creating plugin: %v", err)
			}
			pl := p.(*DynamicResources)
			if s := pl.PreEnqueue(pod); !s.IsSuccess() {
				t.Errorf("PreEnqueue: %v", s)
			}
			state := framework.NewCycleState()
			if tt.runPreFilter {
				res, s := pl.PreFilter(state, pod, nil)
				if res != nil || !s.IsSkip() {
					t.Fatalf("PreFilter = %v, %v; want nil, Skip", res, s)
				}
			}
			res, s := pl.PostFilter(state, pod, framework.NewDefaultNodeToStatus())
			if res != nil {
				t.Errorf("PostFilter result = %v, want nil", res)
			}
			if diff := cmp.Diff(tt.wantPostMsg, s); diff != "" {
				t.Errorf("PostFilter status (-want +got):\n%s", diff)
			}
			if tt.wantPostMsg.Message() != s.Message() {
				t.Errorf("PostFilter message = %q, want %q", s.Message(), tt.wantPostMsg.Message())
			}
			if diff := cmp.Diff(tt.wantFilter, pl.Filter(state, pod, ni)); diff != "" {
				t.Errorf("Filter status (-want +got):\n%s", diff)
			}
			score, s := pl.Score(state, pod, ni)
			if s.Code() != tt.wantScoreCode || score != 0 {
				t.Errorf("Score = %d, %v; want 0, %v", score, s, tt.wantScoreCode)
			}
			// ScoreNodes agrees, and overwrites whatever the list held.
			list := framework.NodeScoreList{{Score: 7}}
			s = pl.ScoreNodes(state, pod, []*framework.NodeInfo{ni}, list)
			if s.Code() != tt.wantScoreCode || (s.IsSuccess() && list[0].Score != 0) {
				t.Errorf("ScoreNodes = %d, %v; want 0, %v", list[0].Score, s, tt.wantScoreCode)
			}
		})
	}
}

func TestNormalizeScore(t *testing.T) {
	scores := framework.NodeScoreList{{Name: "a"}, {Name: "b"}}
	if s := (&DynamicResources{}).NormalizeScore(nil, nil, scores); !s.IsSuccess() {
		t.Fatalf("NormalizeScore: %v", s)
	}
	if diff := cmp.Diff(framework.NodeScoreList{{Name: "a"}, {Name: "b"}}, scores); diff != "" {
		t.Errorf("zero scores must stay zero (-want +got):\n%s", diff)
	}
	// NormalizeScore must not need the names (NamelessNormalizer).
	named, nameless, err := st.NormalizeBothWays(&DynamicResources{}, nil, nil, framework.NodeScoreList{{Name: "a", Score: 3}, {Name: "b"}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(named, nameless); diff != "" {
		t.Errorf("normalized without names (-with +without):\n%s", diff)
	}
}
