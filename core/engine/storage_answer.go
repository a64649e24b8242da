package engine

import (
	"sort"
	"strings"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
)

// The storage a pod uses, as the details panel shows it: its claims, the
// volumes they are bound to and the zone those volumes pin the pod to.

// ClaimState is one of a pod's claims after some event.
type ClaimState struct {
	Volume string `json:"volume"` // the pod's volume name
	Claim  string `json:"claim"`
	// Missing: no such claim exists (the pod cannot be scheduled).
	Missing     bool     `json:"missing,omitempty"`
	Phase       string   `json:"phase,omitempty"`
	Class       string   `json:"class,omitempty"`
	BindingMode string   `json:"bindingMode,omitempty"`
	AccessModes []string `json:"accessModes,omitempty"`
	Size        string   `json:"size,omitempty"`
	// PV is the bound volume; Pinned its required node affinity in words.
	PV     string `json:"pv,omitempty"`
	Pinned string `json:"pinned,omitempty"`
	// Zones are the zones the volume allows (node affinity on
	// topology.kubernetes.io/zone, or the volume's zone label).
	Zones []string `json:"zones,omitempty"`
	// Note says what the claim waits for, when it is not bound.
	Note string `json:"note,omitempty"`
}

// PodStorage is a pod's storage after some event.
type PodStorage struct {
	Claims []ClaimState `json:"claims,omitempty"`
	// Other names the pod's other volumes and their kind ("cache: emptyDir").
	Other []string `json:"other,omitempty"`
	// Zones are the zones every bound claim's volume allows (empty: no pin).
	Zones []string `json:"zones,omitempty"`
}

// storageVersion is the storage as it was from event seq on.
type storageVersion struct {
	seq int
	st  *framework.Storage
}

// logStorage remembers the storage as of the next event (changes are rare:
// a copy of the indexes each time).
func (s *Simulation) logStorage() {
	if s.storage == nil {
		return
	}
	s.storageLog = append(s.storageLog, storageVersion{seq: len(s.trace), st: s.storage.Clone()})
}

// storageAt is the storage after event seq (-1: at t=0): the last
// version logged before an event after seq.
func (s *Simulation) storageAt(seq int) *framework.Storage {
	var st *framework.Storage
	for _, v := range s.storageLog {
		if v.seq > max(seq, 0) {
			break
		}
		st = v.st
	}
	return st
}

// PodStorageAt describes pod key's storage after event seq (-1: t=0); nil
// for a pod without volumes.
func (s *Simulation) PodStorageAt(key string, seq int) *PodStorage {
	sp := s.pods[key]
	if sp == nil || len(sp.pod.Spec.Volumes) == 0 {
		return nil
	}
	st := s.storageAt(seq)
	out := &PodStorage{}
	var zones map[string]bool
	for _, v := range sp.pod.Spec.Volumes {
		if v.PersistentVolumeClaim == nil {
			out.Other = append(out.Other, v.Name+": "+volumeKind(&v))
			continue
		}
		c := claimState(st, sp.pod.Namespace, v.Name, v.PersistentVolumeClaim.ClaimName)
		if c.PV != "" && len(c.Zones) > 0 {
			z := map[string]bool{}
			for _, x := range c.Zones {
				if zones == nil || zones[x] {
					z[x] = true
				}
			}
			zones = z
		}
		out.Claims = append(out.Claims, c)
	}
	for z := range zones {
		out.Zones = append(out.Zones, z)
	}
	sort.Strings(out.Zones)
	return out
}

func volumeKind(v *api.Volume) string {
	switch {
	case v.ConfigMap != nil:
		return "configMap"
	case v.Secret != nil:
		return "secret"
	case v.EmptyDir != nil:
		return "emptyDir"
	case v.HostPath != nil:
		return "hostPath"
	case v.Projected != nil:
		return "projected"
	case v.DownwardAPI != nil:
		return "downwardAPI"
	}
	return "not simulated"
}

func claimState(st *framework.Storage, ns, volume, name string) ClaimState {
	c := ClaimState{Volume: volume, Claim: name}
	pvc := st.PersistentVolumeClaim(ns, name)
	if pvc == nil {
		c.Missing = true
		c.Note = "no such claim: the pod waits until it exists"
		return c
	}
	c.Phase, c.Class = pvc.Status.Phase, pvc.ClassName()
	for _, m := range pvc.Spec.AccessModes {
		c.AccessModes = append(c.AccessModes, string(m))
	}
	c.Size = pvc.Spec.Resources.Requests[api.ResourceStorage].String()
	class := st.StorageClass(c.Class)
	if class != nil && class.VolumeBindingMode != nil {
		c.BindingMode = string(*class.VolumeBindingMode)
	}
	if pv := st.PersistentVolume(pvc.Spec.VolumeName); pv != nil && pvc.Spec.VolumeName != "" {
		c.PV = pv.Name
		c.Pinned, c.Zones = pinned(pv)
	}
	switch {
	case c.PV != "":
	case pvc.Spec.VolumeName != "":
		c.Note = "names volume " + pvc.Spec.VolumeName + ", which does not exist"
	case c.BindingMode == string(api.VolumeBindingWaitForFirstConsumer):
		c.Note = "WaitForFirstConsumer: bound in PreBind once the scheduler picks a node"
	default:
		c.Note = "Immediate: the PV controller found no volume to bind and cannot provision one"
	}
	return c
}

// pinned words a volume's required node affinity and lists the zones it
// (or its zone label, which VolumeZone reads) allows.
func pinned(pv *api.PersistentVolume) (string, []string) {
	var words []string
	zones := map[string]bool{}
	if na := pv.Spec.NodeAffinity; na != nil && na.Required != nil {
		var terms []string
		for _, t := range na.Required.NodeSelectorTerms {
			var reqs []string
			for _, r := range t.MatchExpressions {
				reqs = append(reqs, r.Key+" "+string(r.Operator)+" "+strings.Join(r.Values, ", "))
				if (r.Key == api.LabelTopologyZone || r.Key == api.LabelFailureDomainZone) && r.Operator == api.NodeSelectorOpIn {
					for _, v := range r.Values {
						zones[v] = true
					}
				}
			}
			terms = append(terms, strings.Join(reqs, " and "))
		}
		words = append(words, strings.Join(terms, ", or "))
	}
	for _, k := range []string{api.LabelTopologyZone, api.LabelFailureDomainZone} {
		if v, ok := pv.Labels[k]; ok {
			words = append(words, "label "+k+"="+v)
			for _, z := range strings.Split(v, "__") {
				zones[z] = true
			}
		}
	}
	out := make([]string, 0, len(zones))
	for z := range zones {
		out = append(out, z)
	}
	sort.Strings(out)
	return strings.Join(words, "; "), out
}
