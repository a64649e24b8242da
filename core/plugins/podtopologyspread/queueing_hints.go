package podtopologyspread

import (
	"fmt"
	"reflect"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
)

// Queueing hints. Upstream registers these for Pod Add, UpdatePodLabel,
// UpdatePodToleration and Delete events and for Node Add, Delete,
// UpdateNodeLabel and UpdateNodeTaint events (SchedulerQueueingHints is GA
// in v1.36). They return true for Queue and false for QueueSkip; an error
// means Queue as well. EventsToRegister wraps them as framework hints.

// involvedInTopologySpreading reports whether a change to incomingPod can
// matter to podWithSpreading: it is the pod itself, or a bound or
// nominated pod in the same namespace.
func involvedInTopologySpreading(incomingPod, podWithSpreading *api.Pod) bool {
	if incomingPod.UID == podWithSpreading.UID {
		return true
	}
	if incomingPod.Spec.NodeName == "" && incomingPod.Status.NominatedNodeName == "" {
		return false
	}
	return incomingPod.Namespace == podWithSpreading.Namespace
}

// IsSchedulableAfterPodChange says whether adding (oldPod nil), deleting
// (newPod nil) or updating a pod may make pod, rejected by this plugin,
// schedulable. Only the hard constraints (or defaults) are considered.
func (pl *PodTopologySpread) IsSchedulableAfterPodChange(pod, oldPod, newPod *api.Pod) (bool, error) {
	if (newPod != nil && !involvedInTopologySpreading(newPod, pod)) || (oldPod != nil && !involvedInTopologySpreading(oldPod, pod)) {
		return false, nil
	}
	constraints, err := pl.getConstraints(pod)
	if err != nil {
		return true, fmt.Errorf("getting constraints of pod %s: %w", pod.Key(), err)
	}
	switch {
	case oldPod != nil && newPod != nil:
		// A new toleration only matters to the pod itself, through a
		// constraint that honours taints.
		if pod.UID == newPod.UID && !tolerationsEqual(oldPod.Spec.Tolerations, newPod.Spec.Tolerations) && hasConstraintWithNodeTaintsPolicyHonor(constraints) {
			return true, nil
		}
		if framework.SemanticMapsEqual(oldPod.Labels, newPod.Labels) {
			return false, nil
		}
		for _, c := range constraints {
			if c.Selector.Matches(oldPod.Labels) != c.Selector.Matches(newPod.Labels) {
				return true, nil
			}
		}
		return false, nil
	case newPod != nil:
		return podLabelsMatchSpreadConstraints(constraints, newPod.Labels), nil
	case oldPod != nil:
		return podLabelsMatchSpreadConstraints(constraints, oldPod.Labels), nil
	}
	return false, nil
}

// IsSchedulableAfterNodeChange says whether adding (oldNode nil), deleting
// (newNode nil) or updating a node may make pod schedulable: the node must
// carry every topology key, and an update must change that, a key's value,
// or the taints.
func (pl *PodTopologySpread) IsSchedulableAfterNodeChange(pod *api.Pod, oldNode, newNode *api.Node) (bool, error) {
	constraints, err := pl.getConstraints(pod)
	if err != nil {
		return true, fmt.Errorf("getting constraints of pod %s: %w", pod.Key(), err)
	}
	var oldMatching, newMatching bool
	if oldNode != nil {
		oldMatching = nodeLabelsMatchSpreadConstraints(oldNode.Labels, constraints)
	}
	if newNode != nil {
		newMatching = nodeLabelsMatchSpreadConstraints(newNode.Labels, constraints)
	}
	switch {
	case oldNode != nil && newNode != nil:
		if oldMatching != newMatching {
			return true, nil
		}
		return newMatching && (topologyKeyLabelsChanged(oldNode.Labels, newNode.Labels, constraints) || !taintsEqual(oldNode.Spec.Taints, newNode.Spec.Taints)), nil
	case newNode != nil:
		return newMatching, nil
	}
	return oldMatching, nil
}

func hasConstraintWithNodeTaintsPolicyHonor(constraints []topologySpreadConstraint) bool {
	for _, c := range constraints {
		if c.NodeTaintsPolicy == api.NodeInclusionPolicyHonor {
			return true
		}
	}
	return false
}

// podLabelsMatchSpreadConstraints reports whether any constraint selects podLabels.
func podLabelsMatchSpreadConstraints(constraints []topologySpreadConstraint, podLabels map[string]string) bool {
	for _, c := range constraints {
		if c.Selector.Matches(podLabels) {
			return true
		}
	}
	return false
}

func topologyKeyLabelsChanged(oldLabels, newLabels map[string]string, constraints []topologySpreadConstraint) bool {
	for _, c := range constraints {
		if oldLabels[c.TopologyKey] != newLabels[c.TopologyKey] {
			return true
		}
	}
	return false
}

// The comparisons below treat nil and empty alike, as equality.Semantic.

func tolerationsEqual(a, b []api.Toleration) bool {
	return len(a) == len(b) && (len(a) == 0 || reflect.DeepEqual(a, b))
}

func taintsEqual(a, b []api.Taint) bool {
	return len(a) == len(b) && (len(a) == 0 || reflect.DeepEqual(a, b))
}

var _ framework.EnqueueExtensions = (*PodTopologySpread)(nil)

// EventsToRegister: pods added, relabelled, deleted or (the pod itself)
// gaining a toleration, and nodes added, deleted, relabelled or retainted.
func (pl *PodTopologySpread) EventsToRegister() ([]framework.ClusterEventWithHint, error) {
	return []framework.ClusterEventWithHint{
		{Event: framework.ClusterEvent{Resource: framework.Pod, ActionType: framework.Add | framework.UpdatePodLabel | framework.UpdatePodToleration | framework.Delete}, QueueingHintFn: pl.isSchedulableAfterPodChange},
		{Event: framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Add | framework.Delete | framework.UpdateNodeLabel | framework.UpdateNodeTaint}, QueueingHintFn: pl.isSchedulableAfterNodeChange},
	}, nil
}

func (pl *PodTopologySpread) isSchedulableAfterPodChange(pod *api.Pod, oldObj, newObj any) (framework.QueueingHint, error) {
	oldPod, newPod, err := framework.As[*api.Pod](oldObj, newObj)
	if err != nil {
		return framework.Queue, err
	}
	return toHint(pl.IsSchedulableAfterPodChange(pod, oldPod, newPod))
}

func (pl *PodTopologySpread) isSchedulableAfterNodeChange(pod *api.Pod, oldObj, newObj any) (framework.QueueingHint, error) {
	oldNode, newNode, err := framework.As[*api.Node](oldObj, newObj)
	if err != nil {
		return framework.Queue, err
	}
	return toHint(pl.IsSchedulableAfterNodeChange(pod, oldNode, newNode))
}

func toHint(queue bool, err error) (framework.QueueingHint, error) {
	if queue || err != nil {
		return framework.Queue, err
	}
	return framework.QueueSkip, nil
}
