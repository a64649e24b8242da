package interpodaffinity

import (
	"testing"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

func TestInterPodAffinityQueueingHints(t *testing.T) {
	pl := &InterPodAffinity{}
	sel := &api.LabelSelector{MatchLabels: map[string]string{"app": "db"}}
	withAffinity := st.MakePod().Name("p").PodAffinity(api.LabelTopologyZone, sel).Obj()
	withAnti := st.MakePod().Name("p").PodAntiAffinity(api.LabelTopologyZone, sel).Obj()
	db := st.MakePod().Name("db").Label("app", "db").Node("n").Obj()
	web := st.MakePod().Name("web").Label("app", "web").Node("n").Obj()
	for _, tt := range []struct {
		name           string
		pod            *api.Pod
		fn             func(*InterPodAffinity) framework.QueueingHintFn
		oldObj, newObj any
		want           framework.QueueingHint
	}{
		{"matching pod added", withAffinity, podFn, nil, db, framework.Queue},
		{"other pod added", withAffinity, podFn, nil, web, framework.QueueSkip},
		{"unscheduled matching pod added", withAffinity, podFn, nil, st.MakePod().Name("db").Label("app", "db").Obj(), framework.QueueSkip},
		{"pod relabelled to match", withAffinity, podFn, web, st.MakePod().Name("web").Label("app", "db").Node("n").Obj(), framework.Queue},
		{"hated pod deleted", withAnti, podFn, db, nil, framework.Queue},
		{"other pod deleted", withAnti, podFn, web, nil, framework.QueueSkip},
		{"deleted pod hated ours", st.MakePod().Name("p").Label("app", "db").Obj(), podFn, st.MakePod().Name("x").Node("n").PodAntiAffinity(api.LabelTopologyZone, sel).Obj(), nil, framework.Queue},
		{"node added with the affinity key", withAffinity, nodeFn, nil, st.MakeNode().Name("n").Zone("a").Obj(), framework.Queue},
		{"node added without it", withAffinity, nodeFn, nil, st.MakeNode().Name("n").Obj(), framework.QueueSkip},
		{"any node added helps anti-affinity", withAnti, nodeFn, nil, st.MakeNode().Name("n").Obj(), framework.Queue},
		{"node moved zone", withAnti, nodeFn, st.MakeNode().Name("n").Zone("a").Obj(), st.MakeNode().Name("n").Zone("b").Obj(), framework.Queue},
		{"node gained the anti-affinity key", withAnti, nodeFn, st.MakeNode().Name("n").Obj(), st.MakeNode().Name("n").Zone("b").Obj(), framework.QueueSkip},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got, _ := tt.fn(pl)(tt.pod, tt.oldObj, tt.newObj); got != tt.want {
				t.Errorf("hint = %s, want %s", got, tt.want)
			}
		})
	}
}

func podFn(pl *InterPodAffinity) framework.QueueingHintFn  { return pl.isSchedulableAfterPodChange }
func nodeFn(pl *InterPodAffinity) framework.QueueingHintFn { return pl.isSchedulableAfterNodeChange }
