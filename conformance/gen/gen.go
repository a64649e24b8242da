// Package gen writes seeded random schedplay scenarios: plain Kubernetes YAML with
// zones, heterogeneous nodes, taints, priority classes, running and pending pods,
// PDBs, topology spread, affinities and tolerations, tuned so that preemption is
// frequent (nodes mostly full of low-priority pods, high-priority pods pending).
//
// The first document of every scenario carries the annotation
// schedplay.dev/explain: NAMESPACE/NAME naming the pending pod to explain.
package gen

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"time"

	"sigs.k8s.io/yaml"
)

// ExplainAnnotation names the pod to explain (on the first document).
const ExplainAnnotation = "schedplay.dev/explain"

type m = map[string]any

type node struct {
	name   string
	gen    int // "cpu-gen" label (node affinity Gt/Lt)
	gpus   int // example.com/gpu allocatable
	usedG  int
	port   bool // a running pod holds host port 8080
	zone   string
	cpu    int // millicores
	mem    int // MiB
	pods   int
	labels m
	taints []m
	usedC  int
	usedM  int
	usedP  int
}

type g struct {
	r       *rand.Rand
	docs    []m
	nodes   []*node
	pcs     []string // names usable by pods, low to high
	never   string
	apps    []string
	base    time.Time
	podSeq  int
	pending []string
	// features of this scenario
	rsOwned  bool // running pods owned by ReplicaSet objects (with replicas = pods)
	services bool // a Service per app (system default spreading)
	teams    bool // namespaces team-a (declared, labelled) and team-b (implicit)
	images   []string
	owned    map[string]int // app -> pods owned by its ReplicaSet
}

func (x *g) pick(s ...string) string { return s[x.r.IntN(len(s))] }
func (x *g) chance(p float64) bool   { return x.r.Float64() < p }

// Scenario returns the file name and YAML content of scenario `index` for `seed`.
// The same (seed, index) always gives the same bytes.
func Scenario(seed uint64, index int) (string, []byte) {
	x := &g{
		r:    rand.New(rand.NewPCG(seed, uint64(index)*0x9e3779b97f4a7c15+1)),
		base: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC),
		apps: []string{"web", "api", "cache", "batch"},
	}
	x.rsOwned = x.chance(0.15)
	x.services = x.chance(0.5)
	x.teams = x.chance(0.35)
	x.images = []string{"registry.example/app:1", "registry.example/big:2", "registry.example/tiny:3"}
	x.owned = map[string]int{}
	x.priorityClasses()
	x.schedulerConfig()
	x.makeNodes()
	x.runningPods()
	x.workloads()
	x.pdbs()
	x.pendingPods()
	explain := x.pending[0]
	if len(x.pending) > 1 && x.chance(0.3) {
		explain = x.pending[x.r.IntN(len(x.pending))]
	}
	meta := x.docs[0]["metadata"].(m)
	meta["annotations"] = m{ExplainAnnotation: "default/" + explain}

	var buf bytes.Buffer
	fmt.Fprintf(&buf, "# schedplay conformance scenario: seed %d, index %d\n", seed, index)
	for i, d := range x.docs {
		if i > 0 {
			buf.WriteString("---\n")
		}
		b, err := yaml.Marshal(d)
		if err != nil {
			panic(err)
		}
		buf.Write(b)
	}
	return fmt.Sprintf("gen-%d-%04d.yaml", seed, index), buf.Bytes()
}

func (x *g) priorityClasses() {
	type pc struct {
		name  string
		value int
	}
	all := []pc{{"low", 100}, {"medium", 1000}, {"high", 10000}}
	if x.chance(0.5) {
		all = append(all, pc{"critical", 100000})
	}
	x.never = ""
	if x.chance(0.8) {
		x.never = "high-never"
	}
	def := ""
	if x.chance(0.35) {
		def = x.pick("low", "medium")
	}
	for _, p := range all {
		d := m{"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
			"metadata": m{"name": p.name}, "value": p.value}
		if p.name == def {
			d["globalDefault"] = true
		}
		x.docs = append(x.docs, d)
		x.pcs = append(x.pcs, p.name)
	}
	if x.never != "" {
		x.docs = append(x.docs, m{"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
			"metadata": m{"name": x.never}, "value": 5000, "preemptionPolicy": "Never"})
	}
}

