package queuesort

import (
	"testing"
	"time"

	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

func TestLess(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	q := func(prio int32, ts time.Time) *framework.QueuedPodInfo {
		return &framework.QueuedPodInfo{PodInfo: framework.NewPodInfo(st.MakePod().Name("p").Priority(prio).Obj()), Timestamp: ts}
	}
	tests := []struct {
		name string
		a, b *framework.QueuedPodInfo
		want bool
	}{
		{"higher priority first", q(10, t0.Add(time.Second)), q(1, t0), true},
		{"lower priority later", q(1, t0), q(10, t0.Add(time.Second)), false},
		{"equal priority: earlier timestamp first", q(5, t0), q(5, t0.Add(time.Second)), true},
		{"equal priority and timestamp: not less", q(5, t0), q(5, t0), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := (&PrioritySort{}).Less(tt.a, tt.b); got != tt.want {
				t.Errorf("Less = %v, want %v", got, tt.want)
			}
		})
	}
}
