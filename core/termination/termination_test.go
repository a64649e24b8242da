package termination

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/internal/st"
)

func i64(v int64) *int64 { return &v }

func TestGracePeriod(t *testing.T) {
	tests := []struct {
		name      string
		pod       *api.Pod
		requested *int64
		want      int64
	}{
		{"default 30", st.MakePod().Node("n").Obj(), nil, 30},
		{"spec value", st.MakePod().Node("n").TerminationGracePeriodSeconds(5).Obj(), nil, 5},
		{"delete option wins", st.MakePod().Node("n").TerminationGracePeriodSeconds(5).Obj(), i64(12), 12},
		{"unbound pod goes at once", st.MakePod().TerminationGracePeriodSeconds(5).Obj(), nil, 0},
		{"negative becomes 1", st.MakePod().Node("n").Obj(), i64(-3), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := GracePeriod(tt.pod, tt.requested); got != tt.want {
				t.Errorf("GracePeriod = %d, want %d", got, tt.want)
			}
		})
	}
}

func withPreStopSleep(p *api.Pod, s int64) *api.Pod {
	p.Spec.Containers[0].Lifecycle = &api.Lifecycle{PreStop: &api.LifecycleHandler{Sleep: &api.SleepAction{Seconds: s}}}
	return p
}

func annotate(p *api.Pod, k, v string) *api.Pod {
	if p.Annotations == nil {
		p.Annotations = map[string]string{}
	}
	p.Annotations[k] = v
	return p
}

func TestKubeletPlan(t *testing.T) {
	s := time.Second
	tests := []struct {
		name     string
		pod      *api.Pod
		grace    int64
		override *int64
		want     Plan
	}{
		{"no hook: runs to the deadline", st.MakePod().Obj(), 30, nil, Plan{GracePeriod: 30, End: 30 * s}},
		{"grace 0: gone at once", st.MakePod().Obj(), 0, nil, Plan{}},
		{"preStop sleep then SIGTERM with the rest", withPreStopSleep(st.MakePod().Obj(), 10), 30, nil,
			Plan{GracePeriod: 30, PreStop: 10 * s, Sigterm: 10 * s, End: 30 * s}},
		{"preStop longer than grace: cut off, then the 2 s minimum", withPreStopSleep(st.MakePod().Obj(), 60), 30, nil,
			Plan{GracePeriod: 30, PreStop: 30 * s, Sigterm: 30 * s, End: 32 * s}},
		{"container exits soon after SIGTERM", annotate(st.MakePod().Obj(), AnnotationShutdownSeconds, "3"), 30, nil,
			Plan{GracePeriod: 30, End: 3 * s}},
		{"container outlives its grace: SIGKILL", annotate(st.MakePod().Obj(), AnnotationShutdownSeconds, "45"), 30, nil,
			Plan{GracePeriod: 30, End: 30 * s, Killed: true}},
		{"exec hook length from the annotation", func() *api.Pod {
			p := st.MakePod().Obj()
			p.Spec.Containers[0].Lifecycle = &api.Lifecycle{PreStop: &api.LifecycleHandler{Exec: map[string]any{"command": []any{"sh"}}}}
			return annotate(p, AnnotationPreStopSeconds, "7")
		}(), 30, nil, Plan{GracePeriod: 30, PreStop: 7 * s, Sigterm: 7 * s, End: 30 * s}},
		{"eviction override 0 becomes 1 s, then the 2 s minimum", st.MakePod().Obj(), 30, i64(0), Plan{GracePeriod: 1, End: 2 * s}},
		{"eviction override bounds the preStop hook too", withPreStopSleep(st.MakePod().Obj(), 10), 30, i64(5),
			Plan{GracePeriod: 5, PreStop: 5 * s, Sigterm: 5 * s, End: 7 * s}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, KubeletPlan(tt.pod, tt.grace, tt.override)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
