package preemption

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/internal/st"
)

var t0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

func pod(prio int32, startMin int) *api.Pod {
	return st.MakePod().Name("p").Priority(prio).StartTime(t0.Add(time.Duration(startMin) * time.Minute)).Obj()
}

func cand(name string, violations int64, victims ...*api.Pod) *Candidate {
	return &Candidate{Name: name, Victims: victims, NumPDBViolations: violations}
}

func TestRankCandidates(t *testing.T) {
	tests := []struct {
		name          string
		candidates    []*Candidate
		wantBest      []string
		wantCriterion Criterion
	}{
		{
			name: "fewest PDB violations decides first",
			candidates: []*Candidate{
				cand("n1", 1, pod(1, 0)),
				cand("n2", 0, pod(100, 0), pod(100, 0)),
			},
			wantBest:      []string{"n2"},
			wantCriterion: CriterionFewestPDBViolations,
		},
		{
			name: "then the lowest highest-priority victim",
			candidates: []*Candidate{
				cand("n1", 0, pod(5, 0)),
				cand("n2", 0, pod(3, 0), pod(3, 0), pod(3, 0)),
				cand("n3", 0, pod(4, 0)),
			},
			wantBest:      []string{"n2"},
			wantCriterion: CriterionLowestHighestVictim,
		},
		{
			name: "then the lowest sum of priorities",
			candidates: []*Candidate{
				cand("n1", 0, pod(5, 0), pod(5, 0)),
				cand("n2", 0, pod(5, 0), pod(1, 0)),
			},
			wantBest:      []string{"n2"},
			wantCriterion: CriterionLowestPrioritySum,
		},
		{
			name: "the sum shifts priorities so more negative victims cost more",
			candidates: []*Candidate{
				cand("n1", 0, pod(-10, 0), pod(-10, 0), pod(-10, 0)),
				cand("n2", 0, pod(-10, 0)),
			},
			// Without the shift n1's sum (-30) would be lower.
			wantBest:      []string{"n2"},
			wantCriterion: CriterionLowestPrioritySum,
		},
		{
			name: "then the fewest victims",
			candidates: []*Candidate{
				// Shifted sums: n1 = 7+2^31, n2 = 7+2^31 + (MinInt32+2^31) = 7+2^31.
				cand("n1", 0, pod(7, 0), pod(math.MinInt32, 0)),
				cand("n2", 0, pod(7, 0)),
			},
			wantBest:      []string{"n2"},
			wantCriterion: CriterionFewestVictims,
		},
		{
			name: "then the latest start of the highest-priority victims",
			candidates: []*Candidate{
				cand("n1", 0, pod(5, 9), pod(1, 20)),
				cand("n2", 0, pod(5, 10), pod(1, 0)),
			},
			wantBest:      []string{"n2"},
			wantCriterion: CriterionLatestStartTime,
		},
		{
			name: "the earliest of several highest-priority victims counts",
			candidates: []*Candidate{
				cand("n1", 0, pod(5, 30), pod(5, 1)),
				cand("n2", 0, pod(5, 10), pod(5, 20)),
			},
			wantBest:      []string{"n2"},
			wantCriterion: CriterionLatestStartTime,
		},
		{
			name: "an unstarted victim counts as the latest",
			candidates: []*Candidate{
				cand("n1", 0, pod(5, 10)),
				cand("n2", 0, st.MakePod().Name("new").Priority(5).Obj()),
			},
			wantBest:      []string{"n2"},
			wantCriterion: CriterionLatestStartTime,
		},
		{
			name: "a full tie keeps every candidate in order",
			candidates: []*Candidate{
				cand("n3", 0, pod(5, 0)),
				cand("n1", 1, pod(1, 0)),
				cand("n2", 0, pod(5, 0)),
			},
			wantBest:      []string{"n3", "n2"},
			wantCriterion: CriterionTie,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			best, criterion := rankCandidates(tt.candidates)
			var got []string
			for _, c := range best {
				got = append(got, c.Name)
			}
			if diff := cmp.Diff(tt.wantBest, got); diff != "" {
				t.Errorf("best (-want +got):\n%s", diff)
			}
			if criterion != tt.wantCriterion {
				t.Errorf("criterion = %q, want %q", criterion, tt.wantCriterion)
			}
			if sel := SelectCandidate(tt.candidates); sel.Name != tt.wantBest[0] {
				t.Errorf("SelectCandidate = %s, want %s", sel.Name, tt.wantBest[0])
			}
		})
	}
}

func TestSelectCandidateSingle(t *testing.T) {
	if got := SelectCandidate(nil); got != nil {
		t.Errorf("no candidates: got %v", got)
	}
	// A lone candidate is taken without looking at it (upstream's shortcut).
	only := &Candidate{Name: "n1"}
	if got := SelectCandidate([]*Candidate{only}); got != only {
		t.Errorf("got %v, want the only candidate", got)
	}
}

func TestMoreImportantPod(t *testing.T) {
	unstarted := st.MakePod().Name("u").Priority(1).Obj()
	tests := []struct {
		name   string
		p1, p2 *api.Pod
		want   bool
	}{
		{name: "higher priority", p1: pod(2, 9), p2: pod(1, 0), want: true},
		{name: "lower priority", p1: pod(1, 0), p2: pod(2, 9), want: false},
		{name: "same priority, started earlier", p1: pod(1, 0), p2: pod(1, 1), want: true},
		{name: "same priority, started later", p1: pod(1, 1), p2: pod(1, 0), want: false},
		{name: "same priority and start", p1: pod(1, 0), p2: pod(1, 0), want: false},
		{name: "started beats unstarted", p1: pod(1, 0), p2: unstarted, want: true},
		{name: "unstarted loses", p1: unstarted, p2: pod(1, 0), want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := MoreImportantPod(tt.p1, tt.p2); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestAggregate(t *testing.T) {
	a, b := errors.New("a"), errors.New("b")
	tests := []struct {
		name string
		errs []error
		want string
	}{
		{name: "one", errs: []error{a}, want: "a"},
		{name: "two", errs: []error{a, b}, want: "[a, b]"},
		{name: "duplicates collapse", errs: []error{a, a}, want: "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := aggregate(tt.errs).Error(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	if aggregate(nil) != nil {
		t.Error("no errors should aggregate to nil")
	}
}
