package tainttoleration

import (
	"testing"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

func TestTaintTolerationQueueingHints(t *testing.T) {
	pl := &TaintToleration{}
	pod := st.MakePod().Name("p").Toleration(api.Toleration{Key: "ok", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule}).Obj()
	tainted := st.MakeNode().Name("n").Taint("bad", "", api.TaintEffectNoSchedule).Obj()
	tolerated := st.MakeNode().Name("n").Taint("ok", "", api.TaintEffectNoSchedule).Obj()
	for _, tt := range []struct {
		name           string
		fn             framework.QueueingHintFn
		oldObj, newObj any
		want           framework.QueueingHint
	}{
		{"node added without untolerated taints", pl.isSchedulableAfterNodeChange, nil, tolerated, framework.Queue},
		{"node added with an untolerated taint", pl.isSchedulableAfterNodeChange, nil, tainted, framework.QueueSkip},
		{"untolerated taint replaced by a tolerated one", pl.isSchedulableAfterNodeChange, tainted, tolerated, framework.Queue},
		{"tolerated node stays tolerated", pl.isSchedulableAfterNodeChange, tolerated, tolerated, framework.QueueSkip},
		{"PreferNoSchedule taint is ignored", pl.isSchedulableAfterNodeChange, nil, st.MakeNode().Name("n").Taint("bad", "", api.TaintEffectPreferNoSchedule).Obj(), framework.Queue},
		{"the pod got a toleration", pl.isSchedulableAfterPodTolerationChange, pod, pod, framework.Queue},
		{"another pod got one", pl.isSchedulableAfterPodTolerationChange, st.MakePod().Name("x").Obj(), st.MakePod().Name("x").Obj(), framework.QueueSkip},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got, _ := tt.fn(pod, tt.oldObj, tt.newObj); got != tt.want {
				t.Errorf("hint = %s, want %s", got, tt.want)
			}
		})
	}
}
