// Package termination computes how long a deleted pod takes to go away, as
// the API server (graceful delete) and the kubelet (preStop hook, SIGTERM,
// minimum grace, SIGKILL) decide it.
package termination

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/schedplay/schedplay/core/api"
)

// Annotations for durations Kubernetes objects cannot express.
const (
	// AnnotationPreStopSeconds says how long an exec or httpGet preStop hook
	// runs (a sleep hook states its own seconds).
	AnnotationPreStopSeconds = "schedplay.dev/prestop-seconds"
	// AnnotationShutdownSeconds says how long the containers take to exit
	// after SIGTERM. Without it a container runs until its grace period ends,
	// which is what the conformance contract means by the end of a graceful
	// termination.
	AnnotationShutdownSeconds = "schedplay.dev/shutdown-seconds"
)

// DefaultTerminationGracePeriodSeconds is the API default.
const DefaultTerminationGracePeriodSeconds = 30

// MinimumGracePeriodSeconds is the kubelet's minimum shutdown window after
// the preStop hook (minimumGracePeriodInSeconds).
const MinimumGracePeriodSeconds = 2

// GracePeriod is the API server's graceful-delete period: the delete's own
// gracePeriodSeconds, else spec.terminationGracePeriodSeconds (default 30);
// 0 for a pod not bound to a node or already finished; negative becomes 1.
func GracePeriod(pod *api.Pod, requested *int64) int64 {
	if pod.Spec.NodeName == "" || pod.Status.Phase == api.PodSucceeded || pod.Status.Phase == api.PodFailed {
		return 0
	}
	g := int64(DefaultTerminationGracePeriodSeconds)
	if pod.Spec.TerminationGracePeriodSeconds != nil {
		g = *pod.Spec.TerminationGracePeriodSeconds
	}
	if requested != nil {
		g = *requested
	}
	if g < 0 {
		g = 1
	}
	return g
}

// Plan is how a deletion plays out, as offsets from the DELETE.
type Plan struct {
	// GracePeriod is the period the kubelet honours (seconds).
	GracePeriod int64
	// PreStop is how long the longest preStop hook runs (0 without hooks).
	PreStop time.Duration
	// Sigterm is when the containers get SIGTERM (after their preStop hooks).
	Sigterm time.Duration
	// End is when the last container is gone and the pod object is deleted.
	End time.Duration
	// Killed reports that a container was still running at its deadline and got SIGKILL.
	Killed bool
}

// KubeletPlan plays a deletion with grace seconds. override, when set, is
// an eviction's grace period: it replaces the whole period (at least 1 s, as
// the pod workers' calculateEffectiveGracePeriod), hook included. Containers stop in
// parallel; each runs its preStop hook for at most the grace period, then
// gets SIGTERM with what is left of the period, but never less than the
// kubelet's 2 s minimum; a container still running then is killed.
func KubeletPlan(pod *api.Pod, grace int64, override *int64) Plan {
	if override != nil {
		grace = max(*override, 1)
	}
	plan := Plan{GracePeriod: grace}
	if grace == 0 {
		return plan // removed at once
	}
	shutdown, hasShutdown := seconds(pod, AnnotationShutdownSeconds)
	for _, c := range pod.Spec.Containers {
		hook := preStopDuration(pod, &c)
		elapsed := time.Duration(0)
		if hook > 0 && grace > 0 {
			// The hook is cut off at the grace period; the kubelet counts whole seconds.
			elapsed = min(hook, Seconds(grace)).Truncate(time.Second)
		}
		remaining := Seconds(grace) - elapsed
		if remaining < MinimumGracePeriodSeconds*time.Second {
			remaining = MinimumGracePeriodSeconds * time.Second
		}
		end := elapsed + remaining
		if end < elapsed {
			end = math.MaxInt64 // saturated: both near the most a Duration holds
		}
		killed := false
		if hasShutdown {
			if shutdown < remaining {
				end = elapsed + shutdown
			} else {
				killed = true
			}
		}
		if elapsed > plan.PreStop {
			plan.PreStop = elapsed
		}
		if elapsed > plan.Sigterm {
			plan.Sigterm = elapsed
		}
		if end > plan.End {
			plan.End = end
			plan.Killed = killed
		} else if end == plan.End && killed {
			plan.Killed = true
		}
	}
	return plan
}

func preStopDuration(pod *api.Pod, c *api.Container) time.Duration {
	if c.Lifecycle == nil || c.Lifecycle.PreStop == nil {
		return 0
	}
	h := c.Lifecycle.PreStop
	if h.Sleep != nil {
		return Seconds(h.Sleep.Seconds)
	}
	if d, ok := seconds(pod, AnnotationPreStopSeconds); ok {
		return d
	}
	return 0 // an exec/httpGet hook that says nothing about its length returns at once
}

func seconds(pod *api.Pod, key string) (time.Duration, bool) {
	v, ok := pod.Annotations[key]
	if !ok {
		return 0, false
	}
	d, err := ParseSeconds(v)
	if err != nil {
		return 0, false // the loader rejects such values with a positioned error
	}
	return d, true
}

// Seconds converts whole seconds to a Duration, saturating where a
// Duration (about 292 years) cannot hold them: a grace period of 10^10 s
// must stay longer than any other, not wrap into a short or negative one.
func Seconds(s int64) time.Duration {
	switch {
	case s > math.MaxInt64/int64(time.Second):
		return math.MaxInt64
	case s < math.MinInt64/int64(time.Second):
		return math.MinInt64
	}
	return time.Duration(s) * time.Second
}

// ParseSeconds reads a duration annotation: a number of seconds, 0 or
// more (fractions allowed), saturating past what a Duration holds.
func ParseSeconds(v string) (time.Duration, error) {
	f, err := strconv.ParseFloat(v, 64)
	switch {
	case err != nil, math.IsNaN(f), math.IsInf(f, 0):
		return 0, fmt.Errorf("%q is not a finite number of seconds", v)
	case f < 0:
		return 0, fmt.Errorf("%q is negative", v)
	case f >= math.MaxInt64/float64(time.Second):
		return math.MaxInt64, nil
	}
	return time.Duration(f * float64(time.Second)), nil
}