func (x *g) makeNodes() {
	zones := []string{"zone-a", "zone-b", "zone-c"}[:2+x.r.IntN(2)]
	n := 3 + x.r.IntN(6)
	sizes := []struct{ cpu, mem, pods int }{
		{2000, 4096, 10}, {4000, 8192, 20}, {8000, 16384, 30}, {4000, 4096, 8}, {16000, 32768, 110},
	}
	for i := 0; i < n; i++ {
		s := sizes[x.r.IntN(len(sizes))]
		nd := &node{name: fmt.Sprintf("node-%d", i+1), zone: zones[i%len(zones)], cpu: s.cpu, mem: s.mem, pods: s.pods}
		nd.labels = m{"kubernetes.io/hostname": nd.name, "topology.kubernetes.io/zone": nd.zone,
			"topology.kubernetes.io/region": "region-1", "kubernetes.io/os": "linux"}
		nd.gen = 1 + x.r.IntN(4)
		nd.labels["cpu-gen"] = fmt.Sprint(nd.gen)
		if x.chance(0.25) {
			nd.gpus = 1 + x.r.IntN(4)
		}
		if x.chance(0.6) {
			nd.labels["disktype"] = x.pick("ssd", "hdd")
		}
		if x.chance(0.4) {
			nd.labels["pool"] = x.pick("general", "batch")
		}
		if x.chance(0.2) {
			nd.taints = append(nd.taints, m{"key": "dedicated", "value": "batch", "effect": "NoSchedule"})
		}
		if x.chance(0.2) {
			nd.taints = append(nd.taints, m{"key": "spot", "value": "true", "effect": "PreferNoSchedule"})
		}
		if x.chance(0.1) {
			nd.taints = append(nd.taints, m{"key": "maintenance", "effect": "NoSchedule"})
		}
		x.nodes = append(x.nodes, nd)
		spec := m{}
		if len(nd.taints) > 0 {
			ts := []any{}
			for _, t := range nd.taints {
				ts = append(ts, t)
			}
			spec["taints"] = ts
		}
		if x.chance(0.05) {
			spec["unschedulable"] = true
		}
		alloc := m{"cpu": fmt.Sprintf("%dm", nd.cpu), "memory": fmt.Sprintf("%dMi", nd.mem), "pods": fmt.Sprint(nd.pods)}
		if nd.gpus > 0 {
			alloc["example.com/gpu"] = fmt.Sprint(nd.gpus)
		}
		status := m{"allocatable": alloc, "capacity": alloc}
		if x.chance(0.5) {
			// ImageLocality: images already on the node (sizes in the scoring range).
			var imgs []any
			for j, img := range x.images {
				if x.chance(0.5) {
					imgs = append(imgs, m{"names": []any{img}, "sizeBytes": []int{300, 900, 40}[j] * 1024 * 1024})
				}
			}
			if len(imgs) > 0 {
				status["images"] = imgs
			}
		}
		d := m{"apiVersion": "v1", "kind": "Node", "metadata": m{"name": nd.name, "labels": nd.labels},
			"status": status}
		if len(spec) > 0 {
			d["spec"] = spec
		}
		x.docs = append(x.docs, d)
	}
}

func (x *g) tolerationsFor(nd *node) []any {
	var out []any
	for _, t := range nd.taints {
		out = append(out, m{"key": t["key"], "operator": "Equal", "value": t["value"], "effect": t["effect"]})
	}
	return out
}

func (x *g) container(cpu, mem int) []any {
	return []any{m{"name": "main", "image": x.images[x.r.IntN(len(x.images))],
		"resources": m{"requests": m{"cpu": fmt.Sprintf("%dm", cpu), "memory": fmt.Sprintf("%dMi", mem)}}}}
}

