package scenario

import (
	"fmt"
	"strings"
	"testing"
)

// A dump over the size limit still gives its nodes, as documents or as
// List items, with the refusal kept.
func TestNodesOnly(t *testing.T) {
	node := func(name string) string {
		return fmt.Sprintf("apiVersion: v1\nkind: Node\nmetadata:\n  name: %s\n  labels: {zone: a}\nspec:\n  taints:\n  - key: k\n    effect: NoSchedule\nstatus:\n  allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}\n", name)
	}
	pod := func(i int) string {
		return fmt.Sprintf("apiVersion: v1\nkind: Pod\nmetadata: {name: p%d}\nspec:\n  containers:\n  - name: c\n    resources: {requests: {cpu: 10m}}\n", i)
	}
	indent := func(s string) string {
		lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
		for i, l := range lines {
			if i == 0 {
				lines[i] = "- " + l
			} else {
				lines[i] = "  " + l
			}
		}
		return strings.Join(lines, "\n") + "\n"
	}
	var docs, items []string
	docs = append(docs, node("a"), node("b"))
	items = append(items, indent(node("c")))
	for i := range 10_001 {
		if i < 5 {
			items = append(items, indent(pod(i)))
		}
		docs = append(docs, pod(i))
	}
	list := "apiVersion: v1\nkind: List\nitems:\n" + strings.Join(items, "") + "metadata: {resourceVersion: \"\"}\n"
	src := []byte(strings.Join(append(docs, list), "---\n"))

	_, err := Load("dump.yaml", src)
	if err == nil {
		t.Fatal("the dump loaded; the test needs one over a limit")
	}
	s, ok := NodesOnly("dump.yaml", src, err)
	if !ok {
		t.Fatalf("NodesOnly refused the dump (error %v)", err)
	}
	var names []string
	for _, n := range s.Nodes {
		names = append(names, n.Name)
		if len(n.Spec.Taints) != 1 || n.Status.Allocatable["cpu"].String() != "4" {
			t.Errorf("node %s read wrong: taints %v allocatable %v", n.Name, n.Spec.Taints, n.Status.Allocatable)
		}
	}
	if got := strings.Join(names, ","); got != "a,b,c" {
		t.Errorf("nodes %s, want a,b,c", got)
	}
	if len(s.Pods) != 0 {
		t.Errorf("%d pods, want none", len(s.Pods))
	}

	// Over the byte limit: the same nodes.
	big := append([]byte(node("a")+"---\n"+node("b")+"# "), []byte(strings.Repeat("x", DefaultLimits.Bytes))...)
	_, err = Load("big.yaml", big)
	if s, ok := NodesOnly("big.yaml", big, err); !ok || len(s.Nodes) != 2 {
		t.Errorf("over the byte limit: ok %v, err %v", ok, err)
	}

	// Any other error is not answered with nodes.
	bad := []byte(node("a") + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec: {bogus: 1}\n")
	_, err = Load("bad.yaml", bad)
	if _, ok := NodesOnly("bad.yaml", bad, err); ok || err == nil {
		t.Errorf("NodesOnly answered a load that failed for an unknown field (err %v)", err)
	}
}
