package api

import "math"

// PodRequestsOptions mirror k8s.io/component-helpers/resource.PodResourcesOptions.
type PodRequestsOptions struct {
	// ExcludeOverhead leaves spec.overhead out.
	ExcludeOverhead bool
	// SkipPodLevelResources ignores spec.resources (the PodLevelResources gate off).
	SkipPodLevelResources bool
	// NonMissingContainerRequests replaces a container's request for these
	// resources when it is absent (not when it is explicitly zero).
	NonMissingContainerRequests ResourceList
}

// Requests are plain integers: cpu in millicores, everything else in units.
type Requests map[ResourceName]int64

// amount is a non-negative quantity held exactly: whole units plus nano
// billionths. Pod requests are summed and compared exactly and rounded up
// once at the end, as upstream sums resource.Quantity values.
type amount struct{ whole, nano int64 }

func amountOf(q Quantity) amount { return amount{q.whole, q.nano} }

func (a amount) plus(b amount) amount {
	out := amount{whole: a.whole + b.whole, nano: a.nano + b.nano}
	if (b.whole > 0 && out.whole < a.whole) || (b.whole < 0 && out.whole > a.whole) {
		out.whole = math.MaxInt64 // saturate rather than wrap
		if b.whole < 0 {
			out.whole = math.MinInt64
		}
	}
	if out.nano >= 1e9 {
		out.whole++
		out.nano -= 1e9
	}
	return out
}

func (a amount) less(b amount) bool {
	return a.whole < b.whole || a.whole == b.whole && a.nano < b.nano
}

// rounded is Value() for most resources and MilliValue() for cpu.
func (a amount) rounded(name ResourceName) int64 {
	if name == ResourceCPU {
		return satMulAdd(a.whole, 1000, (a.nano+999_999)/1_000_000)
	}
	if a.nano > 0 && a.whole < math.MaxInt64 {
		return a.whole + 1
	}
	return a.whole
}

func satMulAdd(v, f, add int64) int64 {
	m := satMul(v, f)
	if m > math.MaxInt64-add {
		return math.MaxInt64
	}
	return m + add
}

type exactList map[ResourceName]amount

func (l exactList) addList(rl ResourceList) {
	for n, q := range rl {
		l[n] = l[n].plus(amountOf(q))
	}
}

func (l exactList) addAll(o exactList) {
	for n, a := range o {
		l[n] = l[n].plus(a)
	}
}

func (l exactList) maxWith(o exactList) {
	for n, a := range o {
		if cur, ok := l[n]; !ok || cur.less(a) {
			l[n] = a
		}
	}
}

func containerRequests(c *Container, opts PodRequestsOptions) exactList {
	out := exactList{}
	out.addList(c.Resources.Requests)
	for n, q := range opts.NonMissingContainerRequests {
		if _, ok := c.Resources.Requests[n]; !ok {
			out[n] = amountOf(q)
		}
	}
	return out
}

// IsSupportedPodLevelResource reports the resources spec.resources may set.
func IsSupportedPodLevelResource(n ResourceName) bool {
	return n == ResourceCPU || n == ResourceMemory || len(n) >= len("hugepages-") && n[:len("hugepages-")] == "hugepages-"
}

// IsPodLevelRequestsSet reports whether spec.resources.requests names at
// least one supported resource; only then do pod-level requests count.
func IsPodLevelRequestsSet(pod *Pod) bool {
	if pod.Spec.Resources == nil {
		return false
	}
	for n := range pod.Spec.Resources.Requests {
		if IsSupportedPodLevelResource(n) {
			return true
		}
	}
	return false
}

// PodRequests computes a pod's effective requests as the kubelet and the
// scheduler do: the sum of app containers and restartable (sidecar) init
// containers, at least the largest init container phase, pod-level requests
// where set, plus overhead.
func PodRequests(pod *Pod, opts PodRequestsOptions) Requests {
	if out, ok := singleContainerRequests(pod, opts); ok {
		return out
	}
	return podRequests(pod, opts)
}