// decorate adds, at random, the spec features that change a pod's effective requests
// without changing its total much: init containers, a restartable (sidecar) init
// container, overhead, pod-level resources, a host port, an extended resource.
func (x *g) decorate(spec m, nd *node, cpu, mem int) {
	cs := spec["containers"].([]any)
	switch v := x.r.IntN(12); {
	case v == 0:
		// A larger init container: the effective request is the max of both.
		spec["initContainers"] = []any{m{"name": "init", "image": x.images[0],
			"resources": m{"requests": m{"cpu": fmt.Sprintf("%dm", cpu+250), "memory": fmt.Sprintf("%dMi", mem/2)}}}}
	case v == 1:
		// A sidecar (restartable init container) adds to the containers' requests.
		spec["initContainers"] = []any{m{"name": "sidecar", "image": x.images[2], "restartPolicy": "Always",
			"resources": m{"requests": m{"cpu": "100m", "memory": "64Mi"}}}}
	case v == 2:
		spec["overhead"] = m{"cpu": "50m", "memory": "32Mi"}
	case v == 3:
		// Pod-level resources (PodLevelResources, beta on): the pod's requests win.
		spec["resources"] = m{"requests": m{"cpu": fmt.Sprintf("%dm", cpu), "memory": fmt.Sprintf("%dMi", mem)}}
		c := cs[0].(m)
		c["resources"] = m{"requests": m{"cpu": fmt.Sprintf("%dm", cpu/2), "memory": fmt.Sprintf("%dMi", mem/2)}}
	case v == 4 && (nd == nil || !nd.port):
		cs[0].(m)["ports"] = []any{m{"containerPort": 8080, "hostPort": 8080, "protocol": "TCP"}}
		if nd != nil {
			nd.port = true
		}
	case v == 5 && (nd == nil || nd.usedG < nd.gpus):
		c := cs[0].(m)
		req := c["resources"].(m)["requests"].(m)
		req["example.com/gpu"] = "1"
		c["resources"].(m)["limits"] = m{"example.com/gpu": "1"}
		if nd != nil {
			nd.usedG++
		}
	}
}

