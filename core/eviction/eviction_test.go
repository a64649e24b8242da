package eviction

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/internal/st"
)

const gi = int64(1) << 30

func pod(name string, prio int32, memReq string) *api.Pod {
	w := st.MakePod().Name(name).Priority(prio)
	if memReq != "" {
		w = w.Req(map[string]string{"memory": memReq})
	}
	return w.Obj()
}

func names(pods []*api.Pod) []string {
	var out []string
	for _, p := range pods {
		out = append(out, p.Name)
	}
	return out
}

func TestRank(t *testing.T) {
	tests := []struct {
		name  string
		pods  []*api.Pod
		stats Stats
		want  []string
	}{
		// helpers_test TestOrderedByExceedsRequestMemory: above-request pods first.
		{"usage above requests first", []*api.Pod{pod("below", 0, "1Gi"), pod("above", 0, "1Gi")},
			Stats{"default/below": gi / 2, "default/above": 2 * gi}, []string{"above", "below"}},
		// TestOrderedByPriority: lower priority first among equals.
		{"then lower priority", []*api.Pod{pod("high", 100, ""), pod("low", 1, ""), pod("mid", 50, "")},
			Stats{"default/high": gi, "default/low": gi, "default/mid": gi}, []string{"low", "mid", "high"}},
		{"exceeding beats priority", []*api.Pod{pod("low-within", 1, "2Gi"), pod("high-above", 100, "1Gi")},
			Stats{"default/low-within": gi, "default/high-above": 2 * gi}, []string{"high-above", "low-within"}},
		// TestOrderedByMemory: the larger usage above its request first.
		{"then usage relative to request", []*api.Pod{pod("small", 0, "1Gi"), pod("big", 0, "1Gi"), pod("best-effort", 0, "")},
			Stats{"default/small": gi + 1, "default/big": 3 * gi, "default/best-effort": 2 * gi}, []string{"big", "best-effort", "small"}},
		{"pods without stats first", []*api.Pod{pod("measured", 0, ""), pod("unknown", 1000, "")},
			Stats{"default/measured": 5 * gi}, []string{"unknown", "measured"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, names(Rank(tt.pods, tt.stats, api.ResourceMemory))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestGracePeriodOverride(t *testing.T) {
	withGrace := st.MakePod().TerminationGracePeriodSeconds(10).Obj()
	tests := []struct {
		name     string
		pod      *api.Pod
		hard     bool
		maxGrace int64
		want     int64
	}{
		{"hard: immediate, which is 1 s", withGrace, true, 60, 1},
		{"soft: evictionMaxPodGracePeriod", st.MakePod().Obj(), false, 60, 60},
		{"soft: capped by the pod's own period", withGrace, false, 60, 10},
		{"soft: default max is 0", withGrace, false, DefaultMaxPodGracePeriodSeconds, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := GracePeriodOverride(tt.pod, tt.hard, tt.maxGrace); got != tt.want {
				t.Errorf("got %d, want %d", got, tt.want)
			}
		})
	}
}

func TestCondition(t *testing.T) {
	want := api.PodCondition{Type: "DisruptionTarget", Status: "True", Reason: "TerminationByKubelet", Message: "The node was low on resource: memory. "}
	if diff := cmp.Diff(want, Condition(api.ResourceMemory)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
