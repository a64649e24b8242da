// Package st holds fluent builders for pods and nodes in tests, after
// upstream's pkg/scheduler/testing wrappers.
package st

import (
	"time"

	"github.com/schedplay/schedplay/core/api"
)

// PodWrapper builds a pod.
type PodWrapper struct{ api.Pod }

// MakePod starts a pod in namespace "default" with one container.
func MakePod() *PodWrapper {
	p := &PodWrapper{}
	p.Pod.Namespace = "default"
	p.Spec.Containers = []api.Container{{Name: "c", Image: "pause"}}
	return p
}

// Obj returns the pod.
func (p *PodWrapper) Obj() *api.Pod { return &p.Pod }

// Name sets the name (and UID).
func (p *PodWrapper) Name(s string) *PodWrapper { p.Pod.Name = s; p.Pod.UID = s; return p }

// Namespace sets the namespace.
func (p *PodWrapper) Namespace(s string) *PodWrapper { p.Pod.Namespace = s; return p }

// Label adds a label.
func (p *PodWrapper) Label(k, v string) *PodWrapper {
	if p.Pod.Labels == nil {
		p.Pod.Labels = map[string]string{}
	}
	p.Pod.Labels[k] = v
	return p
}

// Labels adds labels.
func (p *PodWrapper) Labels(m map[string]string) *PodWrapper {
	for k, v := range m {
		p.Label(k, v)
	}
	return p
}

// Node binds the pod to a node.
func (p *PodWrapper) Node(s string) *PodWrapper { p.Spec.NodeName = s; return p }

// NominatedNodeName sets status.nominatedNodeName.
func (p *PodWrapper) NominatedNodeName(s string) *PodWrapper {
	p.Status.NominatedNodeName = s
	return p
}

// Priority sets spec.priority.
func (p *PodWrapper) Priority(v int32) *PodWrapper { p.Spec.Priority = &v; return p }

// PreemptionPolicy sets spec.preemptionPolicy.
func (p *PodWrapper) PreemptionPolicy(v api.PreemptionPolicy) *PodWrapper {
	p.Spec.PreemptionPolicy = &v
	return p
}

// StartTime sets status.startTime.
func (p *PodWrapper) StartTime(t time.Time) *PodWrapper { p.Status.StartTime = &t; return p }

// CreationTimestamp sets metadata.creationTimestamp.
func (p *PodWrapper) CreationTimestamp(t time.Time) *PodWrapper {
	p.Pod.CreationTimestamp = &t
	return p
}

// Req sets the first container's requests, e.g. Req(map[string]string{"cpu": "1"}).
func (p *PodWrapper) Req(m map[string]string) *PodWrapper {
	p.Spec.Containers[0].Resources.Requests = ResourceList(m)
	return p
}

// Container appends a container with requests.
func (p *PodWrapper) Container(name string, req map[string]string) *PodWrapper {
	p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: name, Image: "pause", Resources: api.ResourceRequirements{Requests: ResourceList(req)}})
	return p
}

// InitReq appends an init container with requests; sidecar marks restartPolicy Always.
func (p *PodWrapper) InitReq(req map[string]string, sidecar bool) *PodWrapper {
	c := api.Container{Name: "init", Image: "pause", Resources: api.ResourceRequirements{Requests: ResourceList(req)}}
	if sidecar {
		always := api.ContainerRestartPolicyAlways
		c.RestartPolicy = &always
	}
	p.Spec.InitContainers = append(p.Spec.InitContainers, c)
	return p
}

// Overhead sets spec.overhead.
func (p *PodWrapper) Overhead(m map[string]string) *PodWrapper {
	p.Spec.Overhead = ResourceList(m)
	return p
}

// Image sets the first container's image.
func (p *PodWrapper) Image(s string) *PodWrapper { p.Spec.Containers[0].Image = s; return p }

// HostPort adds a host port to the first container.
func (p *PodWrapper) HostPort(port int32, protocol api.Protocol, ip string) *PodWrapper {
	p.Spec.Containers[0].Ports = append(p.Spec.Containers[0].Ports, api.ContainerPort{ContainerPort: port, HostPort: port, Protocol: protocol, HostIP: ip})
	return p
}

