// Command fingerprint writes the generated scenarios whose CLI answers make
// up the decision fingerprint (scripts/fingerprint.sh hashes them): any
// engine change that is not a deliberate fidelity fix leaves every hash as
// it was.
//
//	go run ./scripts/fingerprint -list          # the shape names
//	go run ./scripts/fingerprint -shape NAME    # that scenario's YAML
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// shape writes one scenario.
type shape func(w io.Writer)

var shapes = map[string]shape{
	// scheduler_perf's SchedulingBasic shape at 1,000 nodes: the partial
	// node search and the rotating start index decide most placements.
	"plain-1000n": func(w io.Writer) { basic(w, 1000, 1000, 3000, false) },
	// The same with a zone DoNotSchedule spread on every pending pod.
	"spread-1000n": func(w io.Writer) { basic(w, 1000, 1000, 3000, true) },
	// Under 100 nodes every node is searched.
	"plain-60n": func(w io.Writer) { basic(w, 60, 120, 300, false) },
	// Full nodes, higher-priority pods with spread, anti-affinity and node
	// selectors in two namespaces: preemptions and graceful terminations
	// interleave with the spread counts.
	"preempt-60n": preemptHeavy,
}

func main() {
	list := flag.Bool("list", false, "print the shape names")
	name := flag.String("shape", "", "the shape to write")
	flag.Parse()
	if *list {
		var names []string
		for n := range shapes {
			names = append(names, n)
		}
		sort.Strings(names)
		fmt.Println(strings.Join(names, "\n"))
		return
	}
	s, ok := shapes[*name]
	if !ok {
		fmt.Fprintf(os.Stderr, "fingerprint: unknown shape %q (see -list)\n", *name)
		os.Exit(2)
	}
	s(os.Stdout)
}

func node(w io.Writer, name, zone, cpu string, extra string) {
	fmt.Fprintf(w, "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: %s\n  labels: {kubernetes.io/hostname: %s, topology.kubernetes.io/zone: %s%s}\nstatus:\n  allocatable: {cpu: %q, memory: 64Gi, pods: \"110\"}\n",
		name, name, zone, extra, cpu)
}

func basic(w io.Writer, nodes, running, pending int, spread bool) {
	for i := 0; i < nodes; i++ {
		node(w, fmt.Sprintf("node-%05d", i), fmt.Sprintf("zone-%d", i%3), "32", "")
	}
	for i := 0; i < running; i++ {
		fmt.Fprintf(w, "---\napiVersion: v1\nkind: Pod\nmetadata: {name: init-%05d, labels: {app: init}}\nspec:\n  nodeName: node-%05d\n  containers: [{name: c, image: x, resources: {requests: {cpu: 100m, memory: 500Mi}}}]\n",
			i, i%nodes)
	}
	for i := 0; i < pending; i++ {
		fmt.Fprintf(w, "---\napiVersion: v1\nkind: Pod\nmetadata: {name: pod-%05d, labels: {app: bench}}\nspec:\n  containers: [{name: c, image: x, resources: {requests: {cpu: %dm, memory: 500Mi}}}]\n",
			i, 100+(i%7)*50)
		if spread {
			fmt.Fprint(w, "  topologySpreadConstraints:\n  - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: bench}}}\n")
		}
	}
}

func preemptHeavy(w io.Writer) {
	fmt.Fprint(w, "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: low}\nvalue: 100\n")
	fmt.Fprint(w, "---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n")
	fmt.Fprint(w, "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: team-b}\n")
	for i := 0; i < 60; i++ {
		disk := ""
		if i%4 == 0 {
			disk = ", disk: ssd"
		}
		node(w, fmt.Sprintf("node-%02d", i), fmt.Sprintf("zone-%d", i%3), "4", disk)
	}
	for i := 0; i < 240; i++ {
		fmt.Fprintf(w, "---\napiVersion: v1\nkind: Pod\nmetadata: {name: low-%03d, labels: {app: low%d}, creationTimestamp: \"2025-01-01T00:%02d:00Z\"}\nspec:\n  nodeName: node-%02d\n  priorityClassName: low\n  terminationGracePeriodSeconds: %d\n  containers: [{name: c, image: x, resources: {requests: {cpu: \"1\", memory: 1Gi}}}]\nstatus: {startTime: \"2025-01-01T00:%02d:00Z\"}\n",
			i, i%3, i%60, i%60, 5+(i%4)*10, i%60)
	}
	for i := 0; i < 150; i++ {
		ns := "default"
		if i%2 == 1 {
			ns = "team-b"
		}
		fmt.Fprintf(w, "---\napiVersion: v1\nkind: Pod\nmetadata: {name: hi-%03d, namespace: %s, labels: {app: hi, low-peer: low%d}}\nspec:\n  priorityClassName: high\n  containers: [{name: c, image: x, resources: {requests: {cpu: \"%d\", memory: 1Gi}}}]\n",
			i, ns, i%3, 1+i%2)
		if i%5 == 0 {
			fmt.Fprint(w, "  nodeSelector: {disk: ssd}\n")
		}
		fmt.Fprint(w, "  topologySpreadConstraints:\n  - {maxSkew: 2, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: hi}}}\n  - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: hi}}}\n")
		if i%3 == 0 {
			fmt.Fprintf(w, "  - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: low%d}}}\n", i%3)
		}
		if i%7 == 0 {
			fmt.Fprint(w, "  affinity:\n    podAntiAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n      - {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: hi}}}\n")
		}
	}
}
