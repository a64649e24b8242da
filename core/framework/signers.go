package framework

import (
	"encoding/json"
	"slices"
	"sort"

	"github.com/schedplay/schedplay/core/api"
)

// SignFragment is one part of a pod's scheduling signature: what a plugin
// reads from the pod to filter and score it (upstream fwk.SignFragment).
// Two pods whose fragments are all equal get the same feasibility and
// scores on the same nodes.
type SignFragment struct {
	Key   string
	Value any
}

// SignPlugin is a plugin that can sign pods for opportunistic batching
// (upstream fwk.SignPlugin). A non-success status means the pod cannot be
// signed: its feasibility or scores depend on more than the pod and the node.
type SignPlugin interface {
	Plugin
	SignPod(pod *api.Pod) ([]SignFragment, *Status)
}

// Fragment keys, as upstream's kube-scheduler/framework/signers.go. Plugins
// reading the same part of the pod write the same key.
const (
	ImageNamesSignerName    = "v1.Pod.Spec.CanonicalImageNames()"
	LabelsSignerName        = "v1.Pod.Labels"
	NodeNameSignerName      = "v1.Pod.Spec.NodeName"
	NodeAffinitySignerName  = "v1.Pod.Spec.Affinity.NodeAffinity"
	NodeSelectorSignerName  = "v1.Pod.Spec.Affinity.NodeSelector"
	HostPortsSignerName     = "v1.Pod.Spec.HostPorts()"
	ResourcesSignerName     = "v1.Pod.Spec.ContainerRequestsAndOverheads()"
	SchedulerNameSignerName = "v1.Pod.Spec.SchedulerName"
	TolerationsSignerName   = "v1.Pod.Spec.Tolerations"
	VolumesSignerName       = "v1.Pod.Spec.Volumes.NonSyntheticSources()"
	FeaturesSignerName      = "v1.Pod.Spec.RequiredFeatures()"
)

// HostPortsSigner is the sorted set of the pod's host ports (upstream
// HostPortsSigner).
func HostPortsSigner(pod *api.Pod) any {
	var ports []int32
	for _, cs := range [][]api.Container{pod.Spec.Containers, pod.Spec.InitContainers} {
		for _, c := range cs {
			for _, p := range c.Ports {
				if p.HostPort != 0 && !slices.Contains(ports, p.HostPort) {
					ports = append(ports, p.HostPort)
				}
			}
		}
	}
	slices.Sort(ports)
	return ports
}

// TolerationsSigner is the pod's tolerations ordered by key and value
// (upstream TolerationsSigner).
func TolerationsSigner(pod *api.Pod) any {
	ret := append([]api.Toleration{}, pod.Spec.Tolerations...)
	sort.SliceStable(ret, func(i, j int) bool {
		return ret[i].Key < ret[j].Key || (ret[i].Key == ret[j].Key && ret[i].Value < ret[j].Value)
	})
	return ret
}

// VolumesSigner is the pod's volume sources other than ConfigMaps and
// Secrets, each as JSON, sorted (upstream VolumesSigner).
func VolumesSigner(pod *api.Pod) any {
	ret := []string{}
	for i := range pod.Spec.Volumes {
		v := pod.Spec.Volumes[i]
		if v.ConfigMap != nil || v.Secret != nil {
			continue
		}
		v.Name = "" // upstream signs the source, not the name
		b, err := json.Marshal(v)
		if err != nil {
			return nil
		}
		ret = append(ret, string(b))
	}
	slices.Sort(ret)
	return ret
}

// NodeAffinitySigner is the pod's node affinity with every list sorted
// (upstream NodeAffinitySigner), or nil without one.
func NodeAffinitySigner(pod *api.Pod) (any, error) {
	if pod.Spec.Affinity == nil || pod.Spec.Affinity.NodeAffinity == nil {
		return nil, nil
	}
	n := pod.Spec.Affinity.NodeAffinity
	type prefTerm struct {
		Weight     int32
		Preference nodeSelTermSign
	}
	pref := []string{}
	for _, t := range n.PreferredDuringSchedulingIgnoredDuringExecution {
		s, err := json.Marshal(prefTerm{Weight: t.Weight, Preference: nodeSelectorTermSigner(t.Preference)})
		if err != nil {
			return nil, err
		}
		pref = append(pref, string(s))
	}
	slices.Sort(pref)
	req := []string{}
	if r := n.RequiredDuringSchedulingIgnoredDuringExecution; r != nil {
		for _, t := range r.NodeSelectorTerms {
			s, err := json.Marshal(nodeSelectorTermSigner(t))
			if err != nil {
				return nil, err
			}
			req = append(req, string(s))
		}
		slices.Sort(req)
	}
	return struct{ Required, Preferred []string }{req, pref}, nil
}

type nodeSelTermSign struct {
	MatchExpressions []string
	MatchFields      []string
}

func nodeSelectorTermSigner(t api.NodeSelectorTerm) nodeSelTermSign {
	return nodeSelTermSign{MatchExpressions: requirementsSigner(t.MatchExpressions), MatchFields: requirementsSigner(t.MatchFields)}
}

// requirementsSigner is upstream's NodeSelectorRequirementsSigner: each
// requirement with sorted values, as JSON, sorted.
func requirementsSigner(reqs []api.NodeSelectorRequirement) []string {
	ret := make([]string, len(reqs))
	for i, r := range reqs {
		r.Values = slices.Sorted(slices.Values(r.Values))
		b, _ := json.Marshal(r) // strings only: cannot fail
		ret[i] = string(b)
	}
	slices.Sort(ret)
	return ret
}
