package scenario

import (
	"slices"

	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	apipod "k8s.io/kubernetes/pkg/api/v1/pod"
	"k8s.io/utils/ptr"
)

// ScaleLookup finds the controller a pod's controller reference names and its scale, as
// the disruption controller's finders do; found is false when no finder knows it.
type ScaleLookup func(namespace string, ref *metav1.OwnerReference) (uid types.UID, scale int32, found bool)

// ScaleLookup is a transcription of the disruption controller's finders (v1.36
// getPodReplicationController, getPodDeployment, getPodReplicaSet, getPodStatefulSet) over
// the scenario's workloads: a ReplicaSet controlled by a Deployment counts as that
// Deployment. The last finder, getScaleController (the scale subresource of any other
// kind), has no counterpart: a pod controlled by anything else is "not found" (in a
// cluster its kind would need a scale subresource).
func (sc *Scenario) ScaleLookup() ScaleLookup {
	return func(ns string, ref *metav1.OwnerReference) (types.UID, int32, bool) {
		switch {
		case groupKind(ref, "ReplicationController", ""):
			for _, rc := range sc.ReplicationControllers {
				if rc.Namespace == ns && rc.Name == ref.Name && rc.UID == ref.UID {
					return rc.UID, ptr.Deref(rc.Spec.Replicas, 1), true
				}
			}
		case groupKind(ref, "ReplicaSet", "apps", "extensions"):
			for _, rs := range sc.ReplicaSets {
				if rs.Namespace != ns || rs.Name != ref.Name || rs.UID != ref.UID {
					continue
				}
				owner := metav1.GetControllerOf(rs)
				if owner == nil || owner.Kind != "Deployment" {
					return rs.UID, ptr.Deref(rs.Spec.Replicas, 1), true
				}
				if !groupKind(owner, "Deployment", "apps", "extensions") {
					return "", 0, false
				}
				for _, d := range sc.Deployments {
					if d.Namespace == ns && d.Name == owner.Name && d.UID == owner.UID {
						return d.UID, ptr.Deref(d.Spec.Replicas, 1), true
					}
				}
			}
		case groupKind(ref, "StatefulSet", "apps"):
			for _, ss := range sc.StatefulSets {
				if ss.Namespace == ns && ss.Name == ref.Name && ss.UID == ref.UID {
					return ss.UID, ptr.Deref(ss.Spec.Replicas, 1), true
				}
			}
		}
		return "", 0, false
	}
}

// groupKind is the disruption controller's verifyGroupKind.
func groupKind(ref *metav1.OwnerReference, kind string, groups ...string) bool {
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil || ref.Kind != kind {
		return false
	}
	return slices.Contains(groups, gv.Group)
}

// expectedScale is getExpectedScale: the sum of the scales of the pods' distinct
// controllers; pods without a controller are skipped ("unmanaged"), a controller no
// finder knows fails the sync.
func expectedScale(pods []*v1.Pod, lookup ScaleLookup) (int32, bool) {
	scales := map[types.UID]int32{}
	seen := map[types.UID]bool{}
	for _, p := range pods {
		ref := metav1.GetControllerOf(p)
		if ref == nil || seen[ref.UID] {
			continue
		}
		uid, scale, found := lookup(p.Namespace, ref)
		if !found {
			return 0, false
		}
		seen[ref.UID] = true
		scales[uid] = scale
	}
	var total int32
	for _, s := range scales {
		total += s
	}
	return total, true
}

// ComputePDBStatus fills pdb.Status the way the disruption controller
// (pkg/controller/disruption, trySync/getExpectedPodCount/countHealthyPods/updatePdbStatus
// in v1.36) would for a cluster holding exactly these pods and workloads:
//
//   - pods = pods of the PDB's namespace matching its selector (any phase, bound or not);
//   - integer minAvailable: expected = len(pods), desired = minAvailable;
//   - maxUnavailable or percentage minAvailable: expected = the sum of the scales of the
//     pods' controllers (lookup); a controller that cannot be found makes trySync fail,
//     and failSafe sets disruptionsAllowed = 0;
//   - healthy = not terminating and Ready (a bound pod without a Ready condition counts as
//     Ready, see markRunning);
//   - disruptionsAllowed = healthy - desired, clamped at 0, and 0 when expected <= 0.
func ComputePDBStatus(pdbs []*policyv1.PodDisruptionBudget, pods []*v1.Pod, lookup ScaleLookup) {
	for _, pdb := range pdbs {
		sel, err := metav1.LabelSelectorAsSelector(pdb.Spec.Selector)
		var matching []*v1.Pod
		if err == nil {
			for _, p := range pods {
				if p.Namespace == pdb.Namespace && sel.Matches(labels.Set(p.Labels)) {
					matching = append(matching, p)
				}
			}
		}
		var expected, desired, healthy int32
		failSafe := err != nil
		switch {
		case pdb.Spec.MaxUnavailable != nil:
			var ok bool
			expected, ok = expectedScale(matching, lookup)
			failSafe = failSafe || !ok
			mu, e := intstr.GetScaledValueFromIntOrPercent(pdb.Spec.MaxUnavailable, int(expected), true)
			if e != nil {
				failSafe = true
			}
			desired = expected - int32(mu)
			if desired < 0 {
				desired = 0
			}
		case pdb.Spec.MinAvailable != nil && pdb.Spec.MinAvailable.Type == intstr.Int:
			desired = pdb.Spec.MinAvailable.IntVal
			expected = int32(len(matching))
		case pdb.Spec.MinAvailable != nil:
			var ok bool
			expected, ok = expectedScale(matching, lookup)
			failSafe = failSafe || !ok
			ma, e := intstr.GetScaledValueFromIntOrPercent(pdb.Spec.MinAvailable, int(expected), true)
			if e != nil {
				failSafe = true
			}
			desired = int32(ma)
		}
		for _, p := range matching {
			if p.DeletionTimestamp != nil {
				continue
			}
			if apipod.IsPodReady(p) {
				healthy++
			}
		}
		allowed := healthy - desired
		if expected <= 0 || allowed <= 0 {
			allowed = 0
		}
		if failSafe {
			allowed = 0
		}
		pdb.Status = policyv1.PodDisruptionBudgetStatus{
			CurrentHealthy:     healthy,
			DesiredHealthy:     desired,
			ExpectedPods:       expected,
			DisruptionsAllowed: allowed,
			ObservedGeneration: pdb.Generation,
		}
	}
}
