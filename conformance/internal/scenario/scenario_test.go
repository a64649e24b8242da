package scenario

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const head = `apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: dflt}
value: 50
globalDefault: true
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: never}
value: 500
preemptionPolicy: Never
---
apiVersion: v1
kind: Node
metadata:
  name: n1
  labels: {topology.kubernetes.io/zone: z1, topology.kubernetes.io/region: r1}
status: {allocatable: {cpu: "2", memory: 2Gi, pods: "5"}}
`

func TestPriorityAdmission(t *testing.T) {
	sc, err := Parse("t.yaml", []byte(head+`---
apiVersion: v1
kind: Pod
metadata: {name: a}
spec: {containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Pod
metadata: {name: b}
spec: {priorityClassName: never, containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Pod
metadata: {name: c}
spec: {priorityClassName: system-node-critical, containers: [{name: c, image: i}]}
`))
	if err != nil {
		t.Fatal(err)
	}
	if p := sc.Pod("default/a"); *p.Spec.Priority != 50 || p.Spec.PriorityClassName != "dflt" || string(*p.Spec.PreemptionPolicy) != "PreemptLowerPriority" {
		t.Errorf("a: priority %d class %q policy %v", *p.Spec.Priority, p.Spec.PriorityClassName, *p.Spec.PreemptionPolicy)
	}
	if p := sc.Pod("default/b"); *p.Spec.Priority != 500 || string(*p.Spec.PreemptionPolicy) != "Never" {
		t.Errorf("b: priority %d policy %v", *p.Spec.Priority, *p.Spec.PreemptionPolicy)
	}
	if p := sc.Pod("default/c"); *p.Spec.Priority != 2000001000 {
		t.Errorf("c: priority %d", *p.Spec.Priority)
	}
}

func TestInputErrors(t *testing.T) {
	cases := map[string]string{
		"unknown class":  head + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {priorityClassName: nope, containers: [{name: c, image: i}]}\n",
		"wrong priority": head + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {priority: 7, containers: [{name: c, image: i}]}\n",
		"two defaults":   head + "---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: d2}\nvalue: 1\nglobalDefault: true\n",
		"unknown field":  head + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {bogus: 1, containers: [{name: c, image: i}]}\n",
		"no containers":  head + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {}\n",
		"bad yaml":       head + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: a\n",
		"unknown node":   head + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {nodeName: zz, containers: [{name: c, image: i}]}\n",
	}
	for name, in := range cases {
		_, err := Parse("t.yaml", []byte(in))
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		if _, ok := err.(*InputError); !ok {
			t.Errorf("%s: error %T is not an InputError", name, err)
		}
		if !strings.HasPrefix(err.Error(), "t.yaml:") {
			t.Errorf("%s: error %q does not start with the file", name, err)
		}
	}
	_, err := Parse("t.yaml", []byte(head+"---\napiVersion: v1\nkind: Pod\nmetadata: {name: a\n"))
	if !strings.HasPrefix(err.Error(), "t.yaml:22:") {
		t.Errorf("bad yaml error has no useful line: %v", err)
	}
}

func TestBoundPodsAndPDBStatus(t *testing.T) {
	sc, err := Parse("t.yaml", []byte(head+`---
apiVersion: v1
kind: Pod
metadata: {name: r1, labels: {app: x, topology.kubernetes.io/zone: wrong}, creationTimestamp: "2025-01-01T00:00:00Z"}
spec: {nodeName: n1, containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Pod
metadata: {name: r2, labels: {app: x}}
spec: {nodeName: n1, containers: [{name: c, image: i}]}
status: {conditions: [{type: Ready, status: "False"}]}
---
apiVersion: v1
kind: Pod
metadata: {name: p, labels: {app: x}}
spec: {containers: [{name: c, image: i}]}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: min1}
spec: {minAvailable: 0, selector: {matchLabels: {app: x}}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: maxu}
spec: {maxUnavailable: 1, selector: {matchLabels: {app: x}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	r1 := sc.Pod("default/r1")
	if r1.Labels["topology.kubernetes.io/zone"] != "z1" || r1.Labels["topology.kubernetes.io/region"] != "r1" {
		t.Errorf("PodTopologyLabels not applied: %v", r1.Labels)
	}
	if r1.Status.StartTime == nil || !r1.Status.StartTime.Equal(&r1.CreationTimestamp) {
		t.Errorf("start time %v", r1.Status.StartTime)
	}
	// min1: expected 3 (all matching pods), healthy 1 (r1; r2 not ready, p pending).
	if s := sc.PDBs[0].Status; s.ExpectedPods != 3 || s.CurrentHealthy != 1 || s.DisruptionsAllowed != 1 {
		t.Errorf("min1 status %+v", s)
	}
	// maxUnavailable with uncontrolled pods: expected 0 -> no disruption allowed.
	if s := sc.PDBs[1].Status; s.DisruptionsAllowed != 0 {
		t.Errorf("maxu status %+v", s)
	}
}

// testdata/kinds.yaml: namespace team-a declared with a label, team-b only used by a pod;
// ReplicaSet web-rs (4 replicas) owns w1, w2 (bound) and new (pending); a maxUnavailable 1
// PDB over app=web; new's anti-affinity term has matchLabelKeys [ver].
func TestKindsNamespacesScaleAndLabelKeys(t *testing.T) {
	sc, err := Load("../../testdata/kinds.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var nsLabels []string
	for _, ns := range sc.Namespaces {
		nsLabels = append(nsLabels, fmt.Sprintf("%s:%v", ns.Name, ns.Labels))
	}
	wantNS := []string{
		"team-a:map[kubernetes.io/metadata.name:team-a team:a]",
		"default:map[kubernetes.io/metadata.name:default]",
		"team-b:map[kubernetes.io/metadata.name:team-b]",
	}
	if !reflect.DeepEqual(nsLabels, wantNS) {
		t.Errorf("namespaces %v, want %v", nsLabels, wantNS)
	}
	if len(sc.Services) != 1 || len(sc.ReplicaSets) != 1 || *sc.ReplicaSets[0].Spec.Replicas != 4 {
		t.Errorf("workloads: %d services, %d replica sets", len(sc.Services), len(sc.ReplicaSets))
	}
	// Expected = the ReplicaSet's scale (4), desired 4-1 = 3, healthy 2 (new is pending).
	st := sc.PDBs[0].Status
	if st.ExpectedPods != 4 || st.DesiredHealthy != 3 || st.CurrentHealthy != 2 || st.DisruptionsAllowed != 0 {
		t.Errorf("PDB status %+v", st)
	}
	// PrepareForCreate merged ver=v2 into the anti-affinity term's selector.
	term := sc.Pod("default/new").Spec.Affinity.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution[0].PodAffinityTerm
	want := []metav1.LabelSelectorRequirement{{Key: "ver", Operator: metav1.LabelSelectorOpIn, Values: []string{"v2"}}}
	if !reflect.DeepEqual(term.LabelSelector.MatchExpressions, want) {
		t.Errorf("anti-affinity selector %+v, want expressions %+v", term.LabelSelector, want)
	}
}
