package podtopologyspread

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/labels"
)

// Upstream's PreFilter and PreScore count the matching pods of every node in
// every cycle, spread over 16 goroutines. We run on one, so the per-domain
// totals are kept between cycles instead: each node's contribution is
// remembered with the NodeInfo and Generation it was computed from, and a
// cycle recounts only the nodes whose NodeInfo or Generation changed. Every
// change to a node's pods (add, remove, update) bumps its Generation, and a
// rebuilt snapshot or a clone has new NodeInfos, so the totals equal a full
// count. A cache is kept per counting identity (countKey): the namespace,
// the constraints' keys, selectors and inclusion policies, and the parts of
// the pod those policies read.

// maxCountEntries bounds the identities kept per plugin (least recently
// used goes first).
const maxCountEntries = 8

// contribution is what one node adds to one constraint's domain.
type contribution struct {
	included bool
	value    string
	count    int
}

type nodeCounts struct {
	ni  *framework.NodeInfo
	gen int64
}

type countEntry struct {
	key     string
	lastUse uint64
	nodes   []nodeCounts
	// contrib[i*len(constraints)+j] is node i's contribution to constraint j.
	contrib []contribution
	// totals[j] maps a domain to its matching pods; nodes[j] to how many
	// included nodes form it (a domain is dropped with its last node, as a
	// full count would never create it).
	totals  []map[string]int
	members []map[string]int
}

type countCache struct {
	entries []*countEntry
	uses    uint64
}

// countOptions says which nodes count: requireAll drops nodes lacking any
// constraint's key (otherwise such a node is domain ""), skipHostname leaves
// hostname constraints uncounted (scoring counts them per node).
type countOptions struct {
	requireAll   bool
	skipHostname bool
}

// countKey identifies what the per-node contributions depend on besides the
// node; ok is false when the pod's node affinity or tolerations cannot be
// encoded (then the count is not kept).
func countKey(pod *api.Pod, constraints []topologySpreadConstraint, opts countOptions) (string, bool) {
	var b strings.Builder
	b.WriteString(strconv.Quote(pod.Namespace))
	b.WriteString(strconv.FormatBool(opts.requireAll))
	b.WriteString(strconv.FormatBool(opts.skipHostname))
	affinity, taints := false, false
	for _, c := range constraints {
		b.WriteString("|")
		b.WriteString(strconv.Quote(c.TopologyKey))
		b.WriteString(string(c.NodeAffinityPolicy))
		b.WriteString("/")
		b.WriteString(string(c.NodeTaintsPolicy))
		if c.Selector.Empty() {
			b.WriteString("E") // counts nothing
		} else if rs, ok := labels.Requirements(c.Selector); !ok {
			b.WriteString("N") // matches nothing
		} else {
			b.WriteString("R")
			for _, r := range rs {
				b.WriteString(strconv.Quote(r.Key))
				b.WriteString(string(r.Op))
				b.WriteString(strconv.Itoa(len(r.Values)))
				for _, v := range r.Values {
					b.WriteString(strconv.Quote(v))
				}
			}
		}
		affinity = affinity || c.NodeAffinityPolicy == api.NodeInclusionPolicyHonor
		taints = taints || c.NodeTaintsPolicy == api.NodeInclusionPolicyHonor
	}
	if affinity {
		var required *api.NodeSelector
		if a := pod.Spec.Affinity; a != nil && a.NodeAffinity != nil {
			required = a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution
		}
		if len(pod.Spec.NodeSelector) > 0 || required != nil {
			j, err := json.Marshal(struct {
				S map[string]string
				R *api.NodeSelector
			}{pod.Spec.NodeSelector, required})
			if err != nil {
				return "", false
			}
			b.WriteString("|A")
			b.Write(j)
		}
	}
	if taints && len(pod.Spec.Tolerations) > 0 {
		j, err := json.Marshal(pod.Spec.Tolerations)
		if err != nil {
			return "", false
		}
		b.WriteString("|T")
		b.Write(j)
	}
	return b.String(), true
}

// totals returns, per constraint, the matching pods of every domain formed
// by the counted nodes, equal to counting every node now. The maps belong to
// the cache: callers copy what they keep.
func (c *countCache) totals(pod *api.Pod, constraints []topologySpreadConstraint, nodes []*framework.NodeInfo, opts countOptions) []map[string]int {
	e := &countEntry{}
	if key, ok := countKey(pod, constraints, opts); ok {
		e = c.entry(key)
	}
	e.sync(pod, constraints, nodes, opts)
	return e.totals
}

func (c *countCache) entry(key string) *countEntry {
	c.uses++
	for _, e := range c.entries {
		if e.key == key {
			e.lastUse = c.uses
			return e
		}
	}
	e := &countEntry{key: key, lastUse: c.uses}
	if len(c.entries) < maxCountEntries {
		c.entries = append(c.entries, e)
		return e
	}
	oldest := 0
	for i, x := range c.entries {
		if x.lastUse < c.entries[oldest].lastUse {
			oldest = i
		}
	}
	c.entries[oldest] = e
	return e
}

// sync recounts the nodes that changed since the last call.
func (e *countEntry) sync(pod *api.Pod, constraints []topologySpreadConstraint, nodes []*framework.NodeInfo, opts countOptions) {
	nc := len(constraints)
	if len(e.nodes) != len(nodes) || len(e.totals) != nc {
		e.nodes = make([]nodeCounts, len(nodes))
		e.contrib = make([]contribution, len(nodes)*nc)
		e.totals = make([]map[string]int, nc)
		e.members = make([]map[string]int, nc)
		for j := range nc {
			e.totals[j] = map[string]int{}
			e.members[j] = map[string]int{}
		}
	}
	var require labels.RequiredNodeAffinity
	haveRequire := false
	for i, ni := range nodes {
		rec := &e.nodes[i]
		if rec.ni == ni && rec.gen == ni.Generation {
			continue
		}
		if !haveRequire {
			require, haveRequire = labels.GetRequiredNodeAffinity(pod), true
		}
		cs := e.contrib[i*nc : (i+1)*nc]
		for j := range cs {
			if cs[j].included {
				e.drop(j, cs[j])
			}
			cs[j] = nodeContribution(pod, constraints, j, ni, require, opts)
			if cs[j].included {
				e.totals[j][cs[j].value] += cs[j].count
				e.members[j][cs[j].value]++
			}
		}
		rec.ni, rec.gen = ni, ni.Generation
	}
}

func (e *countEntry) drop(j int, c contribution) {
	e.totals[j][c.value] -= c.count
	if e.members[j][c.value]--; e.members[j][c.value] == 0 {
		delete(e.members[j], c.value)
		delete(e.totals[j], c.value)
	}
}

// nodeContribution is exactly what a full count adds for node and
// constraint j.
func nodeContribution(pod *api.Pod, constraints []topologySpreadConstraint, j int, ni *framework.NodeInfo, require labels.RequiredNodeAffinity, opts countOptions) contribution {
	node := ni.Node()
	c := &constraints[j]
	if opts.skipHostname && c.TopologyKey == api.LabelHostname {
		return contribution{}
	}
	if opts.requireAll && !nodeLabelsMatchSpreadConstraints(node.Labels, constraints) {
		return contribution{}
	}
	if !c.matchNodeInclusionPolicies(pod, node, require) {
		return contribution{}
	}
	return contribution{included: true, value: node.Labels[c.TopologyKey], count: countPodsMatchSelector(ni.Pods, c.Selector, pod.Namespace)}
}
