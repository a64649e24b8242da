package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/scenario"
)

// Opportunistic batching, with outcomes worked out from upstream's
// OpportunisticBatch and its score heap: three equal nodes, pods that each
// fill a node. The first pod scores all three (ties: the heap keeps
// node-a on top) and takes node-a; the rest of its ranking pops node-c
// before node-b. A pod with the same signature, in the next cycle, that no
// longer fits on the last pod's node takes the hint without a search.
func TestOpportunisticBatching(t *testing.T) {
	const unbatched = "node-a node-b node-c"
	tests := []struct {
		name string
		// defaulting is PodTopologySpread's defaultingType; pods are the
		// three pods' specs after the container.
		defaulting string
		cpu        [3]string
		extra      string
		want       string // nodes of p1, p2, p3
		batched    []string
	}{
		{name: "signable identical pods take the ranking's next nodes", defaulting: "List",
			cpu: [3]string{"3", "3", "3"}, want: "node-a node-c node-b", batched: []string{"default/p2", "default/p3"}},
		{name: "system default constraints make every pod unsignable", defaulting: "System",
			cpu: [3]string{"3", "3", "3"}, want: unbatched},
		{name: "pods with spread constraints are not signable", defaulting: "List",
			cpu: [3]string{"3", "3", "3"}, want: unbatched,
			extra: "  topologySpreadConstraints: [{maxSkew: 5, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: web}}}]\n"},
		{name: "pods with pod anti-affinity are not signable", defaulting: "List",
			cpu: [3]string{"3", "3", "3"}, want: unbatched,
			extra: "  affinity: {podAntiAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 1, podAffinityTerm: {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: none}}}}]}}\n"},
		{name: "a different request is a different signature", defaulting: "List",
			cpu: [3]string{"3", "3100m", "3"}, want: unbatched},
		{name: "the last pod's node still fits: no hint", defaulting: "List",
			cpu: [3]string{"1", "1", "1"}, want: unbatched},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			for _, n := range []string{"node-a", "node-b", "node-c"} {
				fmt.Fprintf(&b, "apiVersion: v1\nkind: Node\nmetadata: {name: %s, labels: {kubernetes.io/hostname: %s}}\nstatus: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}\n---\n", n, n)
			}
			for i, cpu := range tt.cpu {
				fmt.Fprintf(&b, "apiVersion: v1\nkind: Pod\nmetadata: {name: p%d, labels: {app: web}}\nspec:\n  containers: [{name: app, image: nginx, resources: {requests: {cpu: %q, memory: 1Gi}}}]\n%s---\n", i+1, cpu, tt.extra)
			}
			fmt.Fprintf(&b, "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: default-scheduler\n  pluginConfig:\n  - name: PodTopologySpread\n    args: {defaultingType: %s}\n", tt.defaulting)
			sc, err := scenario.Load("batch.yaml", []byte(b.String()))
			if err != nil {
				t.Fatal(err)
			}
			sim, err := Simulate(sc, Options{})
			if err != nil {
				t.Fatal(err)
			}
			nodes := map[string]string{}
			var batched []string
			for _, e := range sim.Trace() {
				if e.Kind != EvScheduled {
					continue
				}
				nodes[e.Pod] = e.Node
				if strings.HasSuffix(e.Reason, BatchedReason) {
					batched = append(batched, e.Pod)
				}
			}
			got := nodes["default/p1"] + " " + nodes["default/p2"] + " " + nodes["default/p3"]
			if got != tt.want {
				t.Errorf("nodes of p1 p2 p3 = %s, want %s", got, tt.want)
			}
			if diff := cmp.Diff(tt.batched, batched); diff != "" {
				t.Errorf("pods placed by batching (-want +got):\n%s", diff)
			}
		})
	}
}
