package engine

import (
	"slices"
	"strings"
	"testing"

	"github.com/schedplay/schedplay/core/scenario"
)

// finishedNodes is two nodes of 1 CPU; n1 holds a finished pod of 900m with
// the labels, host port and priority the cases below look at.
const finishedNodes = `apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1, topology.kubernetes.io/zone: a}}
status: {allocatable: {cpu: "1", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: n2, labels: {kubernetes.io/hostname: n2, topology.kubernetes.io/zone: b}}
status: {allocatable: {cpu: "1", memory: 8Gi, pods: "2"}}
---
apiVersion: v1
kind: Pod
metadata: {name: job-1, labels: {app: job}}
spec:
  nodeName: n1
  restartPolicy: Never
  containers: [{name: c, image: busybox, ports: [{containerPort: 80, hostPort: 80}], resources: {requests: {cpu: 900m}}}]
status: {phase: PHASE}
---
`

// TestFinishedPodsAreNotSeen: kube-scheduler's pod informer lists no pod
// whose status.phase is Succeeded or Failed, so such a pod holds no
// resources, ports or pod count, matches no affinity or spread term and is
// no preemption victim; the simulation keeps it, finished, on its node.
func TestFinishedPodsAreNotSeen(t *testing.T) {
	tests := []struct {
		name string
		pod  string // the pending pod default/p
		want string // where p runs ("" = Pending)
	}{
		{"its requests are free", `resources: {requests: {cpu: 500m}}`, "n1"},
		{"its host port is free", `ports: [{containerPort: 80, hostPort: 80}], resources: {requests: {cpu: 950m}}`, "n1"},
	}
	for _, phase := range []string{"Succeeded", "Failed"} {
		for _, tc := range tests {
			t.Run(phase+"/"+tc.name, func(t *testing.T) {
				src := strings.Replace(finishedNodes, "PHASE", phase, 1) +
					"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  nodeSelector: {kubernetes.io/hostname: n1}\n  containers: [{name: c, image: nginx, " + tc.pod + "}]\n"
				res := simulate(t, src)
				if got := res["default/p"]; got.Node != tc.want || got.Phase != PhaseRunning {
					t.Errorf("p = %+v, want Running on %s", got, tc.want)
				}
				if got := res["default/job-1"]; got.Phase != PodPhase(phase) || got.Node != "n1" {
					t.Errorf("job-1 = %+v, want %s on n1", got, phase)
				}
			})
		}
	}
}

func TestFinishedPodsInTerms(t *testing.T) {
	tests := []struct {
		name    string
		pod     string
		want    string
		explain func(t *testing.T, sc *scenario.Scenario)
	}{
		{"required anti-affinity ignores it", `  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: job}}}
  nodeSelector: {kubernetes.io/hostname: n1}
`, "n1", nil},
		{"required affinity finds no such pod", `  containers: [{name: c, image: nginx}]
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: job}}}
`, "", nil},
		{"spread counts nothing in zone a", `  topologySpreadConstraints:
  - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: job}}}
  nodeSelector: {kubernetes.io/hostname: n1}
`, "n1", nil},
		{"no preemption victim", `  priorityClassName: system-cluster-critical
  nodeSelector: {kubernetes.io/hostname: n1}
  containers: [{name: c, image: nginx, resources: {requests: {cpu: "1"}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: low}
spec:
  nodeName: n1
  containers: [{name: c, image: nginx, resources: {requests: {cpu: 600m}}}]
`, "n1", func(t *testing.T, sc *scenario.Scenario) {
			ex, err := Explain(sc, "default/p")
			if err != nil {
				t.Fatal(err)
			}
			if ex.Preemption == nil || len(ex.Preemption.Candidates) != 1 || !slices.Equal(ex.Preemption.Candidates["n1"].Victims, []string{"default/low"}) {
				t.Errorf("preemption = %+v, want n1 with the one victim default/low", ex.Preemption)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			spec, labels := tc.pod, "{app: job}"
			if !strings.Contains(spec, "containers:") {
				spec += "  containers: [{name: c, image: nginx}]\n"
			} else if strings.Contains(spec, "podAffinity:") {
				labels = "{}" // a pod matching its own term may go anywhere
			}
			src := strings.Replace(finishedNodes, "PHASE", "Succeeded", 1) +
				"apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: " + labels + "}\nspec:\n" + spec
			res := simulate(t, src)
			got := res["default/p"]
			if got.Node != tc.want {
				t.Errorf("p = %+v, want node %q", got, tc.want)
			}
			if tc.explain != nil {
				sc, err := scenario.Load("f.yaml", []byte(src))
				if err != nil {
					t.Fatal(err)
				}
				tc.explain(t, sc)
			}
		})
	}
}

// TestFinishedPodState: the engine's state shows a finished pod with its
// phase and why the scheduler ignores it; explain refuses it.
func TestFinishedPodState(t *testing.T) {
	src := strings.Replace(finishedNodes, "PHASE", "Failed", 1) +
		"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: nginx}]\n"
	sc, err := scenario.Load("f.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Explain(sc, "default/job-1"); err == nil || !strings.Contains(err.Error(), "has finished (status.phase Failed)") {
		t.Errorf("explain of a finished pod: %v", err)
	}
	sim, err := Simulate(sc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, seq := range []int{0, len(sim.Trace()) - 1} {
		var row *PodState
		st := sim.StateAt(seq)
		for i := range st.Pods {
			if st.Pods[i].Key == "default/job-1" {
				row = &st.Pods[i]
			}
		}
		if row == nil || row.Phase != PhaseFailed || row.Node != "n1" || !strings.HasPrefix(row.LastReason, "failed (status.phase Failed): kube-scheduler's informer does not list finished pods") {
			t.Errorf("state at %d: job-1 = %+v", seq, row)
		}
		for _, n := range st.Nodes {
			if n.Name == "n1" && n.Requested.CPU > 0 && seq == 0 {
				t.Errorf("n1 requested cpu %d at t=0, want 0", n.Requested.CPU)
			}
		}
	}
}

func simulate(t *testing.T, src string) map[string]PodResult {
	t.Helper()
	sc, err := scenario.Load("f.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	sim, err := Simulate(sc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]PodResult{}
	for _, p := range sim.Result().Pods {
		out[p.Namespace+"/"+p.Name] = p
	}
	return out
}
