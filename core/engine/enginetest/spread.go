// Package enginetest generates scenarios for tests of the engine and of
// what reads it (ui/adapt): random, valid, and reproducible by seed.
package enginetest

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// SpreadScenario writes a random cluster for PodTopologySpread: zones
// and racks (some nodes without a rack), tainted and cordoned nodes, pods
// of two apps with DoNotSchedule constraints that use minDomains, the
// inclusion policies, matchLabelKeys and node affinity, priorities that
// make preemption nominate pods, and sometimes the profile's own default
// constraints for pods a Service selects.
func SpreadScenario(seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 16))
	var b strings.Builder
	if r.IntN(2) == 0 {
		b.WriteString("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: default-scheduler\n  pluginConfig:\n  - name: PodTopologySpread\n    args:\n      defaultingType: List\n      defaultConstraints:\n      - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule}\n---\n")
		b.WriteString("apiVersion: v1\nkind: Service\nmetadata: {name: svc}\nspec: {selector: {svc: \"yes\"}}\n---\n")
	}
	for i, v := range []int{10, 100, 1000} {
		fmt.Fprintf(&b, "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: p%d}\nvalue: %d\n---\n", i, v)
	}
	nodes := 3 + r.IntN(5)
	for i := range nodes {
		rack := ""
		if r.IntN(4) != 0 {
			rack = fmt.Sprintf(", rack: r%d", r.IntN(3))
		}
		spec := ""
		switch r.IntN(6) {
		case 0:
			spec = "spec: {taints: [{key: dedicated, value: x, effect: NoSchedule}]}\n"
		case 1:
			spec = "spec: {unschedulable: true}\n"
		}
		fmt.Fprintf(&b, "apiVersion: v1\nkind: Node\nmetadata: {name: n%d, labels: {kubernetes.io/hostname: n%d, topology.kubernetes.io/zone: z%d, disk: d%d%s}}\n%sstatus: {allocatable: {cpu: \"%d\", memory: 8Gi, pods: \"10\"}}\n---\n",
			i, i, r.IntN(3), r.IntN(2), rack, spec, 2+r.IntN(3))
	}
	pods := 6 + r.IntN(12)
	for i := range pods {
		app := []string{"a", "b"}[r.IntN(2)]
		var c strings.Builder
		if r.IntN(5) != 0 {
			key := []string{"topology.kubernetes.io/zone", "rack", "kubernetes.io/hostname"}[r.IntN(3)]
			fmt.Fprintf(&c, "  topologySpreadConstraints:\n  - maxSkew: %d\n    topologyKey: %s\n    whenUnsatisfiable: DoNotSchedule\n    labelSelector: {matchLabels: {app: %s}}\n", 1+r.IntN(2), key, app)
			if r.IntN(3) == 0 {
				fmt.Fprintf(&c, "    minDomains: %d\n", 2+r.IntN(3))
			}
			if r.IntN(3) == 0 {
				c.WriteString("    nodeAffinityPolicy: Ignore\n")
			}
			if r.IntN(3) == 0 {
				c.WriteString("    nodeTaintsPolicy: Honor\n")
			}
			if r.IntN(3) == 0 {
				c.WriteString("    matchLabelKeys: [ver]\n")
			}
		}
		if r.IntN(4) == 0 {
			fmt.Fprintf(&c, "  nodeSelector: {disk: d%d}\n", r.IntN(2))
		}
		if r.IntN(4) == 0 {
			c.WriteString("  tolerations: [{key: dedicated, operator: Exists}]\n")
		}
		if r.IntN(6) == 0 {
			fmt.Fprintf(&c, "  nodeName: n%d\n", r.IntN(nodes))
		}
		fmt.Fprintf(&b, "apiVersion: v1\nkind: Pod\nmetadata: {name: pod%d, labels: {app: %s, ver: v%d, svc: \"%v\"}}\nspec:\n%s  priorityClassName: p%d\n  terminationGracePeriodSeconds: %d\n  containers: [{name: c, image: pause, resources: {requests: {cpu: \"1\"}}}]\n---\n",
			i, app, r.IntN(2), r.IntN(2) == 0, c.String(), r.IntN(3), r.IntN(10))
	}
	b.WriteString("apiVersion: schedplay.dev/v1alpha1\nkind: Timeline\nspec:\n  actions:\n")
	fmt.Fprintf(&b, "  - {at: %ds, delete: {kind: Pod, name: pod0}}\n", 1+r.IntN(10))
	fmt.Fprintf(&b, "  - {at: %ds, cordon: n1}\n", 5+r.IntN(20))
	fmt.Fprintf(&b, "  - {at: %ds, removeNode: n2}\n", 10+r.IntN(30))
	return b.String()
}
