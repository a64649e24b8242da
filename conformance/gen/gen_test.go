package gen_test

import (
	"bytes"
	"testing"

	"github.com/schedplay/schedplay/conformance/gen"
	"github.com/schedplay/schedplay/conformance/internal/scenario"
)

func TestDeterministicPerSeed(t *testing.T) {
	for i := 0; i < 5; i++ {
		n1, a := gen.Scenario(7, i)
		n2, b := gen.Scenario(7, i)
		if n1 != n2 || !bytes.Equal(a, b) {
			t.Fatalf("scenario %d differs between two runs with the same seed", i)
		}
	}
	_, a := gen.Scenario(7, 0)
	_, b := gen.Scenario(8, 0)
	_, c := gen.Scenario(7, 1)
	if bytes.Equal(a, b) || bytes.Equal(a, c) {
		t.Fatal("different seeds or indexes gave the same scenario")
	}
}

func TestScenariosLoadAndNameAPendingPod(t *testing.T) {
	preempting := 0
	for i := 0; i < 40; i++ {
		name, data := gen.Scenario(1, i)
		sc, err := scenario.Parse(name, data)
		if err != nil {
			t.Fatalf("%s does not load: %v", name, err)
		}
		if sc.Explain == "" {
			t.Fatalf("%s names no pod to explain", name)
		}
		p := sc.Pod(sc.Explain)
		if p == nil || p.Spec.NodeName != "" {
			t.Fatalf("%s: explain pod %q is not a pending pod of the file", name, sc.Explain)
		}
		if len(sc.Nodes) < 3 || len(sc.PriorityClasses) < 3+2 {
			t.Fatalf("%s: too few nodes or priority classes", name)
		}
		for _, q := range sc.Pods {
			if q.Spec.NodeName == "" && q.Spec.Priority != nil && *q.Spec.Priority >= 10000 {
				preempting++
				break
			}
		}
	}
	if preempting < 20 {
		t.Fatalf("only %d/40 scenarios have a high-priority pending pod", preempting)
	}
}