// NodeSelector sets spec.nodeSelector.
func (p *PodWrapper) NodeSelector(m map[string]string) *PodWrapper { p.Spec.NodeSelector = m; return p }

// Toleration adds a toleration.
func (p *PodWrapper) Toleration(t api.Toleration) *PodWrapper {
	p.Spec.Tolerations = append(p.Spec.Tolerations, t)
	return p
}

func (p *PodWrapper) affinity() *api.Affinity {
	if p.Spec.Affinity == nil {
		p.Spec.Affinity = &api.Affinity{}
	}
	return p.Spec.Affinity
}

// NodeAffinityIn adds a required node affinity term key In values.
func (p *PodWrapper) NodeAffinityIn(key string, values ...string) *PodWrapper {
	a := p.affinity()
	if a.NodeAffinity == nil {
		a.NodeAffinity = &api.NodeAffinity{}
	}
	if a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = &api.NodeSelector{}
	}
	ns := a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution
	ns.NodeSelectorTerms = append(ns.NodeSelectorTerms, api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{Key: key, Operator: api.NodeSelectorOpIn, Values: values}}})
	return p
}

// PreferredNodeAffinity adds a weighted node preference key In values.
func (p *PodWrapper) PreferredNodeAffinity(weight int32, key string, values ...string) *PodWrapper {
	a := p.affinity()
	if a.NodeAffinity == nil {
		a.NodeAffinity = &api.NodeAffinity{}
	}
	a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution = append(a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution,
		api.PreferredSchedulingTerm{Weight: weight, Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{Key: key, Operator: api.NodeSelectorOpIn, Values: values}}}})
	return p
}

// PodAffinity adds a required pod affinity term (key In values, on topologyKey).
func (p *PodWrapper) PodAffinity(topologyKey string, sel *api.LabelSelector) *PodWrapper {
	a := p.affinity()
	if a.PodAffinity == nil {
		a.PodAffinity = &api.PodAffinity{}
	}
	a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution = append(a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution, api.PodAffinityTerm{LabelSelector: sel, TopologyKey: topologyKey})
	return p
}

// PodAntiAffinity adds a required pod anti-affinity term.
func (p *PodWrapper) PodAntiAffinity(topologyKey string, sel *api.LabelSelector) *PodWrapper {
	a := p.affinity()
	if a.PodAntiAffinity == nil {
		a.PodAntiAffinity = &api.PodAntiAffinity{}
	}
	a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution = append(a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution, api.PodAffinityTerm{LabelSelector: sel, TopologyKey: topologyKey})
	return p
}

// PreferredPodAffinity adds a weighted pod affinity term.
func (p *PodWrapper) PreferredPodAffinity(weight int32, topologyKey string, sel *api.LabelSelector) *PodWrapper {
	a := p.affinity()
	if a.PodAffinity == nil {
		a.PodAffinity = &api.PodAffinity{}
	}
	a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution = append(a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution,
		api.WeightedPodAffinityTerm{Weight: weight, PodAffinityTerm: api.PodAffinityTerm{LabelSelector: sel, TopologyKey: topologyKey}})
	return p
}

// PreferredPodAntiAffinity adds a weighted pod anti-affinity term.
func (p *PodWrapper) PreferredPodAntiAffinity(weight int32, topologyKey string, sel *api.LabelSelector) *PodWrapper {
	a := p.affinity()
	if a.PodAntiAffinity == nil {
		a.PodAntiAffinity = &api.PodAntiAffinity{}
	}
	a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution = append(a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution,
		api.WeightedPodAffinityTerm{Weight: weight, PodAffinityTerm: api.PodAffinityTerm{LabelSelector: sel, TopologyKey: topologyKey}})
	return p
}

