package engine

import (
	"testing"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/internal/st"
	"github.com/schedplay/schedplay/core/scenario"
)

// Signatures follow what upstream's plugins read from a pod (their
// SignPod): equal for pods that differ only in what no plugin reads,
// different when a plugin reads the difference, none when a plugin
// refuses.
func TestSignPod(t *testing.T) {
	base := func() *st.PodWrapper {
		return st.MakePod().Name("a").Label("app", "web").Req(map[string]string{"cpu": "1", "memory": "1Gi"})
	}
	tol := api.Toleration{Key: "k", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule}
	tests := []struct {
		name       string
		defaulting config.PodTopologySpreadConstraintsDefaulting
		a, b       *api.Pod
		same       bool
		refusedBy  string // the plugin that refuses to sign a, if any
	}{
		{"another name and priority: same signature", config.ListDefaulting,
			base().Obj(), base().Name("b").Priority(100).Obj(), true, ""},
		{"another request", config.ListDefaulting,
			base().Obj(), st.MakePod().Name("b").Label("app", "web").Req(map[string]string{"cpu": "2", "memory": "1Gi"}).Obj(), false, ""},
		{"another label (InterPodAffinity reads labels)", config.ListDefaulting,
			base().Obj(), base().Label("app", "db").Obj(), false, ""},
		{"a toleration", config.ListDefaulting,
			base().Obj(), base().Toleration(tol).Obj(), false, ""},
		{"a node selector", config.ListDefaulting,
			base().Obj(), base().NodeSelector(map[string]string{"disk": "ssd"}).Obj(), false, ""},
		{"a host port", config.ListDefaulting,
			base().Obj(), base().HostPort(8080, api.ProtocolTCP, "").Obj(), false, ""},
		{"another image", config.ListDefaulting,
			base().Obj(), base().Image("redis").Obj(), false, ""},
		{"node affinity values in another order: same signature", config.ListDefaulting,
			base().NodeAffinityIn("zone", "a", "b").Obj(), base().NodeAffinityIn("zone", "b", "a").Obj(), true, ""},
		{"system default spreading refuses every pod", config.SystemDefaulting,
			base().Obj(), base().Obj(), true, "PodTopologySpread"},
		{"pod anti-affinity is refused", config.ListDefaulting,
			base().PodAntiAffinity("kubernetes.io/hostname", st.LabelSelector(map[string]string{"app": "web"})).Obj(), base().Obj(), false, "InterPodAffinity"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := &scenario.Scenario{Config: config.Default(), T0: scenario.DefaultT0}
			prof := &sc.Config.Profiles[0]
			for i, pc := range prof.PluginConfig {
				if a, ok := pc.Args.(*config.PodTopologySpreadArgs); ok {
					args := *a
					args.DefaultingType = tt.defaulting
					prof.PluginConfig[i].Args = &args
				}
			}
			fwk, err := NewFramework(prof, BuildCluster(sc, nil))
			if err != nil {
				t.Fatal(err)
			}
			sa, sta := fwk.SignPod(tt.a)
			sb, _ := fwk.SignPod(tt.b)
			if got := sta.Plugin(); got != tt.refusedBy {
				t.Fatalf("refused by %q (%v), want %q", got, sta.Message(), tt.refusedBy)
			}
			if tt.refusedBy != "" {
				if sa != "" {
					t.Errorf("a refused pod has signature %q", sa)
				}
				return
			}
			if (sa == sb) != tt.same {
				t.Errorf("same signature = %v, want %v:\n a %s\n b %s", sa == sb, tt.same, sa, sb)
			}
		})
	}
}
