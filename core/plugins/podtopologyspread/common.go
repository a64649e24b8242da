package podtopologyspread

import (
	"fmt"
	"strings"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/labels"
)

// topologySpreadConstraint is a spread constraint with its selector
// compiled and its optional fields resolved.
type topologySpreadConstraint struct {
	MaxSkew            int32
	TopologyKey        string
	Selector           labels.Selector
	MinDomains         int32
	NodeAffinityPolicy api.NodeInclusionPolicy
	NodeTaintsPolicy   api.NodeInclusionPolicy
}

// matchNodeInclusionPolicies reports whether node counts towards the
// constraint's domains for pod.
func (tsc *topologySpreadConstraint) matchNodeInclusionPolicies(pod *api.Pod, node *api.Node, require labels.RequiredNodeAffinity) bool {
	if tsc.NodeAffinityPolicy == api.NodeInclusionPolicyHonor && !require.Match(node) {
		return false
	}
	if tsc.NodeTaintsPolicy == api.NodeInclusionPolicyHonor {
		// Only the taints TaintToleration filters on exclude a node.
		if _, untolerated := api.FindMatchingUntoleratedTaint(node.Spec.Taints, pod.Spec.Tolerations, doNotScheduleTaint); untolerated {
			return false
		}
	}
	return true
}

func doNotScheduleTaint(t *api.Taint) bool {
	return t.Effect == api.TaintEffectNoSchedule || t.Effect == api.TaintEffectNoExecute
}

// getConstraints returns the pod's DoNotSchedule constraints, or the default
// ones when the pod declares no constraint at all.
func (pl *PodTopologySpread) getConstraints(pod *api.Pod) ([]topologySpreadConstraint, error) {
	if len(pod.Spec.TopologySpreadConstraints) > 0 {
		cs, err := filterTopologySpreadConstraints(pod.Spec.TopologySpreadConstraints, pod.Labels, api.DoNotSchedule)
		if err != nil {
			return nil, fmt.Errorf("obtaining pod's hard topology spread constraints: %w", err)
		}
		return cs, nil
	}
	cs, err := pl.buildDefaultConstraints(pod, api.DoNotSchedule)
	if err != nil {
		return nil, fmt.Errorf("setting default hard topology spread constraints: %w", err)
	}
	return cs, nil
}

// buildDefaultConstraints applies the default constraints of the given
// action with the selector of the workloads that own or select the pod. A
// pod no workload selects gets no default constraints.
func (pl *PodTopologySpread) buildDefaultConstraints(pod *api.Pod, action api.UnsatisfiableConstraintAction) ([]topologySpreadConstraint, error) {
	// The selector is found first: most pods have none (no workload), and
	// then compiling the constraints is wasted, unless compiling could
	// fail, which needs a constraint with a selector (validation forbids
	// them) and is still reported.
	some, canFail := false, false
	for _, c := range pl.defaultConstraints {
		if c.WhenUnsatisfiable == action {
			some, canFail = true, canFail || c.LabelSelector != nil
		}
	}
	if !some {
		return nil, nil
	}
	var cluster framework.ClusterLister
	if pl.handle != nil {
		cluster = pl.handle.Cluster()
	}
	sel := defaultSelector(pod, cluster)
	if sel.Empty() && !canFail {
		return nil, nil
	}
	cs, err := filterTopologySpreadConstraints(pl.defaultConstraints, pod.Labels, action)
	if err != nil || len(cs) == 0 || sel.Empty() {
		return nil, err
	}
	for i := range cs {
		cs[i].Selector = sel
	}
	return cs, nil
}

// filterTopologySpreadConstraints compiles the constraints with the given
// action: nil policies mean Honor (affinity) and Ignore (taints), nil
// minDomains means 1, and the pod's values of matchLabelKeys are ANDed into
// the selector.
func filterTopologySpreadConstraints(constraints []api.TopologySpreadConstraint, podLabels map[string]string, action api.UnsatisfiableConstraintAction) ([]topologySpreadConstraint, error) {
	var out []topologySpreadConstraint
	for _, c := range constraints {
		if c.WhenUnsatisfiable != action {
			continue
		}
		sel, err := labels.LabelSelectorAsSelector(c.LabelSelector)
		if err != nil {
			return nil, err
		}
		if len(c.MatchLabelKeys) > 0 {
			matchLabels := map[string]string{}
			for _, k := range c.MatchLabelKeys {
				if v, ok := podLabels[k]; ok {
					matchLabels[k] = v
				}
			}
			if len(matchLabels) > 0 {
				sel = mergeLabelSetWithSelector(matchLabels, sel)
			}
		}
		tsc := topologySpreadConstraint{
			MaxSkew:            c.MaxSkew,
			TopologyKey:        c.TopologyKey,
			Selector:           sel,
			MinDomains:         1,
			NodeAffinityPolicy: api.NodeInclusionPolicyHonor,
			NodeTaintsPolicy:   api.NodeInclusionPolicyIgnore,
		}
		if c.MinDomains != nil {
			tsc.MinDomains = *c.MinDomains
		}
		if c.NodeAffinityPolicy != nil {
			tsc.NodeAffinityPolicy = *c.NodeAffinityPolicy
		}
		if c.NodeTaintsPolicy != nil {
			tsc.NodeTaintsPolicy = *c.NodeTaintsPolicy
		}
		out = append(out, tsc)
	}
	return out, nil
}

