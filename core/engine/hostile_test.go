package engine

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/schedplay/schedplay/core/scenario"
)

// Hostile inputs: what a link or a paste may hold to crash, freeze or
// exhaust the engine. Each either is refused at the position that crosses
// a limit (docs/limits.md) or loads and runs to a correct end.

const hostileNode = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: \"8\", memory: 32Gi, pods: \"110\"}}\n"

func hostilePod(name, spec string) string {
	return fmt.Sprintf("---\napiVersion: v1\nkind: Pod\nmetadata: {name: %s}\nspec: {%scontainers: [{name: c, image: pause, resources: {requests: {cpu: \"1\"}}}]}\n", name, spec)
}

func hostileWorkload(kind string, replicas string) string {
	return fmt.Sprintf("---\napiVersion: apps/v1\nkind: %s\nmetadata: {name: web}\nspec:\n  replicas: %s\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, image: pause}]}\n", kind, replicas)
}

func hostileTimeline(actions ...string) string {
	return "---\napiVersion: schedplay.dev/v1alpha1\nkind: Timeline\nspec:\n  actions:\n" + strings.Join(actions, "")
}

// aliasFan is a document whose one alias-holding key expands to about n
// nodes (an anchored list of 100 scalars, aliased n/100 times).
func aliasFan(n int) string {
	var b strings.Builder
	b.WriteString("---\nbase: &x [" + strings.TrimSuffix(strings.Repeat("v,", 100), ",") + "]\nfan: [")
	for i := 0; i < n/101; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("*x")
	}
	b.WriteString("]\n")
	return b.String()
}

func lines(prefix string, n int, format string) string {
	var b strings.Builder
	b.WriteString(prefix)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, format, i)
	}
	return b.String()
}

