package volumebinding

import (
	"fmt"
	"sort"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/labels"
)

// PodVolumes are the binding decisions for one node (upstream PodVolumes).
type PodVolumes struct {
	// StaticBindings pair delayed claims with available volumes.
	StaticBindings []framework.StaticBinding
	// DynamicProvisions are delayed claims a provisioner will serve.
	DynamicProvisions []*api.PersistentVolumeClaim
}

// PodVolumeClaims is upstream's split of a pod's claims.
type PodVolumeClaims struct {
	boundClaims               []*api.PersistentVolumeClaim
	unboundClaimsDelayBinding []*api.PersistentVolumeClaim
	unboundClaimsImmediate    []*api.PersistentVolumeClaim
	// unboundVolumesDelayBinding lists, per class of a delayed claim, the
	// volumes of that class.
	unboundVolumesDelayBinding map[string][]*api.PersistentVolume
}

// IsFullyBound is upstream's isPVCFullyBound: the PV controller finished
// binding the claim.
func IsFullyBound(pvc *api.PersistentVolumeClaim) bool {
	_, done := pvc.Annotations[api.AnnBindCompleted]
	return pvc.Spec.VolumeName != "" && done
}

// arePodVolumesBound reports whether every claim of the pod is fully bound.
func arePodVolumesBound(st framework.StorageLister, pod *api.Pod) bool {
	for i := range pod.Spec.Volumes {
		src := pod.Spec.Volumes[i].PersistentVolumeClaim
		if src == nil {
			continue
		}
		pvc := st.PersistentVolumeClaim(pod.Namespace, src.ClaimName)
		if pvc == nil || !IsFullyBound(pvc) {
			return false
		}
	}
	return true
}

// IsDelayBindingMode is upstream's: the claim's class exists and waits
// for the first consumer. A missing class means immediate binding.
func IsDelayBindingMode(st framework.StorageLister, pvc *api.PersistentVolumeClaim) (bool, error) {
	name := pvc.ClassName()
	if name == "" {
		return false, nil
	}
	class := st.StorageClass(name)
	if class == nil {
		return false, nil
	}
	if class.VolumeBindingMode == nil {
		return false, fmt.Errorf("VolumeBindingMode not set for StorageClass %q", name)
	}
	return *class.VolumeBindingMode == api.VolumeBindingWaitForFirstConsumer, nil
}

// getPodVolumeClaims is upstream's GetPodVolumeClaims.
func getPodVolumeClaims(st framework.StorageLister, pod *api.Pod) (*PodVolumeClaims, error) {
	c := &PodVolumeClaims{}
	for i := range pod.Spec.Volumes {
		src := pod.Spec.Volumes[i].PersistentVolumeClaim
		if src == nil {
			continue
		}
		pvc := st.PersistentVolumeClaim(pod.Namespace, src.ClaimName)
		if pvc == nil {
			return c, fmt.Errorf("error getting PVC %q: %v", pod.Namespace+"/"+src.ClaimName, NotFound(src.ClaimName))
		}
		if IsFullyBound(pvc) {
			c.boundClaims = append(c.boundClaims, pvc)
			continue
		}
		delay, err := IsDelayBindingMode(st, pvc)
		if err != nil {
			return c, err
		}
		// A prebound claim (volumeName set) counts as immediate.
		if delay && pvc.Spec.VolumeName == "" {
			c.unboundClaimsDelayBinding = append(c.unboundClaimsDelayBinding, pvc)
		} else {
			c.unboundClaimsImmediate = append(c.unboundClaimsImmediate, pvc)
		}
	}
	c.unboundVolumesDelayBinding = map[string][]*api.PersistentVolume{}
	for _, pvc := range c.unboundClaimsDelayBinding {
		class := pvc.ClassName()
		if _, done := c.unboundVolumesDelayBinding[class]; done {
			continue
		}
		var pvs []*api.PersistentVolume
		for _, pv := range st.PersistentVolumes() {
			if pv.Spec.StorageClassName == class {
				pvs = append(pvs, pv)
			}
		}
		c.unboundVolumesDelayBinding[class] = pvs
	}
	return c, nil
}

