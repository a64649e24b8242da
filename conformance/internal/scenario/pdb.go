package scenario

import (
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	apipod "k8s.io/kubernetes/pkg/api/v1/pod"
)

// ComputePDBStatus fills pdb.Status the way the disruption controller
// (pkg/controller/disruption, trySync/getExpectedPodCount/countHealthyPods/updatePdbStatus
// in v1.36) would for a cluster holding exactly these pods and no workload controllers:
//
//   - pods = pods of the PDB's namespace matching its selector (any phase, bound or not);
//   - integer minAvailable: expected = len(pods), desired = minAvailable;
//   - maxUnavailable or percentage minAvailable: the expected count comes from the pods'
//     controllers' scale. Pods without a controller ownerReference are skipped ("unmanaged"),
//     and a pod whose controller cannot be found (a scenario holds no ReplicaSet, StatefulSet,
//     ...) makes trySync fail, so failSafe sets disruptionsAllowed = 0. Either way the result
//     for a scenario is 0 disruptions allowed (expected = 0 also forces 0).
//   - healthy = not terminating and Ready (a bound pod without a Ready condition counts as
//     Ready, see markRunning);
//   - disruptionsAllowed = healthy - desired, clamped at 0, and 0 when expected <= 0.
func ComputePDBStatus(pdbs []*policyv1.PodDisruptionBudget, pods []*v1.Pod) {
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
			// getExpectedScale: controlled pods' controllers are absent -> error -> failSafe.
			for _, p := range matching {
				if metav1.GetControllerOf(p) != nil {
					failSafe = true
				}
			}
			expected = 0
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
			for _, p := range matching {
				if metav1.GetControllerOf(p) != nil {
					failSafe = true
				}
			}
			expected = 0
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