func TestHostileInputsRefused(t *testing.T) {
	small := scenario.DefaultLimits
	small.Bytes, small.Pods, small.Nodes = 2000, 5, 2
	cases := []struct {
		name string
		src  string
		lim  *scenario.Limits
		// at is the "line:col" of the first error, msg a part of it.
		at, msg string
	}{
		{"flow nesting 100,000 deep", "a: " + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000), nil, "1:103", "nests more than 100 levels"},
		{"block sequences nested on one line", "a:\n" + strings.Repeat("- ", 50_000) + "x\n", nil, "2:199", "nests more than 100 levels"},
		{"flow mappings nested", "a: " + strings.Repeat("{b: ", 200) + "c" + strings.Repeat("}", 200), nil, "1:400", "nests more than 100 levels"},
		{"block mapping of 20,000 keys", lines(hostileNode+"---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels:\n", 20_000, "    k%07d: v\n"), nil, "10011:5", "more than 10000 keys"},
		{"flow mapping of 20,000 keys", "a: {" + lines("", 20_000, "k%d: v, ") + "z: v}", nil, "1:98893", "more than 10000 keys"},
		{"keys with CR line breaks", strings.ReplaceAll(lines("a:\n", 20_000, "  k%d: v\n"), "\n", "\r"), nil, "10002:3", "more than 10000 keys"},
		{"over the byte limit", hostileNode + strings.Repeat("# padding line\n", 200), &small, "131:3", "over the limit of 2000 bytes"},
		{"aliases over the limit in one document", aliasFan(400_000), nil, "3:7792", "aliases expand this document past 262144"},
		{"aliases under the limit per document, over it per file", aliasFan(100_000) + aliasFan(100_000) + aliasFan(100_000), nil, "9:7", "aliases expand the file past 262144"},
		{"Deployment of 2^31-1 replicas", hostileNode + hostileWorkload("Deployment", "2147483647"), nil, "10:13", "more than 10000 pods"},
		{"ReplicaSet of 10,001 replicas", hostileNode + hostileWorkload("ReplicaSet", "10001"), nil, "10:13", "more than 10000 pods"},
		{"timeline scale to 2^31-1", hostileNode + hostileWorkload("Deployment", "1") + hostileTimeline("  - {at: 10, scale: {kind: Deployment, name: web, replicas: 2147483647}}\n"), nil, "20:61", "more than 10000 pods"},
		{"pods over a budget of 5", hostileNode + lines("", 6, hostilePod("p%d", "")), &small, "31:1", "more than 5 pods"},
		{"nodes over a budget of 2", hostileNode + "---\n" + strings.Replace(hostileNode, "n1", "n2", 1) + hostileTimeline("  - {at: 1, addNode: {apiVersion: v1, kind: Node, metadata: {name: n3}}}\n"), &small, "15:22", "more than 2 nodes"},
		{"negative ReplicaSet replicas", hostileNode + hostileWorkload("ReplicaSet", "-1"), nil, "10:13", "must be greater than or equal to 0"},
		{"negative Deployment replicas", hostileNode + hostileWorkload("Deployment", "-5"), nil, "10:13", "must be greater than or equal to 0"},
		{"timeline at 1e10 s", hostileNode + hostileTimeline("  - {at: 1e10, cordon: n1}\n"), nil, "10:10", "invalid time 1e10 seconds: a time is a finite number of seconds up to about 292 years"},
		{"timeline at .inf", hostileNode + hostileTimeline("  - {at: .inf, cordon: n1}\n"), nil, "10:10", "invalid time"},
		{"timeline at Inf", hostileNode + hostileTimeline("  - {at: Inf, cordon: n1}\n"), nil, "10:10", "invalid time"},
		{"timeline at NaN", hostileNode + hostileTimeline("  - {at: NaN, cordon: n1}\n"), nil, "10:10", "invalid time"},
		{"timeline at 1e300", hostileNode + hostileTimeline("  - {at: 1e300, cordon: n1}\n"), nil, "10:10", "invalid time 1e300 seconds"},
		{"timeline at 1e400", hostileNode + hostileTimeline("  - {at: 1e400, cordon: n1}\n"), nil, "10:10", "invalid time"},
		{"preStop seconds NaN", hostileNode + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p, annotations: {schedplay.dev/prestop-seconds: NaN}}\nspec: {containers: [{name: c, image: pause}]}\n", nil, "8:66", "not a finite number of seconds"},
		{"shutdown seconds Inf", hostileNode + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p, annotations: {schedplay.dev/shutdown-seconds: \"+Inf\"}}\nspec: {containers: [{name: c, image: pause}]}\n", nil, "8:67", "not a finite number of seconds"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lim := scenario.DefaultLimits
			if c.lim != nil {
				lim = *c.lim
			}
			start := time.Now()
			_, err := scenario.LoadLimited("h.yaml", []byte(c.src), lim)
			var el scenario.ErrorList
			if !errors.As(err, &el) {
				t.Fatalf("want a positioned refusal, got %v", err)
			}
			if at := fmt.Sprintf("%d:%d", el[0].Line, el[0].Col); at != c.at || !strings.Contains(el[0].Msg, c.msg) {
				t.Errorf("first error at %s: %v; want %s with %q", at, el[0], c.at, c.msg)
			}
			if el[0].Hint == "" {
				t.Errorf("the refusal says nothing to do: %v", el[0])
			}
			// Not a timed assertion: a refusal that parses the input whole
			// shows up here on any machine as seconds, not milliseconds.
			t.Logf("refused in %v", time.Since(start))
		})
	}
}

// The same checks through a Cache, which reads documents it has seen
// without reading them again: the per-file counts must still add up.
func TestHostileInputsRefusedThroughCache(t *testing.T) {
	var c scenario.Cache
	ok := hostileNode + lines("", 5, hostilePod("p%d", ""))
	if _, err := c.Load("h.yaml", []byte(ok)); err != nil {
		t.Fatal(err)
	}
	over := ok + hostileWorkload("Deployment", "9996")
	_, err := c.Load("h.yaml", []byte(over))
	var el scenario.ErrorList
	if !errors.As(err, &el) || el[0].Line != 35 || !strings.Contains(el[0].Msg, "more than 10000 pods") {
		t.Fatalf("cached pods and a new Deployment over the budget: got %v", err)
	}
	// Two fans within the limit: they fail to load (they are no Kubernetes
	// objects), but the Cache keeps their parsed documents.
	fans := aliasFan(100_000) + aliasFan(100_000)
	if _, err := c.Load("h.yaml", []byte(fans)); err == nil || strings.Contains(err.Error(), "aliases expand") {
		t.Fatalf("two fans within the limit: got %v", err)
	}
	_, err = c.Load("h.yaml", []byte(fans+aliasFan(100_000)))
	if !errors.As(err, &el) || el[0].Line != 9 || !strings.Contains(el[0].Msg, "aliases expand the file") {
		t.Fatalf("a third fan after two cached ones: got %v", err)
	}
}

