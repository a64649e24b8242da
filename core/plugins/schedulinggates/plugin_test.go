package schedulinggates

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

func TestPreEnqueue(t *testing.T) {
	tests := []struct {
		name  string
		gates []string
		want  *framework.Status
	}{
		{name: "no gates"},
		{
			name:  "one gate",
			gates: []string{"foo"},
			want:  framework.NewStatus(framework.UnschedulableAndUnresolvable, "waiting for scheduling gates: [foo]"),
		},
		{
			name:  "gates in spec order",
			gates: []string{"foo", "bar"},
			want:  framework.NewStatus(framework.UnschedulableAndUnresolvable, "waiting for scheduling gates: [foo bar]"),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := st.MakePod().Name("p").Obj()
			for _, g := range tt.gates {
				pod.Spec.SchedulingGates = append(pod.Spec.SchedulingGates, api.PodSchedulingGate{Name: g})
			}
			p, err := New(nil, nil)
			if err != nil {
				t.Fatalf("creating plugin: %v", err)
			}
			got := p.(framework.PreEnqueuePlugin).PreEnqueue(pod)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("PreEnqueue status (-want +got):\n%s", diff)
			}
		})
	}
}
