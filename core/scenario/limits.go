package scenario

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/schedplay/schedplay/core/api"
)

// Limits bound what one load reads and what the scenario it makes may ask
// the engine for, so that a link or a paste cannot freeze or exhaust the
// process: each is checked before the work it guards (docs/limits.md). The
// CLI and the page use DefaultLimits; the CLI raises them with --limit.
type Limits struct {
	// Bytes is the size of the input.
	Bytes int
	// Depth is how deeply mappings and lists nest (the YAML parser's time
	// and memory grow with its square).
	Depth int
	// Width is how many entries one mapping holds (the parser's time grows
	// with its square).
	Width int
	// Aliases is how many YAML nodes aliases add to the whole file when
	// they are expanded ("billion laughs").
	Aliases int
	// Nodes is how many nodes the file and its timeline create.
	Nodes int
	// Pods is how many pods the scenario can ask for: the file's pods, each
	// workload's replicas (the most any timeline scale asks) and the pods
	// the timeline creates, counted while the file is read.
	Pods int
}

// DefaultLimits are the playground's: well above the 500-node, 5,000-pod
// scale it is measured at, and each refused in well under a second.
var DefaultLimits = Limits{
	Bytes:   4 << 20,
	Depth:   100,
	Width:   10_000,
	Aliases: 1 << 18,
	Nodes:   1_000,
	Pods:    10_000,
}

// limitNames are the names --limit takes, in the order help lists them.
var limitNames = []string{"bytes", "depth", "width", "aliases", "nodes", "pods"}

func (l *Limits) field(name string) *int {
	switch name {
	case "bytes":
		return &l.Bytes
	case "depth":
		return &l.Depth
	case "width":
		return &l.Width
	case "aliases":
		return &l.Aliases
	case "nodes":
		return &l.Nodes
	case "pods":
		return &l.Pods
	}
	return nil
}

// Set changes one limit from "name=N" (the CLI's --limit).
func (l *Limits) Set(s string) error {
	name, val, ok := strings.Cut(s, "=")
	f := l.field(name)
	if !ok || f == nil {
		return fmt.Errorf("--limit takes NAME=N with NAME one of %s, got %q", strings.Join(limitNames, ", "), s)
	}
	n, err := strconv.Atoi(val)
	if err != nil || n <= 0 {
		return fmt.Errorf("--limit %s: %q is not a whole number above 0", name, val)
	}
	*f = n
	return nil
}

// String lists the limits as Set reads them.
func (l *Limits) String() string {
	parts := make([]string, len(limitNames))
	for i, n := range limitNames {
		parts[i] = fmt.Sprintf("%s=%d", n, *l.field(n))
	}
	return strings.Join(parts, ",")
}

// raise is the hint every refusal ends with.
func raise(name string, limit int) string {
	return fmt.Sprintf("the playground reads at most %d; the schedplay CLI reads more with --limit %s=N", limit, name)
}

// checkSize refuses input over the byte limit, at the line where it crosses it.
func (l *loader) checkSize() bool {
	if len(l.src) <= l.lim.Bytes {
		return true
	}
	p := posAt(l.src, l.lim.Bytes)
	l.errorAt(p, "", "", fmt.Sprintf("the scenario is %d bytes, over the limit of %d bytes", len(l.src), l.lim.Bytes), "shorten it; "+raise("bytes", l.lim.Bytes))
	l.diags[len(l.diags)-1].Limit = "bytes"
	return false
}

// posAt is the line and column of byte offset off.
func posAt(src []byte, off int) Pos {
	p := Pos{1, 1}
	for i, c := range src[:off] {
		if c == '\n' || c == '\r' && (i+1 == len(src) || src[i+1] != '\n') {
			p.Line++
			p.Col = 1
		} else {
			p.Col++
		}
	}
	return p
}

// budget counts what the scenario can ask for while its documents are read.
type budget struct {
	nodes, pods int
	// replicas is the most each workload ("Kind/namespace/name") asks for.
	replicas map[string]int
	over     bool
}

// countObject adds a read object to the budget; false once it is over.
func (l *loader) countObject(o *object) bool {
	switch v := o.val.(type) {
	case *api.Node:
		l.budget.nodes++
		if l.budget.nodes > l.lim.Nodes {
			return l.overBudget("nodes", o.pos, o.label, "", fmt.Sprintf("the scenario has more than %d nodes", l.lim.Nodes), raise("nodes", l.lim.Nodes))
		}
	case *api.Pod:
		return l.addPods(o.pos, o.label, "", 1)
	default:
		if r, ok := workloadReplicas(v); ok {
			return l.scaleTo(o.key, r, o.pathPos("spec.replicas"), o.label, "spec.replicas")
		}
	}
	return true
}

// scaleTo records that workload key asks for r replicas (written at p).
func (l *loader) scaleTo(key string, r int, p Pos, label, field string) bool {
	if l.budget.replicas == nil {
		l.budget.replicas = map[string]int{}
	}
	prev := l.budget.replicas[key]
	if r <= prev {
		return true
	}
	l.budget.replicas[key] = r
	return l.addPods(p, label, field, r-prev)
}

func (l *loader) addPods(p Pos, label, field string, n int) bool {
	l.budget.pods += n
	if l.budget.pods <= l.lim.Pods {
		return true
	}
	return l.overBudget("pods", p, label, field, fmt.Sprintf("the scenario asks for more than %d pods (%d with the pods and workload replicas before this point)", l.lim.Pods, l.budget.pods), "use fewer replicas or pods; "+raise("pods", l.lim.Pods))
}

func (l *loader) overBudget(limit string, p Pos, label, field, msg, hint string) bool {
	if p.Line == 0 {
		p = Pos{1, 1}
	}
	l.errorAt(p, label, field, msg, hint)
	l.diags[len(l.diags)-1].Limit = limit
	l.budget.over = true
	return false
}

// workloadReplicas is the replicas a workload whose controller the engine
// runs asks for (1 when unset, as the API server defaults it).
func workloadReplicas(v any) (int, bool) {
	var r *int32
	switch w := v.(type) {
	case *api.Deployment:
		r = w.Spec.Replicas
	case *api.ReplicaSet:
		r = w.Spec.Replicas
	case *api.StatefulSet:
		r = w.Spec.Replicas
	default:
		return 0, false
	}
	if r == nil {
		return 1, true
	}
	return max(int(*r), 0), true
}