// findPodVolumes is upstream's FindPodVolumes: the reasons the node does
// not suit the pod's claims, or what would bind them there.
func findPodVolumes(st framework.StorageLister, claims *PodVolumeClaims, node *api.Node) (*PodVolumes, []string, error) {
	pv := &PodVolumes{}
	boundSatisfied, boundPVsFound := true, true
	unboundSatisfied, sufficientStorage := true, true
	reasons := func() []string {
		var r []string
		if !boundSatisfied {
			r = append(r, ErrReasonNodeConflict)
		}
		if !unboundSatisfied {
			r = append(r, ErrReasonBindConflict)
		}
		if !sufficientStorage {
			r = append(r, ErrReasonNotEnoughSpace)
		}
		if !boundPVsFound {
			r = append(r, ErrReasonPVNotExist)
		}
		return r
	}
	if len(claims.boundClaims) > 0 {
		boundSatisfied, boundPVsFound = checkBoundClaims(st, claims.boundClaims, node)
	}
	if len(claims.unboundClaimsDelayBinding) > 0 {
		var toMatch, toProvision []*api.PersistentVolumeClaim
		for _, c := range claims.unboundClaimsDelayBinding {
			if selected, ok := c.Annotations[api.AnnSelectedNode]; ok {
				if selected != node.Name {
					unboundSatisfied = false // fast path: another node was chosen
					return pv, reasons(), nil
				}
				toProvision = append(toProvision, c)
			} else {
				toMatch = append(toMatch, c)
			}
		}
		if len(toMatch) > 0 {
			var unbound []*api.PersistentVolumeClaim
			var err error
			unboundSatisfied, pv.StaticBindings, unbound, err = findMatchingVolumes(toMatch, claims.unboundVolumesDelayBinding, node)
			if err != nil {
				return nil, nil, err
			}
			toProvision = append(toProvision, unbound...)
		}
		if len(toProvision) > 0 {
			var err error
			unboundSatisfied, sufficientStorage, pv.DynamicProvisions, err = checkVolumeProvisions(st, toProvision, node)
			if err != nil {
				return nil, nil, err
			}
		}
	}
	return pv, reasons(), nil
}

// checkBoundClaims: each bound claim's volume exists and its node
// affinity admits the node (returns satisfied, PVs found).
func checkBoundClaims(st framework.StorageLister, claims []*api.PersistentVolumeClaim, node *api.Node) (bool, bool) {
	for _, pvc := range claims {
		pv := st.PersistentVolume(pvc.Spec.VolumeName)
		if pv == nil {
			return true, false
		}
		if !CheckNodeAffinity(pv, node.Labels) {
			return false, true
		}
	}
	return true, true
}

// CheckNodeAffinity is upstream's: the volume's required node affinity
// matches a node with these labels (a node of labels only, as upstream
// builds it: matchFields never match).
func CheckNodeAffinity(pv *api.PersistentVolume, nodeLabels map[string]string) bool {
	if pv.Spec.NodeAffinity == nil || pv.Spec.NodeAffinity.Required == nil {
		return true
	}
	return labels.NewNodeSelector(pv.Spec.NodeAffinity.Required).Match(&api.Node{ObjectMeta: api.ObjectMeta{Labels: nodeLabels}})
}

// findMatchingVolumes picks the smallest fitting volume per claim, claims
// in increasing size (upstream findMatchingVolumes).
func findMatchingVolumes(claims []*api.PersistentVolumeClaim, byClass map[string][]*api.PersistentVolume, node *api.Node) (bool, []framework.StaticBinding, []*api.PersistentVolumeClaim, error) {
	sorted := append([]*api.PersistentVolumeClaim(nil), claims...)
	sort.SliceStable(sorted, func(i, j int) bool { return storageRequest(sorted[i]) < storageRequest(sorted[j]) })
	chosen := map[string]bool{}
	found := true
	var bindings []framework.StaticBinding
	var unbound []*api.PersistentVolumeClaim
	for _, pvc := range sorted {
		pv, err := FindMatchingVolume(pvc, byClass[pvc.ClassName()], node, chosen)
		if err != nil {
			return false, nil, nil, err
		}
		if pv == nil {
			unbound = append(unbound, pvc)
			found = false
			continue
		}
		chosen[pv.Name] = true
		bindings = append(bindings, framework.StaticBinding{PV: pv, PVC: pvc})
	}
	return found, bindings, unbound, nil
}

