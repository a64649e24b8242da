// Package disruption computes PodDisruptionBudget status the way the
// disruption controller (pkg/controller/disruption in v1.36) does, so the
// scheduler's preemption reads the same DisruptionsAllowed a cluster would.
package disruption

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/labels"
)

// DeletionTimeout is how long a pod in DisruptedPods is expected to take to
// be deleted before the controller stops excusing it (upstream's value).
const DeletionTimeout = 2 * time.Minute

// ScaleLookup finds the controller a pod's controller reference points at
// and returns that controller's identity and desired scale; found is false
// when no such controller exists.
type ScaleLookup func(namespace string, ref *api.OwnerReference) (uid string, scale int32, found bool)

// Options carries what the controller reads besides the PDB and the pods.
type Options struct {
	// Now prunes DisruptedPods entries older than DeletionTimeout; the zero
	// time keeps every entry of a pod that still exists and is not deleting.
	Now time.Time
	// Scale resolves controllers for maxUnavailable and percentage
	// minAvailable; nil means the cluster has no workload controllers.
	Scale ScaleLookup
}

// ComputeStatus returns the status the disruption controller would write for
// pdb in a cluster holding pods (all of them, any namespace, bound or not)
// and no workload controllers.
func ComputeStatus(pdb *api.PodDisruptionBudget, pods []*api.Pod) api.PodDisruptionBudgetStatus {
	return ComputeStatusWith(pdb, pods, Options{})
}

// ComputeStatusWith is ComputeStatus with a clock and controller lookups.
func ComputeStatusWith(pdb *api.PodDisruptionBudget, pods []*api.Pod, opts Options) api.PodDisruptionBudgetStatus {
	matching, err := podsForPDB(pdb, pods)
	if err != nil {
		return failSafe(pdb)
	}
	expected, desired, err := expectedPodCount(pdb, matching, opts.Scale)
	if err != nil {
		// trySync failed: the controller only zeroes DisruptionsAllowed and
		// leaves the rest of the previous status alone.
		return failSafe(pdb)
	}
	disrupted := disruptedPodMap(pdb, matching, opts.Now)
	healthy := countHealthyPods(matching, disrupted, opts.Now)

	// expected must be positive so a PDB that matches nothing yet is safe
	// when its first pods appear.
	allowed := healthy - desired
	if expected <= 0 || allowed <= 0 {
		allowed = 0
	}
	st := api.PodDisruptionBudgetStatus{
		CurrentHealthy:     healthy,
		DesiredHealthy:     desired,
		ExpectedPods:       expected,
		DisruptionsAllowed: allowed,
	}
	if len(disrupted) > 0 {
		st.DisruptedPods = disrupted
	}
	return st
}

func failSafe(pdb *api.PodDisruptionBudget) api.PodDisruptionBudgetStatus {
	st := pdb.Status
	st.DisruptionsAllowed = 0
	return st
}

// podsForPDB lists the PDB's namespace's pods its selector matches. In
// policy/v1 an empty selector matches every pod and a nil one none.
func podsForPDB(pdb *api.PodDisruptionBudget, pods []*api.Pod) ([]*api.Pod, error) {
	sel, err := labels.LabelSelectorAsSelector(pdb.Spec.Selector)
	if err != nil {
		return nil, fmt.Errorf("parsing selector of PodDisruptionBudget %s/%s: %w", pdb.Namespace, pdb.Name, err)
	}
	var out []*api.Pod
	for _, p := range pods {
		if p.Namespace == pdb.Namespace && sel.Matches(p.Labels) {
			out = append(out, p)
		}
	}
	return out, nil
}

