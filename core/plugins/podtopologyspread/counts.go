package podtopologyspread

import (
	"encoding/json"
	"slices"
	"strconv"

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
// count. Within one snapshot, its change log names the nodes that changed
// since the last cycle, so only those are compared; without the log (first
// cycle, a rebuilt snapshot, a reader that fell behind) every node is. A
// cache is kept per counting identity (appendCountKey): the namespace, the
// constraints' keys, selectors and inclusion policies, and the parts of the
// pod those policies read.
//
// Topology values are numbered per constraint, so that totals are slices
// and PreFilter can hand Filter each node's value number by node index
// (nodeAt, valueOf): Filter then hashes no string per node.

// maxCountEntries bounds the identities kept per plugin (least recently
// used goes first).
const maxCountEntries = 8

// contribution is what one node adds to one constraint's domain.
type contribution struct {
	included bool
	value    int32 // the domain's number in its domainTable
	count    int
}

type nodeCounts struct {
	ni  *framework.NodeInfo
	gen int64
}

// domainTable numbers one constraint's topology values as they are met and
// keeps their totals. Numbers are never reused, so a number handed to a
// state keeps naming the same value.
type domainTable struct {
	ids   map[string]int32
	names []string
	// totals[v] is the matching pods of value v; members[v] how many
	// included nodes form it (0: not a domain now, as a full count would
	// never create it; its total is then 0 too).
	totals  []int
	members []int
}

func (d *domainTable) id(v string) int32 {
	if id, ok := d.ids[v]; ok {
		return id
	}
	id := int32(len(d.names))
	d.ids[v] = id
	d.names = append(d.names, v)
	d.totals = append(d.totals, 0)
	d.members = append(d.members, 0)
	return id
}

// total is value v's count, 0 when it is no domain.
func (d *domainTable) total(v string) int {
	if id, ok := d.ids[v]; ok {
		return d.totals[id]
	}
	return 0
}

// domains returns the current domains and their counts as a new map.
func (d *domainTable) domains() map[string]int {
	n := 0
	for _, m := range d.members {
		if m > 0 {
			n++
		}
	}
	out := make(map[string]int, n)
	for id, m := range d.members {
		if m > 0 {
			out[d.names[id]] = d.totals[id]
		}
	}
	return out
}

type countEntry struct {
	key     string
	lastUse uint64
	nodes   []nodeCounts
	// contrib[i*len(constraints)+j] is node i's contribution to constraint j.
	contrib []contribution
	doms    []domainTable
	// With countOptions.index: nodeAt[i] is the node object node i's
	// values were read from, and valueOf[j][i] the number of its value of
	// constraint j's key (-1 without the key). States share them, so once
	// shared is set they are copied before they change.
	nodeAt  []*api.Node
	valueOf [][]int32
	shared  bool
	// log is the change log the entry caught up with, up to pos, for the
	// list starting at head.
	log  *framework.ChangeLog
	pos  uint64
	head **framework.NodeInfo
}

type countCache struct {
	entries []*countEntry
	uses    uint64
	keyBuf  []byte // the last key, storage kept between cycles
}

// countOptions says which nodes count: requireAll drops nodes lacking any
// constraint's key (otherwise such a node is domain ""), skipHostname leaves
// hostname constraints uncounted (scoring counts them per node), index
// keeps every node's value numbers for Filter.
type countOptions struct {
	requireAll   bool
	skipHostname bool
	index        bool
}

// appendCountKey appends to b what identifies the per-node contributions
// besides the node; ok is false when the pod's node affinity or
// tolerations cannot be encoded (then the count is not kept).
func appendCountKey(b []byte, pod *api.Pod, constraints []topologySpreadConstraint, opts countOptions) ([]byte, bool) {
	b = strconv.AppendQuote(b, pod.Namespace)
	b = strconv.AppendBool(b, opts.requireAll)
	b = strconv.AppendBool(b, opts.skipHostname)
	b = strconv.AppendBool(b, opts.index)
	affinity, taints := false, false
	for _, c := range constraints {
		b = append(b, '|')
		b = strconv.AppendQuote(b, c.TopologyKey)
		b = append(b, c.NodeAffinityPolicy...)
		b = append(b, '/')
		b = append(b, c.NodeTaintsPolicy...)
		if c.Selector.Empty() {
			b = append(b, 'E') // counts nothing
		} else if rs, ok := labels.Requirements(c.Selector); !ok {
			b = append(b, 'N') // matches nothing
		} else {
			b = append(b, 'R')
			for _, r := range rs {
				b = strconv.AppendQuote(b, r.Key)
				b = append(b, r.Op...)
				b = strconv.AppendInt(b, int64(len(r.Values)), 10)
				for _, v := range r.Values {
					b = strconv.AppendQuote(b, v)
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
				return b, false
			}
			b = append(b, "|A"...)
			b = append(b, j...)
		}
	}
	if taints && len(pod.Spec.Tolerations) > 0 {
		j, err := json.Marshal(pod.Spec.Tolerations)
		if err != nil {
			return b, false
		}
		b = append(b, "|T"...)
		b = append(b, j...)
	}
	return b, true
}

// counts returns the cache entry for the pod's counting identity, caught
// up with nodes: its totals equal counting every node now. The entry
// belongs to the cache: callers copy what they keep.
func (c *countCache) counts(pod *api.Pod, constraints []topologySpreadConstraint, nodes []*framework.NodeInfo, opts countOptions) *countEntry {
	var e *countEntry
	var ok bool
	if c.keyBuf, ok = appendCountKey(c.keyBuf[:0], pod, constraints, opts); ok {
		e = c.entry(c.keyBuf)
	} else {
		e = &countEntry{} // counted from scratch, not kept
	}
	e.sync(pod, constraints, nodes, opts)
	return e
}

func (c *countCache) entry(key []byte) *countEntry {
	c.uses++
	for _, e := range c.entries {
		if e.key == string(key) { // compared without a copy
			e.lastUse = c.uses
			return e
		}
	}
	e := &countEntry{key: string(key), lastUse: c.uses}
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

// sync recounts the nodes that changed since the last call: those the
// snapshot's change log names when the entry last caught up with the same
// log and list, otherwise every node whose NodeInfo or Generation moved.
func (e *countEntry) sync(pod *api.Pod, constraints []topologySpreadConstraint, nodes []*framework.NodeInfo, opts countOptions) {
	nc := len(constraints)
	if len(e.nodes) != len(nodes) || len(e.doms) != nc || (e.valueOf != nil) != opts.index {
		e.reset(nc, len(nodes), opts.index)
	}
	if len(nodes) == 0 {
		return
	}
	u := updater{e: e, pod: pod, constraints: constraints, nodes: nodes, opts: opts}
	log := nodes[0].ChangeLog()
	if log != nil && e.log == log && e.head == &nodes[0] {
		if changed, ok := log.Since(e.pos); ok && u.visitAll(changed) {
			e.pos = log.End()
			return
		}
	}
	for i := range nodes {
		u.visit(i)
	}
	e.log, e.head = log, &nodes[0]
	if log != nil {
		e.pos = log.End()
	}
}

func (e *countEntry) reset(nc, nn int, index bool) {
	e.nodes = make([]nodeCounts, nn)
	e.contrib = make([]contribution, nn*nc)
	e.doms = make([]domainTable, nc)
	for j := range e.doms {
		e.doms[j].ids = map[string]int32{}
	}
	e.nodeAt, e.valueOf, e.shared = nil, nil, false
	if index {
		e.nodeAt = make([]*api.Node, nn)
		e.valueOf = make([][]int32, nc)
		for j := range e.valueOf {
			e.valueOf[j] = make([]int32, nn)
		}
	}
	e.log, e.head, e.pos = nil, nil, 0
}

// unshare copies the per-node value numbers that states hold before they
// change, so a state keeps what its cycle saw.
func (e *countEntry) unshare() {
	if !e.shared {
		return
	}
	e.nodeAt = slices.Clone(e.nodeAt)
	e.valueOf = slices.Clone(e.valueOf) // states hold the outer slice too
	for j := range e.valueOf {
		e.valueOf[j] = slices.Clone(e.valueOf[j])
	}
	e.shared = false
}

// updater recounts nodes of one sync.
type updater struct {
	e           *countEntry
	pod         *api.Pod
	constraints []topologySpreadConstraint
	nodes       []*framework.NodeInfo
	opts        countOptions
	require     labels.RequiredNodeAffinity
	haveRequire bool
}

// visitAll visits the logged positions; false when one does not name its
// node in the list (then the caller walks every node).
func (u *updater) visitAll(changed []int32) bool {
	for _, i := range changed {
		if int(i) >= len(u.nodes) || u.nodes[i].Index() != int(i) {
			return false
		}
		u.visit(int(i))
	}
	return true
}

// visit recounts node i if its NodeInfo or Generation moved.
func (u *updater) visit(i int) {
	e, ni := u.e, u.nodes[i]
	rec := &e.nodes[i]
	if rec.ni == ni && rec.gen == ni.Generation {
		return
	}
	if !u.haveRequire {
		u.require, u.haveRequire = labels.GetRequiredNodeAffinity(u.pod), true
	}
	node := ni.Node()
	if e.nodeAt != nil && e.nodeAt[i] != node {
		e.unshare()
		e.nodeAt[i] = node
		for j, c := range u.constraints {
			id := int32(-1)
			if v, ok := node.Labels[c.TopologyKey]; ok {
				id = e.doms[j].id(v)
			}
			e.valueOf[j][i] = id
		}
	}
	nc := len(u.constraints)
	cs := e.contrib[i*nc : (i+1)*nc]
	for j := range cs {
		d := &e.doms[j]
		if c := cs[j]; c.included {
			d.totals[c.value] -= c.count
			d.members[c.value]--
		}
		cs[j] = nodeContribution(u.pod, u.constraints, j, ni, u.require, u.opts, d)
		if c := cs[j]; c.included {
			d.totals[c.value] += c.count
			d.members[c.value]++
		}
	}
	rec.ni, rec.gen = ni, ni.Generation
}

// nodeContribution is exactly what a full count adds for node and
// constraint j.
func nodeContribution(pod *api.Pod, constraints []topologySpreadConstraint, j int, ni *framework.NodeInfo, require labels.RequiredNodeAffinity, opts countOptions, d *domainTable) contribution {
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
	return contribution{included: true, value: d.id(node.Labels[c.TopologyKey]), count: countPodsMatchSelector(ni.Pods, c.Selector, pod.Namespace)}
}