func storageRequest(pvc *api.PersistentVolumeClaim) int64 {
	return pvc.Spec.Resources.Requests[api.ResourceStorage].Value()
}

// FindMatchingVolume is component-helpers' FindMatchingVolume: a volume
// prebound to the claim, else the smallest available one of the claim's
// class, size, mode, selector, access modes and (with a node) node
// affinity. With node nil it is the PV controller's search, which leaves
// delayed claims to the scheduler unless delayBinding is false.
func FindMatchingVolume(pvc *api.PersistentVolumeClaim, volumes []*api.PersistentVolume, node *api.Node, excluded map[string]bool) (*api.PersistentVolume, error) {
	var smallest *api.PersistentVolume
	var smallestQty int64
	requested := storageRequest(pvc)
	class := pvc.ClassName()
	var selector labels.Selector
	if pvc.Spec.Selector != nil {
		s, err := labels.LabelSelectorAsSelector(pvc.Spec.Selector)
		if err != nil {
			return nil, fmt.Errorf("error creating internal label selector for claim: %v: %v", pvc.Key(), err)
		}
		selector = s
	}
	for _, v := range volumes {
		if excluded[v.Name] {
			continue
		}
		if v.Spec.ClaimRef != nil && !v.BoundTo(pvc) {
			continue
		}
		qty := v.Spec.Capacity[api.ResourceStorage].Value()
		if qty < requested {
			continue
		}
		if api.ModeOf(pvc.Spec.VolumeMode) != api.ModeOf(v.Spec.VolumeMode) {
			continue
		}
		if v.DeletionTimestamp != nil {
			continue
		}
		affinityOK := node == nil || CheckNodeAffinity(v, node.Labels)
		if v.BoundTo(pvc) {
			if !affinityOK {
				return nil, nil
			}
			return v, nil
		}
		if v.Status.Phase != api.VolumeAvailable {
			continue
		}
		if selector != nil && !selector.Matches(v.Labels) {
			continue
		}
		if v.Spec.StorageClassName != class || !affinityOK {
			continue
		}
		if node != nil && !v.OffersAccessModes(pvc) {
			continue
		}
		if smallest == nil || smallestQty > qty {
			smallest, smallestQty = v, qty
		}
	}
	return smallest, nil
}

// checkVolumeProvisions is upstream's: every claim's class has a
// provisioner whose allowed topologies admit the node. CSIStorageCapacity
// is not simulated, so storage is always sufficient.
func checkVolumeProvisions(st framework.StorageLister, claims []*api.PersistentVolumeClaim, node *api.Node) (bool, bool, []*api.PersistentVolumeClaim, error) {
	var out []*api.PersistentVolumeClaim
	for _, c := range claims {
		name := c.ClassName()
		if name == "" {
			return false, false, nil, fmt.Errorf("no class for claim %q", c.Key())
		}
		class := st.StorageClass(name)
		if class == nil {
			return false, false, nil, fmt.Errorf("failed to find storage class %q", name)
		}
		if class.Provisioner == "" || class.Provisioner == api.NotSupportedProvisioner {
			return false, true, nil, nil
		}
		if !MatchTopologySelectorTerms(class.AllowedTopologies, node.Labels) {
			return false, true, nil, nil
		}
		out = append(out, c)
	}
	return true, true, out, nil
}

// MatchTopologySelectorTerms is upstream's v1helper function: no terms
// match everything; otherwise some term must have every key's label among
// its values.
func MatchTopologySelectorTerms(terms []api.TopologySelectorTerm, lbls map[string]string) bool {
	if len(terms) == 0 {
		return true
	}
	for _, t := range terms {
		if len(t.MatchLabelExpressions) == 0 {
			continue
		}
		ok := true
		for _, e := range t.MatchLabelExpressions {
			v, has := lbls[e.Key]
			in := false
			for _, want := range e.Values {
				in = in || has && v == want
			}
			if !in {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}