// expectedPodCount is upstream's getExpectedPodCount: only an integer
// minAvailable counts the pods themselves; every other form asks the pods'
// controllers for their scale.
func expectedPodCount(pdb *api.PodDisruptionBudget, pods []*api.Pod, lookup ScaleLookup) (expected, desired int32, err error) {
	switch {
	case pdb.Spec.MaxUnavailable != nil:
		if expected, err = expectedScale(pods, lookup); err != nil {
			return 0, 0, err
		}
		maxUnavailable, err := GetScaledValueFromIntOrPercent(pdb.Spec.MaxUnavailable, int(expected), true)
		if err != nil {
			return 0, 0, err
		}
		desired = max(expected-int32(maxUnavailable), 0)
	case pdb.Spec.MinAvailable != nil && !pdb.Spec.MinAvailable.IsString:
		desired = pdb.Spec.MinAvailable.IntVal
		expected = int32(len(pods))
	case pdb.Spec.MinAvailable != nil:
		if expected, err = expectedScale(pods, lookup); err != nil {
			return 0, 0, err
		}
		minAvailable, err := GetScaledValueFromIntOrPercent(pdb.Spec.MinAvailable, int(expected), true)
		if err != nil {
			return 0, 0, err
		}
		desired = int32(minAvailable)
	}
	return expected, desired, nil
}

// expectedScale sums the scale of the distinct controllers of pods. Pods
// without a controller are "unmanaged" and skipped (upstream only records
// an event); a controller that cannot be found fails the sync.
func expectedScale(pods []*api.Pod, lookup ScaleLookup) (int32, error) {
	scales := map[string]int32{}
	seenRef := map[string]bool{}
	for _, p := range pods {
		ref := p.ControllerRef()
		if ref == nil {
			continue
		}
		if seenRef[ref.UID] {
			continue
		}
		var (
			uid   string
			scale int32
			found bool
		)
		if lookup != nil {
			uid, scale, found = lookup(p.Namespace, ref)
		}
		if !found {
			return 0, fmt.Errorf("found no controllers for pod %q", p.Name)
		}
		seenRef[ref.UID] = true
		scales[uid] = scale
	}
	var total int32
	for _, s := range scales {
		total += s
	}
	return total, nil
}

// disruptedPodMap keeps the DisruptedPods entries of pods that still exist,
// are not being deleted and whose deletion is not overdue.
func disruptedPodMap(pdb *api.PodDisruptionBudget, pods []*api.Pod, now time.Time) map[string]time.Time {
	out := map[string]time.Time{}
	if pdb.Status.DisruptedPods == nil {
		return out
	}
	for _, p := range pods {
		if p.DeletionTimestamp != nil {
			continue
		}
		t, ok := pdb.Status.DisruptedPods[p.Name]
		if !ok {
			continue
		}
		if !now.IsZero() && t.Add(DeletionTimeout).Before(now) {
			continue
		}
		out[p.Name] = t
	}
	return out
}

func countHealthyPods(pods []*api.Pod, disrupted map[string]time.Time, now time.Time) int32 {
	var n int32
	for _, p := range pods {
		if p.DeletionTimestamp != nil {
			continue
		}
		// A pod the eviction API just disrupted is expected to go away.
		if t, ok := disrupted[p.Name]; ok && (now.IsZero() || t.Add(DeletionTimeout).After(now)) {
			continue
		}
		if IsPodReady(p) {
			n++
		}
	}
	return n
}

// IsPodReady reports a Ready=True condition. A bound pod that carries no
// Ready condition counts as ready: scenarios describe running pods without
// the kubelet's conditions, and a running pod is Ready (the conformance
// loader adds Ready=True the same way).
func IsPodReady(p *api.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == api.PodReady {
			return c.Status == api.ConditionTrue
		}
	}
	return p.Spec.NodeName != ""
}

// GetScaledValueFromIntOrPercent is apimachinery's intstr helper: an int is
// returned as is, "N%" is scaled by total and rounded up or down.
func GetScaledValueFromIntOrPercent(v *api.IntOrString, total int, roundUp bool) (int, error) {
	if v == nil {
		return 0, errors.New("nil value for IntOrString")
	}
	if !v.IsString {
		return int(v.IntVal), nil
	}
	s, ok := strings.CutSuffix(v.StrVal, "%")
	if !ok {
		return 0, errors.New("invalid value for IntOrString: invalid type: string is not a percentage")
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("invalid value for IntOrString: invalid value %q: %v", v.StrVal, err)
	}
	if roundUp {
		return int(math.Ceil(float64(n) * float64(total) / 100)), nil
	}
	return int(math.Floor(float64(n) * float64(total) / 100)), nil
}
