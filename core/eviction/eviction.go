// Package eviction is the kubelet's node-pressure eviction (v1.36
// pkg/kubelet/eviction): which pod goes first when a node runs low on
// memory or ephemeral storage, with what grace period, and the
// DisruptionTarget condition it carries.
package eviction

import (
	"fmt"
	"sort"

	"github.com/schedplay/schedplay/core/api"
)

// immediateEvictionGracePeriodSeconds is the grace period of an eviction
// for a hard threshold (the kubelet's constant is 1, not 0).
const immediateEvictionGracePeriodSeconds = 1

// DefaultMaxPodGracePeriodSeconds is evictionMaxPodGracePeriod's kubelet default.
const DefaultMaxPodGracePeriodSeconds = 0

// Reason is the pod status reason of an evicted pod.
const Reason = "Evicted"

// Stats are pods' usage of the resource under pressure, by "namespace/name".
// A pod missing here has no stats.
type Stats map[string]int64

func request(p *api.Pod, res api.ResourceName) int64 {
	return api.PodRequests(p, api.PodRequestsOptions{})[res]
}

// Rank orders pods for eviction as rankMemoryPressure and
// rankDiskPressureFunc do: pods whose usage exceeds their request first,
// then lower priority first, then larger usage above the request first. A
// pod without stats goes before one with stats at every step. Upstream's
// sort is not stable; ties keep the input order here.
func Rank(pods []*api.Pod, stats Stats, res api.ResourceName) []*api.Pod {
	out := append([]*api.Pod(nil), pods...)
	sort.SliceStable(out, func(i, j int) bool { return Compare(out[i], out[j], stats, res) < 0 })
	return out
}

// Compare is the kubelet's multi-key order: negative when a is evicted before b.
func Compare(a, b *api.Pod, stats Stats, res api.ResourceName) int {
	ua, okA := stats[a.Key()]
	ub, okB := stats[b.Key()]
	if !okA || !okB {
		return cmpBool(!okA, !okB)
	}
	ra, rb := request(a, res), request(b, res)
	if c := cmpBool(ua > ra, ub > rb); c != 0 {
		return c
	}
	if pa, pb := a.PriorityValue(), b.PriorityValue(); pa != pb {
		if pa < pb {
			return -1
		}
		return 1
	}
	switch da, db := ua-ra, ub-rb; {
	case da > db:
		return -1
	case da < db:
		return 1
	}
	return 0
}

// cmpBool places true before false.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return -1
	}
	return 1
}

// Why says in words why a pod ranks where it does.
func Why(p *api.Pod, stats Stats, res api.ResourceName) string {
	u, ok := stats[p.Key()]
	if !ok {
		return "no usage figures (the kubelet evicts pods without stats first)"
	}
	r := request(p, res)
	over := "within"
	if u > r {
		over = "above"
	}
	return fmt.Sprintf("%s usage %d is %s its request %d (by %d), priority %d", res, u, over, r, u-r, p.PriorityValue())
}

// GracePeriodOverride is the grace period the kubelet kills an evicted pod
// with: 1 s for a hard threshold; for a soft one evictionMaxPodGracePeriod,
// lowered to the pod's terminationGracePeriodSeconds when that is shorter.
func GracePeriodOverride(p *api.Pod, hard bool, maxPodGrace int64) int64 {
	if hard {
		return immediateEvictionGracePeriodSeconds
	}
	g := maxPodGrace
	if p.Spec.TerminationGracePeriodSeconds != nil {
		g = min(g, *p.Spec.TerminationGracePeriodSeconds)
	}
	return g
}

// Message is the kubelet's eviction message (nodeLowMessageFmt).
func Message(res api.ResourceName) string {
	return fmt.Sprintf("The node was low on resource: %v. ", res)
}

// Condition is the DisruptionTarget condition an evicted pod gets.
func Condition(res api.ResourceName) api.PodCondition {
	return api.PodCondition{Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: api.PodReasonTerminationByKubelet, Message: Message(res)}
}

// PressureTaint is the taint the node lifecycle controller puts on a node
// under the pressure (TaintNodesByCondition).
func PressureTaint(res api.ResourceName) api.Taint {
	key := "node.kubernetes.io/memory-pressure"
	if res == api.ResourceEphemeralStorage {
		key = "node.kubernetes.io/disk-pressure"
	}
	return api.Taint{Key: key, Effect: api.TaintEffectNoSchedule}
}
