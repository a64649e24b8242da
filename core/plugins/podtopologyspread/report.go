package podtopologyspread

import (
	"sort"

	"github.com/schedplay/schedplay/core/framework"
)

// Report is what PreFilter counted for a pod, read back out of the cycle
// state it wrote, for people: the playground's spread overlay and details
// panel show it. Only the DoNotSchedule constraints (the pod's own, or the
// default ones for a pod that declares none) are in it: they are the ones
// Filter enforces.
type Report struct {
	Constraints []ConstraintReport
}

// ConstraintReport is one constraint as PreFilter resolved it.
type ConstraintReport struct {
	TopologyKey string
	MaxSkew     int32
	MinDomains  int32
	// Default marks a constraint of the plugin's default constraints.
	Default bool
	// SelfMatch: the constraint's selector matches the pod itself, which
	// then adds 1 to the domain it is placed in.
	SelfMatch bool
	// Domains are the eligible domains (values of the key on nodes that
	// have every constraint's key and pass the node inclusion policies),
	// by value, with their matching pods.
	Domains []DomainCount
	// Min is the global minimum the skew is measured against: the least
	// count over the eligible domains, 0 while there are fewer of them
	// than MinDomains.
	Min int
}

// DomainCount is one eligible domain.
type DomainCount struct {
	Value string
	Count int
	// Skew is what the skew would be with the pod placed in the domain:
	// Count + SelfMatch - Min, which Filter compares with MaxSkew.
	Skew int
}

// NodeSkew is what Filter computes for a node and one constraint: the
// node's value of the key (Has false: the node lacks it, which Filter
// rejects as unresolvable) and matchNum + selfMatchNum - minMatchNum.
type NodeSkew struct {
	Value string
	Has   bool
	Skew  int
}

// ReportFromState reads the state PreFilter wrote for pod into state. It
// returns nil when PreFilter wrote none (the pod has no DoNotSchedule
// constraint: the plugin skipped it).
func ReportFromState(state *framework.CycleState, declared bool) *Report {
	s, err := getPreFilterState(state)
	if err != nil || s == nil {
		return nil
	}
	r := &Report{}
	for i, c := range s.Constraints {
		cr := ConstraintReport{TopologyKey: c.TopologyKey, MaxSkew: c.MaxSkew, MinDomains: c.MinDomains,
			Default: !declared, SelfMatch: s.selfMatch[i], Min: s.minMatchNum(i, c.MinDomains)}
		self := 0
		if cr.SelfMatch {
			self = 1
		}
		for v, n := range s.TpValueToMatchNum[i] {
			cr.Domains = append(cr.Domains, DomainCount{Value: v, Count: n, Skew: n + self - cr.Min})
		}
		sort.Slice(cr.Domains, func(a, b int) bool { return cr.Domains[a].Value < cr.Domains[b].Value })
		r.Constraints = append(r.Constraints, cr)
	}
	return r
}

// NodeSkews is Filter's arithmetic for one node, constraint by constraint,
// over the counts in state (as Filter's map path: matchNum of the node's
// domain, 0 for a domain no eligible node forms).
func NodeSkews(state *framework.CycleState, nodeInfo *framework.NodeInfo) []NodeSkew {
	s, err := getPreFilterState(state)
	if err != nil || s == nil || nodeInfo.Node() == nil {
		return nil
	}
	out := make([]NodeSkew, len(s.Constraints))
	for i, c := range s.Constraints {
		v, ok := nodeInfo.Node().Labels[c.TopologyKey]
		out[i] = NodeSkew{Value: v, Has: ok}
		if !ok {
			continue
		}
		self := 0
		if s.selfMatch[i] {
			self = 1
		}
		out[i].Skew = s.TpValueToMatchNum[i][v] + self - s.minMatchNum(i, c.MinDomains)
	}
	return out
}
