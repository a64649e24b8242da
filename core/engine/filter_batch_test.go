package engine

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/scenario"
)

// Filtering nodes plugin by plugin (RunFilterPluginsNodes, batch filters
// included) gives each node the verdict filtering it alone gives: the same
// code, plugin and reasons, for nodes every default filter rejects.
func TestFilterPluginsNodesMatchesOneByOne(t *testing.T) {
	src := `
apiVersion: v1
kind: Node
metadata: {name: plain-a, labels: {topology.kubernetes.io/zone: a}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: cordoned, labels: {topology.kubernetes.io/zone: b}}
spec: {unschedulable: true}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: tainted, labels: {topology.kubernetes.io/zone: b}}
spec: {taints: [{key: dedicated, value: db, effect: NoSchedule}]}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: small, labels: {topology.kubernetes.io/zone: b}}
status: {allocatable: {cpu: "1", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: zoneless}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: plain-b, labels: {topology.kubernetes.io/zone: b}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: busy-c, labels: {topology.kubernetes.io/zone: c}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: running-1, labels: {app: web}}
spec:
  nodeName: busy-c
  containers: [{name: c, image: pause, resources: {requests: {cpu: 100m}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: running-2, labels: {app: web}}
spec:
  nodeName: busy-c
  containers: [{name: c, image: pause, resources: {requests: {cpu: 100m}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: web, labels: {app: web}}
spec:
  containers: [{name: c, image: pause, resources: {requests: {cpu: "2"}}}]
  topologySpreadConstraints:
  - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}
`
	sc, err := scenario.Load("filters.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c := BuildCluster(sc, sc.Pods)
	fwk, err := NewFramework(&sc.Config.Profiles[0], c)
	if err != nil {
		t.Fatal(err)
	}
	fwk.SetSnapshot(c.Snapshot)
	pod := sc.Pods[len(sc.Pods)-1]
	state := framework.NewCycleState()
	if _, st, _ := fwk.RunPreFilterPlugins(state, pod); !st.IsSuccess() {
		t.Fatalf("PreFilter: %v", st)
	}
	nodes := c.Snapshot.List()
	type verdict struct {
		Node, Plugin string
		Code         framework.Code
		Reasons      []string
	}
	of := func(ni *framework.NodeInfo, st *framework.Status) verdict {
		return verdict{Node: ni.Node().Name, Plugin: st.Plugin(), Code: st.Code(), Reasons: st.Reasons()}
	}
	var want, got []verdict
	for _, ni := range nodes {
		want = append(want, of(ni, fwk.RunFilterPlugins(state, pod, ni)))
	}
	statuses := make([]*framework.Status, len(nodes))
	fwk.RunFilterPluginsNodes(state, pod, nodes, statuses)
	for i, ni := range nodes {
		got = append(got, of(ni, statuses[i]))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("verdicts plugin by plugin (-one by one +batched):\n%s", diff)
	}
	plugins := map[string]bool{}
	for _, v := range want {
		plugins[v.Plugin] = true
	}
	for _, p := range []string{"", "NodeUnschedulable", "TaintToleration", "NodeResourcesFit", "PodTopologySpread"} {
		if !plugins[p] {
			t.Errorf("no node has the verdict of %q: %+v", p, want)
		}
	}
}