// mergeLabelSetWithSelector ANDs set into s. A selector without
// requirements to list (a nil labelSelector, which selects nothing) stays
// as it is, as upstream.
func mergeLabelSetWithSelector(set map[string]string, s labels.Selector) labels.Selector {
	rs, ok := labels.Requirements(s)
	if !ok {
		return s
	}
	return labels.Add(labels.SelectorFromSet(set), rs...)
}

// nodeLabelsMatchSpreadConstraints reports whether the node has every
// constraint's topology key.
func nodeLabelsMatchSpreadConstraints(nodeLabels map[string]string, constraints []topologySpreadConstraint) bool {
	for _, c := range constraints {
		if _, ok := nodeLabels[c.TopologyKey]; !ok {
			return false
		}
	}
	return true
}

// countPodsMatchSelector counts pods of namespace ns matching selector.
// Terminating pods are skipped (kubernetes#87621), and an empty selector
// counts nothing even though it matches everything, as upstream.
func countPodsMatchSelector(podInfos []*framework.PodInfo, selector labels.Selector, ns string) int {
	if selector.Empty() {
		return 0
	}
	n := 0
	for _, pi := range podInfos {
		p := pi.Pod
		if p.DeletionTimestamp != nil || p.Namespace != ns {
			continue
		}
		if selector.Matches(p.Labels) {
			n++
		}
	}
	return n
}

// defaultSelector merges the selectors of the Services selecting pod and of
// its controlling ReplicationController, ReplicaSet or StatefulSet, as
// upstream's helper.DefaultSelector.
func defaultSelector(pod *api.Pod, cluster framework.ClusterLister) labels.Selector {
	set := map[string]string{}
	if cluster == nil {
		return labels.SelectorFromSet(set)
	}
	for _, svc := range cluster.Services() {
		// A nil selector selects nothing; an empty one selects everything.
		if svc.Namespace != pod.Namespace || svc.Spec.Selector == nil {
			continue
		}
		if labels.SelectorFromSet(svc.Spec.Selector).Matches(pod.Labels) {
			for k, v := range svc.Spec.Selector {
				set[k] = v
			}
		}
	}
	sel := labels.SelectorFromSet(set)

	owner := pod.ControllerRef()
	if owner == nil {
		return sel
	}
	group, version, ok := parseGroupVersion(owner.APIVersion)
	if !ok {
		return sel
	}
	switch {
	case group == "" && version == "v1" && owner.Kind == "ReplicationController":
		for _, rc := range cluster.ReplicationControllers() {
			if rc.Namespace == pod.Namespace && rc.Name == owner.Name {
				for k, v := range rc.Spec.Selector {
					set[k] = v
				}
				sel = labels.SelectorFromSet(set)
				break
			}
		}
	case group == "apps" && version == "v1" && owner.Kind == "ReplicaSet":
		for _, rs := range cluster.ReplicaSets() {
			if rs.Namespace == pod.Namespace && rs.Name == owner.Name {
				sel = addWorkloadSelector(sel, rs.Spec.Selector)
				break
			}
		}
	case group == "apps" && version == "v1" && owner.Kind == "StatefulSet":
		for _, ss := range cluster.StatefulSets() {
			if ss.Namespace == pod.Namespace && ss.Name == owner.Name {
				sel = addWorkloadSelector(sel, ss.Spec.Selector)
				break
			}
		}
	}
	return sel
}

// addWorkloadSelector ANDs a workload's label selector into sel; a selector
// that fails to parse or selects nothing adds no requirement.
func addWorkloadSelector(sel labels.Selector, ls *api.LabelSelector) labels.Selector {
	other, err := labels.LabelSelectorAsSelector(ls)
	if err != nil {
		return sel
	}
	if rs, ok := labels.Requirements(other); ok {
		return labels.Add(sel, rs...)
	}
	return sel
}

// parseGroupVersion splits an apiVersion as schema.ParseGroupVersion: ""
// is the empty group version, "v1" the core group, and more than one slash
// is an error.
func parseGroupVersion(gv string) (group, version string, ok bool) {
	if gv == "" {
		return "", "", true
	}
	switch strings.Count(gv, "/") {
	case 0:
		return "", gv, true
	case 1:
		i := strings.Index(gv, "/")
		return gv[:i], gv[i+1:], true
	}
	return "", "", false
}
