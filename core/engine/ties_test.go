package engine

import (
	"slices"
	"strings"
	"testing"

	"github.com/schedplay/schedplay/core/scenario"
)

// A binding that won a tie says so: which nodes tied at what score, that
// that the one kube-scheduler takes depends on its parallel filter, and the
// node this run took;
// explain of the same cycle agrees. A node that wins outright has no Ties.
func TestTiesAreShownAsTies(t *testing.T) {
	const nodes = `
apiVersion: v1
kind: Node
metadata: {name: node-a}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: node-b}
status: {allocatable: {cpu: "%s", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers: [{name: app, image: nginx, resources: {requests: {cpu: "1"}}}]
`
	for _, tc := range []struct {
		cpuB string
		ties []string
	}{
		{"2", []string{"node-a", "node-b"}},
		{"4", nil}, // node-b is emptier: LeastAllocated prefers it
	} {
		t.Run("node-b cpu "+tc.cpuB, func(t *testing.T) {
			sc, err := scenario.Load("ties.yaml", []byte(strings.Replace(nodes, "%s", tc.cpuB, 1)))
			if err != nil {
				t.Fatal(err)
			}
			sim, err := Simulate(sc, Options{})
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(sim.Trace(), func(e Event) bool { return e.Kind == EvScheduled })
			if i < 0 {
				t.Fatal("web was never scheduled")
			}
			e := sim.Trace()[i]
			if !slices.Equal(e.Ties, tc.ties) {
				t.Errorf("Ties = %v, want %v (reason %q)", e.Ties, tc.ties, e.Reason)
			}
			mentions := strings.Contains(e.Reason, "parallel filter") && strings.Contains(e.Reason, "this run took "+e.Node)
			if mentions != (tc.ties != nil) {
				t.Errorf("reason %q: tells a tie = %v, want %v", e.Reason, mentions, tc.ties != nil)
			}
			a, err := sim.ExplainAt("default/web", e.Seq)
			if err != nil {
				t.Fatal(err)
			}
			tie := a.Explanation.Tie
			switch {
			case tc.ties == nil && tie != nil:
				t.Errorf("explain shows a tie %+v where node-b wins", tie)
			case tc.ties != nil && (tie == nil || !slices.Equal(tie.Nodes, tc.ties) || tie.Taken != e.Node):
				t.Errorf("explain's tie = %+v, want nodes %v taken %s", tie, tc.ties, e.Node)
			}
		})
	}
}