// singleContainerRequests is PodRequests for the common pod shape, one app
// container and nothing else that counts (no init containers, no pod-level
// requests, no overhead): its requests, with the non-missing stand-ins,
// rounded. The scheduler computes requests several times per cycle, and
// the general path builds several maps.
func singleContainerRequests(pod *Pod, opts PodRequestsOptions) (Requests, bool) {
	if !singleContainerShape(pod, opts) {
		return nil, false
	}
	c := &pod.Spec.Containers[0]
	out := make(Requests, len(c.Resources.Requests)+len(opts.NonMissingContainerRequests))
	for n, q := range c.Resources.Requests {
		out[n] = amount{}.plus(amountOf(q)).rounded(n)
	}
	for n, q := range opts.NonMissingContainerRequests {
		if _, ok := c.Resources.Requests[n]; !ok {
			out[n] = amountOf(q).rounded(n)
		}
	}
	return out, true
}

// VisitPodRequests calls f once for each resource PodRequests would
// return, with the same figure, in no particular order. For the common
// shape (one app container, as singleContainerRequests) it builds no map.
func VisitPodRequests(pod *Pod, opts PodRequestsOptions, f func(ResourceName, int64)) {
	if !singleContainerShape(pod, opts) {
		for n, v := range podRequests(pod, opts) {
			f(n, v)
		}
		return
	}
	c := &pod.Spec.Containers[0]
	for n, q := range c.Resources.Requests {
		f(n, amount{}.plus(amountOf(q)).rounded(n))
	}
	for n, q := range opts.NonMissingContainerRequests {
		if _, ok := c.Resources.Requests[n]; !ok {
			f(n, amountOf(q).rounded(n))
		}
	}
}

func singleContainerShape(pod *Pod, opts PodRequestsOptions) bool {
	return len(pod.Spec.Containers) == 1 && len(pod.Spec.InitContainers) == 0 &&
		(opts.ExcludeOverhead || len(pod.Spec.Overhead) == 0) &&
		(opts.SkipPodLevelResources || !IsPodLevelRequestsSet(pod))
}

// podRequests is PodRequests for any pod.
func podRequests(pod *Pod, opts PodRequestsOptions) Requests {
	reqs := exactList{}
	for i := range pod.Spec.Containers {
		reqs.addAll(containerRequests(&pod.Spec.Containers[i], opts))
	}
	restartable := exactList{}
	initPhase := exactList{}
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		cr := containerRequests(c, opts)
		if c.RestartPolicy != nil && *c.RestartPolicy == ContainerRestartPolicyAlways {
			// A sidecar keeps running beside the app containers and every later init container.
			reqs.addAll(cr)
			restartable.addAll(cr)
			cr = exactList{}
			cr.addAll(restartable)
		} else {
			cr.addAll(restartable)
		}
		initPhase.maxWith(cr)
	}
	reqs.maxWith(initPhase)
	if !opts.SkipPodLevelResources && IsPodLevelRequestsSet(pod) {
		for n, q := range pod.Spec.Resources.Requests {
			if IsSupportedPodLevelResource(n) {
				reqs[n] = amountOf(q)
			}
		}
	}
	if !opts.ExcludeOverhead {
		reqs.addList(pod.Spec.Overhead)
	}
	out := make(Requests, len(reqs))
	for n, a := range reqs {
		out[n] = a.rounded(n)
	}
	return out
}

// ContainersRequestCPUAndMemory reports whether every app and init
// container names both a cpu and a memory request (a zero counts). For
// such a pod NonMissingContainerRequests for cpu and memory change
// nothing, since they only fill requests a container lacks.
func ContainersRequestCPUAndMemory(pod *Pod) bool {
	for _, cs := range [2][]Container{pod.Spec.Containers, pod.Spec.InitContainers} {
		for i := range cs {
			r := cs[i].Resources.Requests
			if _, ok := r[ResourceCPU]; !ok {
				return false
			}
			if _, ok := r[ResourceMemory]; !ok {
				return false
			}
		}
	}
	return true
}
