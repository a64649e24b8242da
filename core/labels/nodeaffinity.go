package labels

import (
	"fmt"
	"strconv"

	"github.com/schedplay/schedplay/core/api"
)

// NodeSelectorTerms is a compiled api.NodeSelector: its terms are ORed.
type NodeSelectorTerms struct {
	terms []nodeSelectorTerm
}

type nodeSelectorTerm struct {
	labels Selector
	fields Selector
}

// NewNodeSelector compiles ns as nodeaffinity.NewLazyErrorNodeSelector does:
// a term with no expressions and no fields matches nothing; a term with an
// invalid requirement is dropped (it matches nothing).
func NewNodeSelector(ns *api.NodeSelector) *NodeSelectorTerms {
	out := &NodeSelectorTerms{}
	for _, t := range ns.NodeSelectorTerms {
		if len(t.MatchExpressions) == 0 && len(t.MatchFields) == 0 {
			continue
		}
		var term nodeSelectorTerm
		var err error
		if term.labels, err = nodeSelectorRequirementsAsSelector(t.MatchExpressions); err != nil {
			continue
		}
		if term.fields, err = nodeSelectorFieldsAsSelector(t.MatchFields); err != nil {
			continue
		}
		out.terms = append(out.terms, term)
	}
	return out
}

// Match reports whether node satisfies at least one term.
func (ns *NodeSelectorTerms) Match(node *api.Node) bool {
	if ns == nil {
		return false
	}
	fields := Set{"metadata.name": node.Name}
	for _, t := range ns.terms {
		if t.labels != nil && !t.labels.Matches(node.Labels) {
			continue
		}
		if t.fields != nil && !t.fields.Matches(fields) {
			continue
		}
		return true
	}
	return false
}

// MatchTerm reports whether node satisfies one term (used for preferred terms).
func MatchTerm(term *api.NodeSelectorTerm, node *api.Node) bool {
	return NewNodeSelector(&api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{*term}}).Match(node)
}

func nodeSelectorRequirementsAsSelector(reqs []api.NodeSelectorRequirement) (Selector, error) {
	if len(reqs) == 0 {
		return nil, nil
	}
	rs := make([]Requirement, 0, len(reqs))
	for _, r := range reqs {
		op, ok := operators[string(r.Operator)]
		if !ok {
			return nil, fmt.Errorf("%q is not a valid node selector operator", r.Operator)
		}
		if err := validateRequirementValues(op, r.Values); err != nil {
			return nil, fmt.Errorf("node selector requirement on key %q: %w", r.Key, err)
		}
		rs = append(rs, Requirement{Key: r.Key, Op: op, Values: r.Values})
	}
	return New(rs...), nil
}

func nodeSelectorFieldsAsSelector(reqs []api.NodeSelectorRequirement) (Selector, error) {
	if len(reqs) == 0 {
		return nil, nil
	}
	rs := make([]Requirement, 0, len(reqs))
	for _, r := range reqs {
		if r.Key != "metadata.name" {
			return nil, fmt.Errorf("matchFields supports only metadata.name, not %q", r.Key)
		}
		switch r.Operator {
		case api.NodeSelectorOpIn:
			rs = append(rs, Requirement{Key: r.Key, Op: In, Values: r.Values})
		case api.NodeSelectorOpNotIn:
			rs = append(rs, Requirement{Key: r.Key, Op: NotIn, Values: r.Values})
		default:
			return nil, fmt.Errorf("matchFields supports only In and NotIn, not %q", r.Operator)
		}
		if len(r.Values) != 1 {
			return nil, fmt.Errorf("matchFields %s needs exactly one value", r.Operator)
		}
	}
	return New(rs...), nil
}

// RequiredNodeAffinity is a pod's spec.nodeSelector plus its required node
// affinity, as nodeaffinity.GetRequiredNodeAffinity builds it.
type RequiredNodeAffinity struct {
	labelSelector Selector
	nodeSelector  *NodeSelectorTerms
}

// GetRequiredNodeAffinity compiles pod's hard node constraints.
func GetRequiredNodeAffinity(pod *api.Pod) RequiredNodeAffinity {
	var r RequiredNodeAffinity
	if len(pod.Spec.NodeSelector) > 0 {
		r.labelSelector = SelectorFromSet(pod.Spec.NodeSelector)
	}
	if a := pod.Spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		r.nodeSelector = NewNodeSelector(a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution)
	}
	return r
}

// Match reports whether node satisfies both the node selector and the
// required node affinity.
func (r RequiredNodeAffinity) Match(node *api.Node) bool {
	if r.labelSelector != nil && !r.labelSelector.Matches(node.Labels) {
		return false
	}
	if r.nodeSelector != nil {
		return r.nodeSelector.Match(node)
	}
	return true
}

// validateRequirementValues applies the value checks of apimachinery's
// labels.NewRequirement. The API server does not check node selector values
// as label values, so an admitted pod can carry e.g. NotIn "a b"; upstream
// then fails to parse the term, which matches no node.
func validateRequirementValues(op Operator, values []string) error {
	switch op {
	case In, NotIn:
		if len(values) == 0 {
			return fmt.Errorf("for 'in', 'notin' operators, values set can't be empty")
		}
	case Exists, DoesNotExist:
		if len(values) != 0 {
			return fmt.Errorf("values set must be empty for exists and does not exist")
		}
	case GreaterThan, LessThan:
		if len(values) != 1 {
			return fmt.Errorf("for 'Gt', 'Lt' operators, exactly one value is required")
		}
		if _, err := strconv.ParseInt(values[0], 10, 64); err != nil {
			return fmt.Errorf("for 'Gt', 'Lt' operators, the value must be an integer")
		}
	}
	for _, v := range values {
		if !isValidLabelValue(v) {
			return fmt.Errorf("invalid label value %q", v)
		}
	}
	return nil
}

// isValidLabelValue is validation.IsValidLabelValue: at most 63 characters,
// empty or alphanumeric at both ends with '-', '_' or '.' inside.
func isValidLabelValue(v string) bool {
	if len(v) > 63 {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if alnum {
			continue
		}
		if (c == '-' || c == '_' || c == '.') && i > 0 && i < len(v)-1 {
			continue
		}
		return false
	}
	return true
}
