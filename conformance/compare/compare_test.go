package compare

import (
	"bytes"
	"strings"
	"testing"

	"github.com/schedplay/schedplay/conformance/contract"
)

func i64(v int64) *int64 { return &v }

func base() *contract.Explain {
	return &contract.Explain{
		Pod: "default/p",
		Nodes: []contract.NodeResult{
			{Name: "a", Feasible: false, Plugin: "NodeResourcesFit", Reasons: []string{"Insufficient cpu"}},
			{Name: "b", Feasible: true, Scores: map[string]int64{"NodeResourcesFit": 50, "TaintToleration": 100}, Total: i64(350)},
			{Name: "c", Feasible: true, Scores: map[string]int64{"NodeResourcesFit": 50, "TaintToleration": 100}, Total: i64(350)},
		},
		Selected: []string{"b", "c"},
	}
}

func TestExplainAgreementAndDiffs(t *testing.T) {
	r := NewReport(nil)
	ours := base()
	ours.Selected = []string{"c", "b"} // ties compare as sets
	Explain(r, "f.yaml", "default/p", "", ours, base())
	if r.Unexplained() != 0 {
		var b bytes.Buffer
		r.Print(&b, 10)
		t.Fatalf("identical results disagree:\n%s", b.String())
	}

	r = NewReport([]AllowEntry{{Area: "message", Reason: "known"}})
	ours = base()
	ours.Nodes[0].Reasons = []string{"Insufficient memory"}
	ours.Nodes[1].Scores["NodeResourcesFit"] = 49
	ours.Message = "x"
	Explain(r, "f.yaml", "default/p", "", ours, base())
	if r.counts["filter"].disagree != 1 || r.counts["score"].disagree != 1 || r.counts["message"].explained != 1 {
		t.Fatalf("counts %+v %+v %+v", *r.counts["filter"], *r.counts["score"], *r.counts["message"])
	}
	var b bytes.Buffer
	r.Print(&b, 10)
	for _, want := range []string{"f.yaml pod default/p node a [filter] reasons", "node b [score] scores.NodeResourcesFit: ours 49, upstream 50"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
	if r.Unexplained() != 2 {
		t.Errorf("unexplained %d", r.Unexplained())
	}
}

func TestSimulateDiff(t *testing.T) {
	up := &contract.Simulate{Pods: []contract.SimPod{{Namespace: "default", Name: "x", Phase: "Running", Node: "n1"}}}
	ours := &contract.Simulate{Pods: []contract.SimPod{{Namespace: "default", Name: "x", Phase: "Pending"}}}
	r := NewReport(nil)
	Simulate(r, "f.yaml", ours, up, false)
	if r.counts["final"].disagree != 1 || len(r.diffs) != 2 {
		t.Fatalf("%+v %v", *r.counts["final"], r.diffs)
	}
}