func (x *g) runningPods() {
	for _, nd := range x.nodes {
		target := 0.6 + x.r.Float64()*0.35
		for nd.usedP < nd.pods-1 && float64(nd.usedC) < target*float64(nd.cpu) && len(x.docs) < 90 {
			cpu := []int{250, 500, 500, 1000, 1500}[x.r.IntN(5)]
			mem := []int{256, 512, 1024, 2048}[x.r.IntN(4)]
			if nd.usedC+cpu > nd.cpu || nd.usedM+mem > nd.mem {
				break
			}
			nd.usedC += cpu
			nd.usedM += mem
			nd.usedP++
			x.podSeq++
			app := x.apps[x.r.IntN(len(x.apps))]
			name := fmt.Sprintf("%s-%d", app, x.podSeq)
			created := x.base.Add(-time.Duration(x.r.IntN(72*60)) * time.Minute)
			ns := "default"
			if x.teams && x.chance(0.25) {
				ns = x.pick("team-a", "team-b")
			}
			meta := m{"name": name, "namespace": ns, "labels": m{"app": app},
				"creationTimestamp": created.Format(time.RFC3339)}
			if ns == "default" && (x.rsOwned || x.chance(0.3)) && x.chance(0.6) {
				meta["ownerReferences"] = []any{m{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": app + "-rs",
					"uid": "rs-" + app, "controller": true}}
				x.owned[app]++
			}
			if x.chance(0.04) {
				// Terminating at t=0: still holds its resources until its grace period ends.
				meta["deletionTimestamp"] = x.base.Add(time.Duration(5+x.r.IntN(60)) * time.Second).Format(time.RFC3339)
				meta["deletionGracePeriodSeconds"] = 30
			}
			spec := m{"nodeName": nd.name, "containers": x.container(cpu, mem)}
			x.decorate(spec, nd, cpu, mem)
			if pc := x.lowClass(); pc != "" {
				spec["priorityClassName"] = pc
			}
			if tol := x.tolerationsFor(nd); len(tol) > 0 {
				spec["tolerations"] = tol
			}
			if x.chance(0.5) {
				spec["terminationGracePeriodSeconds"] = []int{0, 5, 30, 60}[x.r.IntN(4)]
			}
			d := m{"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}
			if x.chance(0.3) {
				st := created.Add(time.Duration(x.r.IntN(600)) * time.Second)
				d["status"] = m{"startTime": st.Format(time.RFC3339)}
			}
			x.docs = append(x.docs, d)
		}
	}
}

// lowClass is the class of a running pod: mostly low priority, sometimes none (0 or the
// global default), sometimes medium.
func (x *g) lowClass() string {
	switch v := x.r.IntN(10); {
	case v < 6:
		return "low"
	case v < 8:
		return ""
	default:
		return "medium"
	}
}

// schedulerConfig sometimes writes a KubeSchedulerConfiguration: another scoring
// strategy, List defaulting with cluster-level default constraints, a disabled score
// plugin, different weights.
func (x *g) schedulerConfig() {
	if !x.chance(0.3) {
		return
	}
	var args []any
	var plugins m
	switch x.r.IntN(5) {
	case 0:
		args = append(args, m{"name": "NodeResourcesFit", "args": m{"scoringStrategy": m{"type": "MostAllocated",
			"resources": []any{m{"name": "cpu", "weight": 1 + x.r.IntN(3)}, m{"name": "memory", "weight": 1}}}}})
	case 1:
		args = append(args, m{"name": "NodeResourcesFit", "args": m{"scoringStrategy": m{"type": "RequestedToCapacityRatio",
			"resources":                []any{m{"name": "cpu", "weight": 1}, m{"name": "memory", "weight": 1}},
			"requestedToCapacityRatio": m{"shape": []any{m{"utilization": 0, "score": 0}, m{"utilization": 100, "score": 10}}}}}})
	case 2:
		args = append(args, m{"name": "PodTopologySpread", "args": m{"defaultingType": "List", "defaultConstraints": []any{
			m{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "ScheduleAnyway"},
			m{"maxSkew": 2, "topologyKey": "kubernetes.io/hostname", "whenUnsatisfiable": x.pick("ScheduleAnyway", "DoNotSchedule")}}}})
	case 3:
		plugins = m{"score": m{"disabled": []any{m{"name": x.pick("NodeResourcesBalancedAllocation", "ImageLocality", "InterPodAffinity")}}}}
	default:
		plugins = m{"score": m{"enabled": []any{m{"name": "NodeResourcesFit", "weight": 1 + x.r.IntN(5)},
			m{"name": "TaintToleration", "weight": 1 + x.r.IntN(5)}}}}
	}
	prof := m{"schedulerName": "default-scheduler"}
	if len(args) > 0 {
		prof["pluginConfig"] = args
	}
	if plugins != nil {
		prof["plugins"] = plugins
	}
	x.docs = append(x.docs, m{"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
		"profiles": []any{prof}})
}

// workloads writes the namespaces, Services and ReplicaSets the pods refer to. A
// ReplicaSet's replicas equal the pods it owns, so no controller has work at t=0.
func (x *g) workloads() {
	if x.teams {
		x.docs = append(x.docs, m{"apiVersion": "v1", "kind": "Namespace",
			"metadata": m{"name": "team-a", "labels": m{"team": "a"}}})
	}
	for _, app := range x.apps {
		if x.services && x.chance(0.7) {
			x.docs = append(x.docs, m{"apiVersion": "v1", "kind": "Service", "metadata": m{"name": app, "namespace": "default"},
				"spec": m{"selector": m{"app": app}, "ports": []any{m{"port": 80}}}})
		}
		if n := x.owned[app]; x.rsOwned && n > 0 {
			x.docs = append(x.docs, m{"apiVersion": "apps/v1", "kind": "ReplicaSet",
				"metadata": m{"name": app + "-rs", "namespace": "default", "uid": "rs-" + app},
				"spec": m{"replicas": n, "selector": m{"matchLabels": m{"app": app}},
					"template": m{"metadata": m{"labels": m{"app": app}},
						"spec": m{"containers": []any{m{"name": "main", "image": x.images[0]}}}}}})
		}
	}
}

func (x *g) pdbs() {
	n := x.r.IntN(3)
	for i := 0; i < n; i++ {
		app := x.apps[x.r.IntN(len(x.apps))]
		spec := m{"selector": m{"matchLabels": m{"app": app}}}
		switch x.r.IntN(6) {
		case 0, 1:
			spec["minAvailable"] = 1 + x.r.IntN(3)
		case 2:
			spec["maxUnavailable"] = 1 + x.r.IntN(2)
		case 3:
			spec["maxUnavailable"] = x.pick("25%", "50%")
		default:
			spec["minAvailable"] = x.pick("50%", "30%", "80%")
		}
		x.docs = append(x.docs, m{"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
			"metadata": m{"name": fmt.Sprintf("pdb-%s-%d", app, i), "namespace": "default"}, "spec": spec})
	}
}

func (x *g) pendingPods() {
	n := 2 + x.r.IntN(5)
	for i := 0; i < n; i++ {
		x.podSeq++
		app := x.apps[x.r.IntN(len(x.apps))]
		name := fmt.Sprintf("pending-%s-%d", app, x.podSeq)
		x.pending = append(x.pending, name)
		cpu := []int{500, 1000, 1500, 2000, 3000}[x.r.IntN(5)]
		mem := []int{512, 1024, 2048, 4096}[x.r.IntN(4)]
		created := x.base.Add(-time.Duration(x.r.IntN(30)) * time.Minute)
		meta := m{"name": name, "namespace": "default", "labels": m{"app": app, "tier": "pending"},
			"creationTimestamp": created.Format(time.RFC3339)}
		spec := m{"containers": x.container(cpu, mem)}
		switch v := x.r.IntN(10); {
		case v < 5:
			spec["priorityClassName"] = "high"
		case v < 6 && x.never != "":
			spec["priorityClassName"] = x.never
		case v < 7:
			spec["priorityClassName"] = x.pcs[len(x.pcs)-1]
		case v < 8:
			spec["priorityClassName"] = "medium"
		default:
			// no class: the global default or 0
		}
		var tols []any
		if x.chance(0.4) {
			tols = append(tols, m{"key": "dedicated", "operator": "Equal", "value": x.pick("batch", "batch", "gpu"), "effect": x.pick("NoSchedule", "NoSchedule", "NoExecute")})
		}
		if x.chance(0.3) {
			tols = append(tols, m{"key": "spot", "operator": "Exists"})
		}
		if x.chance(0.15) {
			tols = append(tols, m{"key": "maintenance", "operator": "Exists", "effect": "NoSchedule"})
		}
		if x.chance(0.05) {
			tols = append(tols, m{"operator": "Exists"}) // empty key: tolerates every taint
		}
		if len(tols) > 0 {
			spec["tolerations"] = tols
		}
		if x.chance(0.2) {
			spec["nodeSelector"] = m{"disktype": x.pick("ssd", "hdd")}
		}
		aff := m{}
		if x.chance(0.4) {
			na := m{}
			if x.chance(0.6) {
				var terms []any
				for k := 0; k < 1+x.r.IntN(2); k++ {
					terms = append(terms, x.nodeSelectorTerm())
				}
				na["requiredDuringSchedulingIgnoredDuringExecution"] = m{"nodeSelectorTerms": terms}
			}
			var prefs []any
			for k := 0; k < 1+x.r.IntN(2); k++ {
				t := x.nodeSelectorTerm()
				delete(t, "matchFields") // preferred terms may use them too, but keep scores varied
				prefs = append(prefs, m{"weight": 1 + x.r.IntN(100), "preference": t})
			}
			na["preferredDuringSchedulingIgnoredDuringExecution"] = prefs
			aff["nodeAffinity"] = na
		}
		if x.chance(0.3) {
			term := m{"labelSelector": m{"matchLabels": m{"app": app}}, "topologyKey": x.pick("kubernetes.io/hostname", "topology.kubernetes.io/zone")}
			if x.chance(0.5) {
				aff["podAntiAffinity"] = m{"requiredDuringSchedulingIgnoredDuringExecution": []any{term}}
			} else {
				aff["podAntiAffinity"] = m{"preferredDuringSchedulingIgnoredDuringExecution": []any{m{"weight": 50, "podAffinityTerm": term}}}
			}
		}
		if x.chance(0.3) {
			other := x.apps[x.r.IntN(len(x.apps))]
			term := m{"labelSelector": m{"matchLabels": m{"app": other}}, "topologyKey": x.pick("topology.kubernetes.io/zone", "kubernetes.io/hostname")}
			if x.teams {
				switch x.r.IntN(3) {
				case 0:
					term["namespaces"] = []any{"team-a", "team-b"}
				case 1:
					term["namespaceSelector"] = m{"matchLabels": m{"team": "a"}}
				}
			}
			if x.chance(0.4) {
				aff["podAffinity"] = m{"requiredDuringSchedulingIgnoredDuringExecution": []any{term}}
			} else {
				aff["podAffinity"] = m{"preferredDuringSchedulingIgnoredDuringExecution": []any{m{"weight": 1 + x.r.IntN(100), "podAffinityTerm": term}}}
			}
		}
		if len(aff) > 0 {
			spec["affinity"] = aff
		}
		if x.chance(0.45) {
			var tscs []any
			k := 1 + x.r.IntN(2)
			keys := []string{"topology.kubernetes.io/zone", "kubernetes.io/hostname"}
			for j := 0; j < k; j++ {
				c := m{"maxSkew": 1 + x.r.IntN(2), "topologyKey": keys[j],
					"labelSelector": m{"matchLabels": m{"app": app}}}
				if x.chance(0.6) {
					c["whenUnsatisfiable"] = "DoNotSchedule"
					if x.chance(0.3) {
						c["minDomains"] = 2 + x.r.IntN(3)
					}
				} else {
					c["whenUnsatisfiable"] = "ScheduleAnyway"
				}
				tscs = append(tscs, c)
			}
			spec["topologySpreadConstraints"] = tscs
		}
		x.decorate(spec, nil, cpu, mem)
		d := m{"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}
		if x.chance(0.1) {
			// A pod that a previous preemption nominated somewhere.
			d["status"] = m{"nominatedNodeName": x.nodes[x.r.IntN(len(x.nodes))].name}
		}
		x.docs = append(x.docs, d)
	}
}

// nodeSelectorTerm is one node selector term using any operator, sometimes with a
// matchFields requirement on metadata.name.
func (x *g) nodeSelectorTerm() m {
	var exprs []any
	switch x.r.IntN(6) {
	case 0:
		exprs = append(exprs, m{"key": "topology.kubernetes.io/zone", "operator": "In", "values": []any{"zone-a", x.pick("zone-b", "zone-c")}})
	case 1:
		exprs = append(exprs, m{"key": "pool", "operator": "NotIn", "values": []any{x.pick("general", "batch")}})
	case 2:
		exprs = append(exprs, m{"key": "disktype", "operator": x.pick("Exists", "DoesNotExist")})
	case 3:
		exprs = append(exprs, m{"key": "cpu-gen", "operator": x.pick("Gt", "Lt"), "values": []any{fmt.Sprint(1 + x.r.IntN(3))}})
	case 4:
		exprs = append(exprs, m{"key": "pool", "operator": "In", "values": []any{x.pick("general", "batch")}})
	}
	t := m{}
	if len(exprs) > 0 {
		t["matchExpressions"] = exprs
	}
	if len(exprs) == 0 || x.chance(0.1) {
		// A field selector on metadata.name takes exactly one value.
		name := x.nodes[x.r.IntN(len(x.nodes))].name
		t["matchFields"] = []any{m{"key": "metadata.name", "operator": x.pick("In", "In", "NotIn"), "values": []any{name}}}
	}
	return t
}