// Inputs that look hostile to a coarse reading but are ordinary YAML load.
func TestHostileLookalikesLoad(t *testing.T) {
	cases := map[string]string{
		"brackets in quotes and comments":         hostileNode + "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations: {a: \"" + strings.Repeat("[", 500) + "\", b: '" + strings.Repeat("{", 500) + "'}\n# " + strings.Repeat("[", 500) + "\nspec: {containers: [{name: c, image: pause}]}\n",
		"a block scalar of 20,000 key-like lines": hostileNode + "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n    script: |\n" + lines("", 20_000, "      k%d: v\n") + "spec: {containers: [{name: c, image: pause}]}\n",
		"a plain scalar with brackets":            hostileNode + "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n    note: a" + strings.Repeat("[", 500) + "\nspec: {containers: [{name: c, image: pause}]}\n",
		"10,000 replicas exactly":                 hostileNode + hostileWorkload("Deployment", "10000"),
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := scenario.Load("h.yaml", []byte(src)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestHostileRunsEndCorrectly(t *testing.T) {
	victim := "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: hi}\nvalue: 1000\n" +
		"---\n" + strings.Replace(hostileNode, `cpu: "8"`, `cpu: "1"`, 1) + "%s" + hostilePod("hi", "priorityClassName: hi, ")
	cases := []struct {
		name  string
		src   string
		check func(t *testing.T, sim *Simulation)
	}{
		{"no node at all: the pod waits, the run ends", hostilePod("p", ""), func(t *testing.T, sim *Simulation) {
			if n := len(sim.Trace()); n > 10 {
				t.Errorf("%d events for one pod with no node", n)
			}
			wantPhase(t, sim, "default/p", PhasePending, "")
		}},
		{"the last node removed, a pod created, a node added later", strings.Replace(hostileNode, "n1", "a", 1) + hostileTimeline(
			"  - {at: 30s, removeNode: a}\n",
			"  - {at: 40s, create: {apiVersion: v1, kind: Pod, metadata: {name: late}, spec: {containers: [{name: c, image: pause}]}}}\n",
			"  - {at: 60s, addNode: {apiVersion: v1, kind: Node, metadata: {name: b}, status: {allocatable: {cpu: \"4\", memory: 4Gi, pods: \"10\"}}}}\n"),
			func(t *testing.T, sim *Simulation) {
				// Upstream's error backoff (1 s doubling to 10 s, flushed on
				// the 1 s window after it ends): failures at 40, 42, 45, 50
				// and 59 s; the one at 59 backs off to 69, flushed at 70,
				// after b came at 60.
				wantPhase(t, sim, "default/late", PhaseRunning, "b")
				wantScheduledAt(t, sim, "default/late", 70*time.Second)
			}},
		{"the last node removed, a node added a century later", strings.Replace(hostileNode, "n1", "a", 1) + hostileTimeline(
			"  - {at: 30s, removeNode: a}\n",
			"  - {at: 40s, create: {apiVersion: v1, kind: Pod, metadata: {name: late}, spec: {containers: [{name: c, image: pause}]}}}\n",
			"  - {at: 3153600000s, addNode: {apiVersion: v1, kind: Node, metadata: {name: b}, status: {allocatable: {cpu: \"4\", memory: 4Gi, pods: \"10\"}}}}\n"),
			func(t *testing.T, sim *Simulation) {
				// At the 10 s maximum the retries come every 11 s: the pod
				// is back within 11 s of b, and the retries in between
				// cost no events.
				wantPhase(t, sim, "default/late", PhaseRunning, "b")
				if n := len(sim.Trace()); n > 12 {
					t.Errorf("%d events, want the few of a pod waiting for a node", n)
				}
				for _, e := range sim.Trace() {
					if at := time.Duration(e.T); e.Kind == EvScheduled && (at <= 3153600000*time.Second || at > 3153600011*time.Second) {
						t.Errorf("late scheduled at %v, want within 11 s after b is added", at)
					}
				}
			}},
		{"bound requests past 2^63 millicores: the node is full", strings.Replace(hostileNode, `cpu: "8"`, "cpu: 11200m", 1) +
			hostilePod("a", "nodeName: n1, ") + strings.Replace(hostilePod("b", "nodeName: n1, "), `cpu: "1"`, "cpu: 1Ei", 1) +
			strings.Replace(hostilePod("b2", "nodeName: n1, "), `cpu: "1"`, "cpu: 1Ei", 1) + hostilePod("c", ""),
			func(t *testing.T, sim *Simulation) { wantPhase(t, sim, "default/c", PhasePending, "") }},
		{"a grace period of 10^10 s outlasts every other", fmt.Sprintf(victim, hostilePod("low", "nodeName: n1, terminationGracePeriodSeconds: 10000000000, ")), func(t *testing.T, sim *Simulation) {
			wantUntil(t, sim, "default/low", time.Duration(math.MaxInt64))
		}},
		{"preStop and grace at the int64 bound", fmt.Sprintf(victim, strings.Replace(hostilePod("low", "nodeName: n1, terminationGracePeriodSeconds: 9223372036854775807, "),
			"metadata: {name: low}", "metadata: {name: low, annotations: {schedplay.dev/prestop-seconds: \"9223372036854775807\", schedplay.dev/shutdown-seconds: \"1e30\"}}", 1)), func(t *testing.T, sim *Simulation) {
			wantUntil(t, sim, "default/low", time.Duration(math.MaxInt64))
		}},
		{"a timeline just under 292 years runs in order", hostileNode + hostilePod("p", "nodeName: n1, ") + hostileTimeline("  - {at: 9e9, cordon: n1}\n", "  - {at: 0, delete: {kind: Pod, name: p}}\n"), func(t *testing.T, sim *Simulation) {
			var order []string
			for _, e := range sim.Trace() {
				if e.Kind == EvDeleted || strings.Contains(e.Reason, "cordon") {
					order = append(order, e.Kind)
				}
			}
			if len(order) == 0 || order[0] != EvDeleted {
				t.Errorf("the delete at 0 must come first: %v", order)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sc, err := scenario.Load("h.yaml", []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			sim, err := Simulate(sc, Options{MaxEvents: 2000})
			if err != nil {
				t.Fatalf("run: %v", err)
			}
			c.check(t, sim)
		})
	}
}

func wantPhase(t *testing.T, sim *Simulation, key string, phase PodPhase, node string) {
	t.Helper()
	for _, p := range sim.Result().Pods {
		if p.Namespace+"/"+p.Name == key {
			if p.Phase != phase || p.Node != node {
				t.Errorf("%s: %s on %q, want %s on %q", key, p.Phase, p.Node, phase, node)
			}
			return
		}
	}
	t.Errorf("%s: not in the result", key)
}

func wantUntil(t *testing.T, sim *Simulation, key string, atLeast time.Duration) {
	t.Helper()
	for _, e := range sim.Trace() {
		if e.Kind == EvPreempted && e.Pod == key {
			if e.Until == nil || time.Duration(*e.Until) < atLeast-time.Hour {
				t.Errorf("%s ends at %v, want about %v", key, e.Until, atLeast)
			}
			return
		}
	}
	t.Errorf("%s was not preempted", key)
}

// The event budget's error says which budget, when, and what the run was
// doing; the trace so far is kept.
func TestBudgetErrorExplains(t *testing.T) {
	sc, err := scenario.Load("h.yaml", []byte(hostileNode+hostileWorkload("Deployment", "50")))
	if err != nil {
		t.Fatal(err)
	}
	sim, err := Simulate(sc, Options{MaxEvents: 40})
	if !errors.Is(err, ErrEventBudget) {
		t.Fatalf("want the event budget, got %v", err)
	}
	for _, want := range []string{"budget of 40 events", "at t=0s", "Created", "--max-events"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
	if len(sim.Trace()) <= 40 {
		t.Errorf("the trace so far is lost: %d events", len(sim.Trace()))
	}
}

// FuzzLoadSimulate loads any text within small limits and runs what loads
// with a small event budget: nothing may panic, a refusal is positioned
// inside the input, and a run ends on its own or on the event budget.
// Seeded with the hostile shapes above, cut down to the small limits.
func FuzzLoadSimulate(f *testing.F) {
	seeds := []string{
		hostileNode + hostilePod("p", ""),
		hostilePod("p", ""),
		"a: " + strings.Repeat("[", 120) + strings.Repeat("]", 120),
		"a:\n" + strings.Repeat("- ", 120) + "x\n",
		lines("a:\n", 300, "  k%d: v\n"),
		aliasFan(3000),
		hostileNode + hostileWorkload("Deployment", "2147483647"),
		hostileNode + hostileWorkload("ReplicaSet", "-1"),
		hostileNode + hostileWorkload("Deployment", "3") + hostileTimeline("  - {at: 10, scale: {kind: Deployment, name: web, replicas: 5}}\n"),
		hostileNode + hostileTimeline("  - {at: 1e10, cordon: n1}\n", "  - {at: .nan, cordon: n1}\n"),
		strings.Replace(hostileNode, "n1", "a", 1) + hostileTimeline("  - {at: 30s, removeNode: a}\n",
			"  - {at: 40s, create: {apiVersion: v1, kind: Pod, metadata: {name: late}, spec: {containers: [{name: c, image: pause}]}}}\n"),
		strings.Replace(hostileNode, `cpu: "8"`, "cpu: 11200m", 1) + strings.Replace(hostilePod("b", "nodeName: n1, "), `cpu: "1"`, "cpu: 1Ei", 1) +
			strings.Replace(hostilePod("b2", "nodeName: n1, "), `cpu: "1"`, "cpu: 1Ei", 1) + hostilePod("c", ""),
		"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: hi}\nvalue: 1000\n---\n" + hostileNode +
			hostilePod("low", "nodeName: n1, terminationGracePeriodSeconds: 9223372036854775807, ") + hostilePod("hi", "priorityClassName: hi, "),
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	lim := scenario.Limits{Bytes: 64 << 10, Depth: 100, Width: 1000, Aliases: 10_000, Nodes: 20, Pods: 100}
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := scenario.LoadLimited("fuzz.yaml", data, lim)
		if err != nil {
			var el scenario.ErrorList
			if !errors.As(err, &el) || len(el) == 0 {
				t.Fatalf("not a positioned refusal: %v", err)
			}
			for _, d := range el {
				if d.Line < 1 || d.Col < 1 || d.Line > 1+strings.Count(string(data), "\n")+strings.Count(string(data), "\r") {
					t.Fatalf("diagnostic outside the input: %v", d)
				}
			}
			return
		}
		sim, err := Simulate(sc, Options{MaxEvents: 3000})
		if err != nil && !errors.Is(err, ErrEventBudget) {
			t.Fatalf("run: %v", err)
		}
		if sim == nil {
			t.Fatal("no simulation")
		}
		for _, e := range sim.Trace() {
			if e.T < 0 {
				t.Fatalf("event before the start: %+v", e)
			}
		}
	})
}

// wantScheduledAt checks that pod was scheduled, once, at simulated time at.
func wantScheduledAt(t *testing.T, sim *Simulation, pod string, at time.Duration) {
	t.Helper()
	var times []time.Duration
	for _, e := range sim.Trace() {
		if e.Kind == EvScheduled && e.Pod == pod {
			times = append(times, time.Duration(e.T))
		}
	}
	if len(times) != 1 || times[0] != at {
		t.Errorf("%s scheduled at %v, want once at %v", pod, times, at)
	}
}
