// Package labels matches label selectors, node selectors and required node
// affinity the way k8s.io/apimachinery/pkg/labels and
// k8s.io/component-helpers/scheduling/corev1/nodeaffinity do.
package labels

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/schedplay/schedplay/core/api"
)

// Set is a label map.
type Set map[string]string

// Operator is a selector operator.
type Operator string

// Operators understood by Requirement.
const (
	Equals       Operator = "="
	In           Operator = "in"
	NotIn        Operator = "notin"
	Exists       Operator = "exists"
	DoesNotExist Operator = "!"
	GreaterThan  Operator = "gt"
	LessThan     Operator = "lt"
)

// operators maps the API spellings shared by label and node selectors
// (node selectors add Gt and Lt).
var operators = map[string]Operator{
	"In": In, "NotIn": NotIn, "Exists": Exists, "DoesNotExist": DoesNotExist, "Gt": GreaterThan, "Lt": LessThan,
}

// Requirement is one key/operator/values condition.
type Requirement struct {
	Key    string
	Op     Operator
	Values []string
}

// Matches reports whether ls satisfies r.
func (r Requirement) Matches(ls Set) bool {
	v, has := ls[r.Key]
	switch r.Op {
	case Equals, In:
		return has && contains(r.Values, v)
	case NotIn:
		return !has || !contains(r.Values, v)
	case Exists:
		return has
	case DoesNotExist:
		return !has
	case GreaterThan, LessThan:
		if !has || len(r.Values) != 1 {
			return false
		}
		lv, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return false
		}
		rv, err := strconv.ParseInt(r.Values[0], 10, 64)
		if err != nil {
			return false
		}
		if r.Op == GreaterThan {
			return lv > rv
		}
		return lv < rv
	}
	return false
}

func contains(vs []string, v string) bool {
	for _, x := range vs {
		if x == v {
			return true
		}
	}
	return false
}

// Selector matches label sets.
type Selector interface {
	Matches(Set) bool
	// Empty reports a selector with no requirements (it matches everything).
	Empty() bool
	String() string
}

type requirements []Requirement

func (rs requirements) Matches(ls Set) bool {
	for _, r := range rs {
		if !r.Matches(ls) {
			return false
		}
	}
	return true
}

func (rs requirements) Empty() bool { return len(rs) == 0 }

func (rs requirements) String() string {
	parts := make([]string, 0, len(rs))
	for _, r := range rs {
		switch r.Op {
		case Equals:
			parts = append(parts, r.Key+"="+r.Values[0])
		case Exists:
			parts = append(parts, r.Key)
		case DoesNotExist:
			parts = append(parts, "!"+r.Key)
		default:
			parts = append(parts, fmt.Sprintf("%s %s (%s)", r.Key, r.Op, strings.Join(r.Values, ",")))
		}
	}
	return strings.Join(parts, ",")
}

type nothing struct{}

func (nothing) Matches(Set) bool { return false }
func (nothing) Empty() bool      { return false }
func (nothing) String() string   { return "<none>" }

// Everything matches every label set.
func Everything() Selector { return requirements(nil) }

// Nothing matches no label set.
func Nothing() Selector { return nothing{} }

// New builds a selector from requirements, sorted by key as upstream does.
func New(rs ...Requirement) Selector {
	out := append(requirements(nil), rs...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// Requirements returns the requirements of a selector built by this package.
func Requirements(s Selector) ([]Requirement, bool) {
	rs, ok := s.(requirements)
	return rs, ok
}

// SelectorFromSet matches label sets containing every pair of set.
func SelectorFromSet(set map[string]string) Selector {
	rs := make([]Requirement, 0, len(set))
	for k, v := range set {
		rs = append(rs, Requirement{Key: k, Op: Equals, Values: []string{v}})
	}
	return New(rs...)
}

// Add returns s with extra requirements ANDed in.
func Add(s Selector, rs ...Requirement) Selector {
	base, ok := s.(requirements)
	if !ok {
		return s // Nothing stays Nothing
	}
	return New(append(append([]Requirement(nil), base...), rs...)...)
}

// LabelSelectorAsSelector converts a metav1.LabelSelector: nil selects
// nothing, an empty one selects everything.
func LabelSelectorAsSelector(ps *api.LabelSelector) (Selector, error) {
	if ps == nil {
		return Nothing(), nil
	}
	if len(ps.MatchLabels)+len(ps.MatchExpressions) == 0 {
		return Everything(), nil
	}
	rs := make([]Requirement, 0, len(ps.MatchLabels)+len(ps.MatchExpressions))
	for k, v := range ps.MatchLabels {
		rs = append(rs, Requirement{Key: k, Op: Equals, Values: []string{v}})
	}
	for _, e := range ps.MatchExpressions {
		op, ok := operators[string(e.Operator)]
		if !ok || op == GreaterThan || op == LessThan {
			return nil, fmt.Errorf("%q is not a valid label selector operator (use In, NotIn, Exists or DoesNotExist)", e.Operator)
		}
		if err := validateRequirementValues(op, e.Values); err != nil {
			return nil, fmt.Errorf("label selector requirement on key %q: %w", e.Key, err)
		}
		rs = append(rs, Requirement{Key: e.Key, Op: op, Values: append([]string(nil), e.Values...)})
	}
	return New(rs...), nil
}
