// Package adapt turns what the engine knows into the canvas's view model
// (ui.Scene): the engine's state after any event (the t=0 one too), each
// terminating pod's plan, PodTopologySpread's counts for the selected pod.
// It reads engine answers; it decides nothing about scheduling.
package adapt

import (
	"strings"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/scenario"
	"github.com/schedplay/schedplay/ui"
)

// classes is the legend: the scenario's PriorityClasses, the built-in
// system ones only when a pod uses them (they would crowd the legend of
// every scenario).
func classes(s *scenario.Scenario) []ui.PriorityClass {
	used := map[string]bool{}
	for _, p := range s.Pods {
		used[p.Spec.PriorityClassName] = true
	}
	out := []ui.PriorityClass{}
	for _, pc := range s.PriorityClasses {
		if strings.HasPrefix(pc.Name, "system-") && !used[pc.Name] {
			continue
		}
		out = append(out, ui.PriorityClass{Name: pc.Name, Value: pc.Value})
	}
	return out
}

// pod is the chip's fixed fields of a pod object; the run fills in where
// the pod is and what it waits for from the engine's state.
func pod(p *api.Pod) ui.Pod {
	var req ui.Resources
	// PodRequests' figures, without the map it builds (a pod chip of each
	// of thousands of pods in a t=0 scene).
	api.VisitPodRequests(p, api.PodRequestsOptions{}, func(n api.ResourceName, v int64) {
		switch n {
		case api.ResourceCPU:
			req.MilliCPU = v
		case api.ResourceMemory:
			req.Memory = v
		}
	})
	return ui.Pod{
		Namespace:     p.Namespace,
		Name:          p.Name,
		Node:          p.Spec.NodeName,
		PriorityClass: p.Spec.PriorityClassName,
		Priority:      p.PriorityValue(),
		Phase:         p.Status.Phase,
		NominatedNode: p.Status.NominatedNodeName,
		Requests:      req,
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
