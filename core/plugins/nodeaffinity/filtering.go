package nodeaffinity

import (
	"fmt"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/labels"
)

// metadataNameField is the only field matchFields may select on.
const metadataNameField = "metadata.name"

type preFilterState struct {
	requiredNodeSelectorAndAffinity labels.RequiredNodeAffinity
}

// Clone shares the state: it is never modified after PreFilter.
func (s *preFilterState) Clone() framework.StateData { return s }

// PreFilter compiles the pod's hard node constraints once. When every
// required term pins node names with a metadata.name In matchField, it
// narrows the cycle to the union of those names.
func (pl *NodeAffinity) PreFilter(state *framework.CycleState, pod *api.Pod, _ []*framework.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	affinity := pod.Spec.Affinity
	noNodeAffinity := affinity == nil || affinity.NodeAffinity == nil ||
		affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil
	// Upstream tests the nodeSelector map against nil, not for emptiness.
	if noNodeAffinity && pl.addedNodeSelector == nil && pod.Spec.NodeSelector == nil {
		return nil, pl.skip.Get()
	}
	state.Write(preFilterStateKey, &preFilterState{requiredNodeSelectorAndAffinity: labels.GetRequiredNodeAffinity(pod)})
	if noNodeAffinity {
		return nil, nil
	}
	terms := affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
	if len(terms) == 0 {
		return nil, nil
	}
	var nodeNames map[string]bool
	for _, t := range terms {
		termNames := termNodeNames(t)
		if termNames == nil {
			// A term that does not pin names can match any node.
			return nil, nil
		}
		if nodeNames == nil {
			nodeNames = map[string]bool{}
		}
		for n := range termNames {
			nodeNames[n] = true
		}
	}
	if len(nodeNames) == 0 {
		return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonConflict)
	}
	return &framework.PreFilterResult{NodeNames: nodeNames}, nil
}

// termNodeNames intersects the values of a term's metadata.name In
// matchFields; nil means the term does not pin node names.
func termNodeNames(t api.NodeSelectorTerm) map[string]bool {
	var names map[string]bool
	for _, r := range t.MatchFields {
		if r.Key != metadataNameField || r.Operator != api.NodeSelectorOpIn {
			continue
		}
		set := make(map[string]bool, len(r.Values))
		for _, v := range r.Values {
			if names == nil || names[v] {
				set[v] = true
			}
		}
		names = set
	}
	return names
}

// PreFilterExtensions returns nil: the state does not depend on other pods.
func (pl *NodeAffinity) PreFilterExtensions() framework.PreFilterExtensions { return nil }

func getPreFilterState(state *framework.CycleState) (*preFilterState, error) {
	c, err := state.Read(preFilterStateKey)
	if err != nil {
		return nil, fmt.Errorf("reading %q from cycleState: %w", preFilterStateKey, err)
	}
	s, ok := c.(*preFilterState)
	if !ok {
		return nil, fmt.Errorf("invalid PreFilter state, got type %T", c)
	}
	return s, nil
}

// Filter checks addedAffinity first, then the pod's own constraints; both
// rejections are unresolvable since evicting pods cannot change labels.
func (pl *NodeAffinity) Filter(state *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	node := nodeInfo.Node()
	if pl.addedNodeSelector != nil && !pl.addedNodeSelector.Match(node) {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonEnforced)
	}
	s, err := getPreFilterState(state)
	if err != nil {
		// PreFilter skipped (or was not run, as in some preemption paths):
		// compile the constraints here.
		s = &preFilterState{requiredNodeSelectorAndAffinity: labels.GetRequiredNodeAffinity(pod)}
	}
	if !s.requiredNodeSelectorAndAffinity.Match(node) {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonPod)
	}
	return nil
}
