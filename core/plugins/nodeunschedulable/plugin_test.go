package nodeunschedulable

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
		node *api.Node
		want *framework.Status
	}{
		{
			name: "cordoned node rejects a pod without tolerations",
			pod:  st.MakePod().Name("p").Obj(),
			node: st.MakeNode().Name("n").Unschedulable(true).Obj(),
			want: framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonUnschedulable),
		},
		{
			name: "schedulable node accepts",
			pod:  st.MakePod().Name("p").Obj(),
			node: st.MakeNode().Name("n").Obj(),
		},
		{
			name: "toleration of unschedulable:NoSchedule admits onto a cordoned node",
			pod: st.MakePod().Name("p").Toleration(api.Toleration{
				Key: TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule,
			}).Obj(),
			node: st.MakeNode().Name("n").Unschedulable(true).Obj(),
		},
		{
			name: "toleration with empty key and Exists tolerates everything",
			pod:  st.MakePod().Name("p").Toleration(api.Toleration{Operator: api.TolerationOpExists}).Obj(),
			node: st.MakeNode().Name("n").Unschedulable(true).Obj(),
		},
		{
			name: "toleration for NoExecute only does not count",
			pod: st.MakePod().Name("p").Toleration(api.Toleration{
				Key: TaintNodeUnschedulable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute,
			}).Obj(),
			node: st.MakeNode().Name("n").Unschedulable(true).Obj(),
			want: framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonUnschedulable),
		},
		{
			name: "the real taint is irrelevant: only spec.unschedulable counts",
			pod:  st.MakePod().Name("p").Obj(),
			node: st.MakeNode().Name("n").Taint(TaintNodeUnschedulable, "", api.TaintEffectNoSchedule).Obj(),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ni := framework.NewNodeInfo()
			ni.SetNode(tt.node)
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
