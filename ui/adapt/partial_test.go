package adapt

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schedplay/schedplay/core/scenario"
)

// A paste over the pod limit shows its nodes, not simulated, with the
// refusal at its line and column.
func TestLoadOverBudgetShowsNodes(t *testing.T) {
	var b strings.Builder
	for _, n := range []string{"n1", "n2", "n3"} {
		fmt.Fprintf(&b, "apiVersion: v1\nkind: Node\nmetadata: {name: %s}\nstatus:\n  allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}\n---\n", n)
	}
	for i := range scenario.DefaultLimits.Pods + 1 {
		fmt.Fprintf(&b, "apiVersion: v1\nkind: Pod\nmetadata: {name: p%d}\nspec:\n  containers: [{name: c}]\n---\n", i)
	}
	r := Load("dump.yaml", []byte(b.String()))
	if !r.OK || !r.Partial {
		t.Fatalf("ok %v partial %v error %q diagnostics %+v", r.OK, r.Partial, r.Error, r.Diagnostics)
	}
	if len(r.Scene.Nodes) != 3 || r.Summary.Nodes != 3 || r.Summary.Pods != 0 {
		t.Errorf("scene has %d nodes, summary %+v; want the 3 nodes and no pods", len(r.Scene.Nodes), r.Summary)
	}
	if len(r.Diagnostics) != 1 || r.Diagnostics[0].Severity != scenario.SeverityError || r.Diagnostics[0].Line != 19+6*scenario.DefaultLimits.Pods {
		t.Errorf("diagnostics %+v; want the pod limit's refusal at the 10,001st pod", r.Diagnostics)
	}
	if !strings.Contains(r.Stopped, "only the nodes are shown: the scenario asks for more than 10000 pods") {
		t.Errorf("stopped %q", r.Stopped)
	}
	if r.Run.Step(100); !r.Run.Done() {
		t.Errorf("a nodes-only run should have nothing to simulate")
	}
}
