package adapt_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schedplay/schedplay/core/scenario"
	"github.com/schedplay/schedplay/ui"
	"github.com/schedplay/schedplay/ui/adapt"
)

// largeScenario is web/bench/figures.mjs's playing scenario: nodes nodes in
// three zones, pods pods of which the last pending are left to schedule.
func largeScenario(nodes, pods, pending int) string {
	var b strings.Builder
	b.WriteString("apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: low}\nvalue: 100\n")
	for i := range nodes {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Node\nmetadata: {name: node-%d, labels: {topology.kubernetes.io/zone: zone-%d, kubernetes.io/hostname: node-%d}}\nstatus: {allocatable: {cpu: \"16\", memory: 64Gi, pods: \"110\"}}\n", i, i%3, i)
	}
	for i := range pods {
		where := "schedulerName: default-scheduler"
		if i < pods-pending {
			where = fmt.Sprintf("nodeName: node-%d", i%nodes)
		}
		class := "low"
		if i%7 == 0 {
			class = "high"
		}
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Pod\nmetadata: {name: pod-%d, labels: {app: app-%d}}\nspec:\n  %s\n  priorityClassName: %s\n  containers: [{name: c, image: pause, resources: {requests: {cpu: 100m, memory: 128Mi}}}]\n", i, i%20, where, class)
	}
	return b.String()
}

func largeRun(b *testing.B) *adapt.Run { return simulatedLarge(b, 500, 5000, 200) }

// simulatedLarge is largeScenario simulated to its end.
func simulatedLarge(tb testing.TB, nodes, pods, pending int) *adapt.Run {
	tb.Helper()
	return simulated(tb, "large.yaml", largeScenario(nodes, pods, pending))
}

// simulated is the scenario text simulated to its end.
func simulated(tb testing.TB, name, text string) *adapt.Run {
	tb.Helper()
	sc, err := scenario.Load(name, []byte(text))
	if err != nil {
		tb.Fatal(err)
	}
	r, err := adapt.NewRun(sc, adapt.DefaultBudget)
	if err != nil {
		tb.Fatal(err)
	}
	for !r.Step(1000) {
	}
	return r
}

// BenchmarkSceneAtPlaying is what playback asks for each frame: the scene
// after the next event.
func BenchmarkSceneAtPlaying(b *testing.B) {
	r := largeRun(b)
	n := len(r.Trace())
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		r.SceneAt(i % n)
	}
}

func BenchmarkArrangeRetargetPlaying(b *testing.B) {
	r := largeRun(b)
	n := len(r.Trace())
	scenes := make([]*ui.Scene, 0, 64)
	for i := range 64 {
		scenes = append(scenes, r.SceneAt(i%n))
	}
	m := ui.NewMotion()
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		l := ui.Arrange(scenes[i%len(scenes)], 16.0/9)
		m.Retarget(l)
		m.Step()
	}
}
