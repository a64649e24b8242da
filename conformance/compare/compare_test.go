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

// The skip sets and weighted scores are compared when upstream's side has
// them: stored answers without them agree with anything; nil and empty
// skip lists are the same.
func TestExplainSkippedAndWeighted(t *testing.T) {
	withExtras := func() *contract.Explain {
		e := base()
		e.Skipped = &contract.Skipped{Filter: []string{"NodePorts"}}
		for i := 1; i < 3; i++ {
			e.Nodes[i].Weighted = map[string]int64{"NodeResourcesFit": 50, "TaintToleration": 300}
		}
		return e
	}
	r := NewReport(nil)
	Explain(r, "f.yaml", "default/p", "", withExtras(), base())
	Explain(r, "f.yaml", "default/p", "", withExtras(), withExtras())
	noScoreSkips := withExtras()
	noScoreSkips.Skipped.Score = []string{}
	Explain(r, "f.yaml", "default/p", "", withExtras(), noScoreSkips)
	if r.Unexplained() != 0 {
		var b bytes.Buffer
		r.Print(&b, 10)
		t.Fatalf("agreeing results disagree:\n%s", b.String())
	}

	r = NewReport(nil)
	ours := withExtras()
	ours.Skipped.Filter = nil
	ours.Skipped.Score = []string{"InterPodAffinity"}
	ours.Nodes[2].Weighted["TaintToleration"] = 100
	Explain(r, "f.yaml", "default/p", "", ours, withExtras())
	var b bytes.Buffer
	r.Print(&b, 10)
	for _, want := range []string{"[filter] skipped.filter", "[score] skipped.score", "node c [score] weighted.TaintToleration: ours 100, upstream 300"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}
