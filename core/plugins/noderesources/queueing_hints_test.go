package noderesources

import (
	"testing"

	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

func TestFitQueueingHints(t *testing.T) {
	pl := &Fit{}
	pod := st.MakePod().Name("p").Req(map[string]string{"cpu": "2"}).Obj()
	node := func(cpu string) *st.NodeWrapper {
		return st.MakeNode().Name("n").Capacity(map[string]string{"cpu": cpu, "pods": "10"})
	}
	for _, tt := range []struct {
		name   string
		fn     framework.QueueingHintFn
		oldObj any
		newObj any
		want   framework.QueueingHint
	}{
		{"bound pod deleted", pl.isSchedulableAfterPodEvent, st.MakePod().Name("x").Node("n").Obj(), nil, framework.Queue},
		{"nominated pod deleted", pl.isSchedulableAfterPodEvent, st.MakePod().Name("x").NominatedNodeName("n").Obj(), nil, framework.Queue},
		{"unscheduled pod deleted", pl.isSchedulableAfterPodEvent, st.MakePod().Name("x").Obj(), nil, framework.QueueSkip},
		{"bound pod scaled down in cpu", pl.isSchedulableAfterPodEvent, st.MakePod().Name("x").Node("n").Req(map[string]string{"cpu": "2"}).Obj(),
			st.MakePod().Name("x").Node("n").Req(map[string]string{"cpu": "1"}).Obj(), framework.Queue},
		{"bound pod scaled down in memory only", pl.isSchedulableAfterPodEvent, st.MakePod().Name("x").Node("n").Req(map[string]string{"memory": "2Gi"}).Obj(),
			st.MakePod().Name("x").Node("n").Req(map[string]string{"memory": "1Gi"}).Obj(), framework.QueueSkip},
		{"the pod itself scaled down", pl.isSchedulableAfterPodEvent, st.MakePod().Name("p").Req(map[string]string{"cpu": "3"}).Obj(), pod, framework.Queue},
		{"node added that fits", pl.isSchedulableAfterNodeChange, nil, node("4").Obj(), framework.Queue},
		{"node added too small", pl.isSchedulableAfterNodeChange, nil, node("1").Obj(), framework.QueueSkip},
		{"node grew cpu", pl.isSchedulableAfterNodeChange, node("2").Obj(), node("4").Obj(), framework.Queue},
		{"node changed but not its cpu", pl.isSchedulableAfterNodeChange, node("4").Obj(), node("4").Label("a", "b").Obj(), framework.QueueSkip},
		{"wrong object type", pl.isSchedulableAfterNodeChange, nil, pod, framework.Queue},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got, _ := tt.fn(pod, tt.oldObj, tt.newObj); got != tt.want {
				t.Errorf("hint = %s, want %s", got, tt.want)
			}
		})
	}
}
