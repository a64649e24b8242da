// Package adapt turns what the engine knows into the canvas's view model
// (ui.Scene). It is the one place to change when the engine's read API grows:
// today it reads a loaded scenario; later it reads simulation snapshots.
package adapt

import (
	"cmp"
	"slices"
	"strings"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/scenario"
	"github.com/schedplay/schedplay/ui"
)

// Scene builds the view of a loaded scenario before anything is scheduled:
// pods with spec.nodeName on their nodes, every other pod in the queue lane
// in document order.
func Scene(s *scenario.Scenario) *ui.Scene {
	out := &ui.Scene{ZoneKey: ZoneKey(s), Nodes: []ui.Node{}, Pending: []ui.Pod{}, Classes: []ui.PriorityClass{}}
	index := make(map[string]int, len(s.Nodes))
	for _, n := range s.Nodes {
		index[n.Name] = len(out.Nodes)
		out.Nodes = append(out.Nodes, node(n, out.ZoneKey))
	}
	used := map[string]bool{}
	for _, p := range s.Pods {
		// The scheduler never sees finished pods: they hold no resources.
		if p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
			continue
		}
		vp := pod(p)
		used[vp.PriorityClass] = true
		if i, ok := index[p.Spec.NodeName]; ok {
			out.Nodes[i].Pods = append(out.Nodes[i].Pods, vp)
			continue
		}
		if p.Spec.NodeName != "" {
			vp.Reason = "bound to node " + p.Spec.NodeName + ", which is not in the scenario"
		}
		out.Pending = append(out.Pending, vp)
	}
	// Cards in the engine's order (nodes by name, pods by key, as its
	// states list them), so that cards and chips keep their places when
	// playback moves from this view to the first event's scene. Pending
	// pods stay in the file's order, the order they enter the queue.
	slices.SortFunc(out.Nodes, func(a, b ui.Node) int { return strings.Compare(a.Name, b.Name) })
	for i := range out.Nodes {
		slices.SortFunc(out.Nodes[i].Pods, byKey)
	}
	for _, pc := range s.PriorityClasses {
		// The built-in system classes would crowd the legend of every
		// scenario; they appear only when a pod uses them.
		if strings.HasPrefix(pc.Name, "system-") && !used[pc.Name] {
			continue
		}
		out.Classes = append(out.Classes, ui.PriorityClass{Name: pc.Name, Value: pc.Value})
	}
	return out
}

// byKey orders pods as their keys (namespace/name) sort, without building
// the keys (a load sorts every pod of the scenario).
func byKey(a, b ui.Pod) int {
	if a.Namespace == b.Namespace {
		return strings.Compare(a.Name, b.Name)
	}
	// The namespaces differ and hold no '/': compare each followed by '/'.
	for i := 0; ; i++ {
		x, y := byte('/'), byte('/')
		if i < len(a.Namespace) {
			x = a.Namespace[i]
		}
		if i < len(b.Namespace) {
			y = b.Namespace[i]
		}
		if x != y {
			return cmp.Compare(x, y)
		}
	}
}

func node(n *api.Node, zoneKey string) ui.Node {
	vn := ui.Node{
		Name:          n.Name,
		Zone:          n.Labels[zoneKey],
		Unschedulable: n.Spec.Unschedulable,
		Labels:        n.Labels,
		Allocatable: ui.Resources{
			MilliCPU: n.Status.Allocatable[api.ResourceCPU].MilliValue(),
			Memory:   n.Status.Allocatable[api.ResourceMemory].Value(),
			Pods:     n.Status.Allocatable[api.ResourcePods].Value(),
		},
	}
	for _, t := range n.Spec.Taints {
		vn.Taints = append(vn.Taints, ui.Taint{Key: t.Key, Value: t.Value, Effect: string(t.Effect)})
	}
	return vn
}

func pod(p *api.Pod) ui.Pod {
	req := api.PodRequests(p, api.PodRequestsOptions{})
	return ui.Pod{
		Namespace:     p.Namespace,
		Name:          p.Name,
		Node:          p.Spec.NodeName,
		PriorityClass: p.Spec.PriorityClassName,
		Priority:      p.PriorityValue(),
		Phase:         p.Status.Phase,
		NominatedNode: p.Status.NominatedNodeName,
		Requests: ui.Resources{
			MilliCPU: req[api.ResourceCPU],
			Memory:   req[api.ResourceMemory],
		},
	}
}

// ZoneKey is the node label that groups nodes into regions: the topology
// key the scenario's spread constraints or pod (anti-)affinity terms use,
// when that is neither the hostname (every node its own domain) nor the
// zone label, else topology.kubernetes.io/zone.
func ZoneKey(s *scenario.Scenario) string {
	specs := make([]*api.PodSpec, 0, len(s.Pods))
	for _, p := range s.Pods {
		specs = append(specs, &p.Spec)
	}
	for _, d := range s.Deployments {
		specs = append(specs, &d.Spec.Template.Spec)
	}
	for _, rs := range s.ReplicaSets {
		specs = append(specs, &rs.Spec.Template.Spec)
	}
	for _, ss := range s.StatefulSets {
		specs = append(specs, &ss.Spec.Template.Spec)
	}
	usable := func(k string) bool { return k != "" && k != api.LabelHostname }
	for _, sp := range specs {
		for _, c := range sp.TopologySpreadConstraints {
			if usable(c.TopologyKey) {
				return c.TopologyKey
			}
		}
		if a := sp.Affinity; a != nil {
			var terms []api.PodAffinityTerm
			if a.PodAffinity != nil {
				terms = append(terms, a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution...)
			}
			if a.PodAntiAffinity != nil {
				terms = append(terms, a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution...)
			}
			for _, t := range terms {
				if usable(t.TopologyKey) {
					return t.TopologyKey
				}
			}
		}
	}
	return api.LabelTopologyZone
}