// SpreadConstraint adds a topology spread constraint.
func (p *PodWrapper) SpreadConstraint(maxSkew int32, key string, when api.UnsatisfiableConstraintAction, sel *api.LabelSelector, minDomains *int32, nodeAffinityPolicy, nodeTaintsPolicy *api.NodeInclusionPolicy, matchLabelKeys []string) *PodWrapper {
	p.Spec.TopologySpreadConstraints = append(p.Spec.TopologySpreadConstraints, api.TopologySpreadConstraint{
		MaxSkew: maxSkew, TopologyKey: key, WhenUnsatisfiable: when, LabelSelector: sel, MinDomains: minDomains,
		NodeAffinityPolicy: nodeAffinityPolicy, NodeTaintsPolicy: nodeTaintsPolicy, MatchLabelKeys: matchLabelKeys,
	})
	return p
}

// OwnerReference adds a controller owner reference.
func (p *PodWrapper) OwnerReference(kind, name string) *PodWrapper {
	t := true
	p.Pod.OwnerReferences = append(p.Pod.OwnerReferences, api.OwnerReference{APIVersion: "apps/v1", Kind: kind, Name: name, UID: name, Controller: &t})
	return p
}

// TerminationGracePeriodSeconds sets the grace period.
func (p *PodWrapper) TerminationGracePeriodSeconds(s int64) *PodWrapper {
	p.Spec.TerminationGracePeriodSeconds = &s
	return p
}

// Terminating marks the pod as being deleted.
func (p *PodWrapper) Terminating(t time.Time) *PodWrapper { p.Pod.DeletionTimestamp = &t; return p }

// Condition adds a status condition.
func (p *PodWrapper) Condition(typ, status, reason string) *PodWrapper {
	p.Status.Conditions = append(p.Status.Conditions, api.PodCondition{Type: typ, Status: status, Reason: reason})
	return p
}

// ResourceList parses a map of quantities (panics on bad input: tests only).
func ResourceList(m map[string]string) api.ResourceList {
	if m == nil {
		return nil
	}
	out := api.ResourceList{}
	for k, v := range m {
		out[api.ResourceName(k)] = api.MustParseQuantity(v)
	}
	return out
}

// LabelSelector builds a matchLabels selector.
func LabelSelector(m map[string]string) *api.LabelSelector { return &api.LabelSelector{MatchLabels: m} }

// NodeWrapper builds a node.
type NodeWrapper struct{ api.Node }

// MakeNode starts a node.
func MakeNode() *NodeWrapper { return &NodeWrapper{} }

// Obj returns the node.
func (n *NodeWrapper) Obj() *api.Node { return &n.Node }

// Name sets the name and the hostname label.
func (n *NodeWrapper) Name(s string) *NodeWrapper {
	n.Node.Name = s
	n.Node.UID = s
	return n.Label(api.LabelHostname, s)
}

// Label adds a label.
func (n *NodeWrapper) Label(k, v string) *NodeWrapper {
	if n.Labels == nil {
		n.Labels = map[string]string{}
	}
	n.Labels[k] = v
	return n
}

// Zone sets topology.kubernetes.io/zone.
func (n *NodeWrapper) Zone(z string) *NodeWrapper { return n.Label(api.LabelTopologyZone, z) }

// Capacity sets allocatable (and capacity), e.g. {"cpu": "4", "memory": "8Gi", "pods": "110"}.
func (n *NodeWrapper) Capacity(m map[string]string) *NodeWrapper {
	n.Status.Allocatable = ResourceList(m)
	n.Status.Capacity = ResourceList(m)
	return n
}

// Taint adds a taint.
func (n *NodeWrapper) Taint(key, value string, effect api.TaintEffect) *NodeWrapper {
	n.Spec.Taints = append(n.Spec.Taints, api.Taint{Key: key, Value: value, Effect: effect})
	return n
}

// Unschedulable cordons the node.
func (n *NodeWrapper) Unschedulable(b bool) *NodeWrapper { n.Node.Spec.Unschedulable = b; return n }

// Image adds an entry to status.images (name -> size in bytes).
func (n *NodeWrapper) Image(size int64, names ...string) *NodeWrapper {
	n.Status.Images = append(n.Status.Images, api.ContainerImage{Names: names, SizeBytes: size})
	return n
}
