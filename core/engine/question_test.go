package engine

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestQuestionAnswerFollowsTheRun edits a lesson so that preemption picks
// another node and checks that the question's right answer moves with the
// run: the answer is the engine's, not the lesson's.
func TestQuestionAnswerFollowsTheRun(t *testing.T) {
	file := fewestVictimsFile
	data, mutated := fewestVictimsMoved(t)
	for _, tc := range []struct {
		name        string
		data        []byte
		node        string
		victims     []string
		wrongNode   string
		wrongVictim []string
	}{
		{"as written", data, "node-a", []string{"default/big"}, "node-b", []string{"default/small-1", "default/small-2"}},
		{"big at critical's priority", mutated, "node-b", []string{"default/small-1", "default/small-2"}, "node-a", []string{"default/big"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, sim := runText(t, file, tc.data)
			where, err := sim.Answer(sc.Lesson, "where")
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(where.Nodes, []string{tc.node}) {
				t.Errorf("where: the run's answer is %v, want [%s]", where.Nodes, tc.node)
			}
			if !where.Right([]string{tc.node}) || where.Right([]string{tc.wrongNode}) || where.Right(nil) {
				t.Errorf("where: Right does not accept exactly %s", tc.node)
			}
			if e := sim.Trace()[where.Seq]; e.Kind != EvNominated || e.Node != tc.node {
				t.Errorf("where: playback would stop before event %d (%s @ %s), not the nomination", where.Seq, e.Kind, e.Node)
			}
			victims, err := sim.Answer(sc.Lesson, "victims")
			if err != nil {
				t.Fatal(err)
			}
			if !victims.Right(tc.victims) || victims.Right(tc.wrongVictim) || victims.Right(tc.victims[:1]) && len(tc.victims) > 1 {
				t.Errorf("victims: the run's answer is %v, want %v", victims.Pods, tc.victims)
			}
		})
	}
}

// TestQuestionKinds answers a time, a feasible-set and a "no node"
// question from the examples' runs.
func TestQuestionKinds(t *testing.T) {
	for _, tc := range []struct {
		file, id string
		right    []string
		wrong    []string
	}{
		{"termination-sigkill", "sigkill", []string{"10s"}, []string{"12s"}},
		{"topology-spread-one-constraint", "fits", []string{"node3", "node4"}, []string{"node4"}},
		{"preemption-disabled", "where", nil, []string{"node-a"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			f := filepath.Join("../../examples", tc.file+".yaml")
			sc, sim := runText(t, f, readFile(t, f))
			a, err := sim.Answer(sc.Lesson, tc.id)
			if err != nil {
				t.Fatal(err)
			}
			if !a.Right(tc.right) || a.Right(tc.wrong) {
				t.Errorf("answer %+v: want %v right and %v wrong", a, tc.right, tc.wrong)
			}
			if a.Why == "" {
				t.Errorf("answer %+v gives no reason", a)
			}
		})
	}
}

// TestQuestionErrors shows a lesson whose question the run cannot answer
// failing: a time the options do not offer.
func TestQuestionErrors(t *testing.T) {
	const file = "../../examples/termination-sigkill.yaml"
	data := readFile(t, file)
	bad := bytes.Replace(data, []byte("options: [0s, 10s, 12s, 30s]"), []byte("options: [0s, 12s, 30s]"), 1)
	if bytes.Equal(bad, data) {
		t.Fatal("the sigkill question's options changed; update the test")
	}
	sc, sim := runText(t, file, bad)
	fails := strings.Join(sim.CheckQuestions(sc.Lesson), "\n")
	if !strings.Contains(fails, "the run's answer 10s is not among the options") {
		t.Errorf("CheckQuestions says %q", fails)
	}
}

// TestNominationAnswerSaysTheCriterion: a nomination's answer names the
// rule that decided it, as explain words it.
func TestNominationAnswerSaysTheCriterion(t *testing.T) {
	const file = "../../examples/preemption-basic.yaml"
	sc, sim := runText(t, file, readFile(t, file))
	a, err := sim.Answer(sc.Lesson, "where")
	if err != nil {
		t.Fatal(err)
	}
	if a.Criterion != "lowest sum of victim priorities" {
		t.Errorf("criterion %q, why %q", a.Criterion, a.Why)
	}
}

// A question about where a pod binds stops before the first event that
// names the node: with volumes, the cycle's PreBind (and the volume it
// provisions) come before the Scheduled event.
func TestQuestionStopsBeforeTheBindingsPreBind(t *testing.T) {
	for _, name := range []string{"storage-wait-for-first-consumer", "storage-csi-attach-limit"} {
		file := "../../examples/" + name + ".yaml"
		sc, sim := runText(t, file, readFile(t, file))
		a, err := sim.Answer(sc.Lesson, "where")
		if err != nil {
			t.Fatal(err)
		}
		stop := sim.Trace()[a.Seq]
		if stop.Kind != EvPreBind || stop.Node != a.Nodes[0] {
			t.Errorf("%s: the question stops before %s %s @ %s; want the PreBind that first names %v", name, stop.Kind, stop.Pod, stop.Node, a.Nodes)
		}
		for _, e := range sim.Trace()[:a.Seq] {
			if e.Kind == EvPreBind && e.Pod == stop.Pod {
				t.Errorf("%s: %s's PreBind at event %d shows before the question", name, e.Pod, e.Seq)
			}
		}
	}
}
