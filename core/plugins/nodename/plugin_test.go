package nodename

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

func TestFilter(t *testing.T) {
	tests := []struct {
		name string
		pod  *api.Pod
		want *framework.Status
	}{
		{
			name: "no nodeName fits every node",
			pod:  st.MakePod().Name("p").Obj(),
		},
		{
			name: "matching nodeName fits",
			pod:  st.MakePod().Name("p").Node("node-a").Obj(),
		},
		{
			name: "other nodeName is unresolvable",
			pod:  st.MakePod().Name("p").Node("node-b").Obj(),
			want: framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReason),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ni := framework.NewNodeInfo()
			ni.SetNode(st.MakeNode().Name("node-a").Obj())
			p, err := New(nil, nil)
			if err != nil {
				t.Fatalf("creating plugin: %v", err)
			}
			got := p.(framework.FilterPlugin).Filter(framework.NewCycleState(), tt.pod, ni)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Filter status (-want +got):\n%s", diff)
			}
		})
	}
}
