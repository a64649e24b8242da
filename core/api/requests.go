package api

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

func quantityAmount(name ResourceName, q Quantity) int64 {
	if name == ResourceCPU {
		return q.MilliValue()
	}
	return q.Value()
}

func (r Requests) add(name ResourceName, v int64) { r[name] += v }

func (r Requests) addList(rl ResourceList) {
	for n, q := range rl {
		r.add(n, quantityAmount(n, q))
	}
}

func (r Requests) addRequests(o Requests) {
	for n, v := range o {
		r[n] += v
	}
}

func (r Requests) maxWith(o Requests) {
	for n, v := range o {
		if cur, ok := r[n]; !ok || v > cur {
			r[n] = v
		}
	}
}

func containerRequests(c *Container, opts PodRequestsOptions) Requests {
	out := Requests{}
	out.addList(c.Resources.Requests)
	for n, q := range opts.NonMissingContainerRequests {
		if _, ok := c.Resources.Requests[n]; !ok {
			out[n] = quantityAmount(n, q)
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
	reqs := Requests{}
	for i := range pod.Spec.Containers {
		reqs.addRequests(containerRequests(&pod.Spec.Containers[i], opts))
	}
	restartable := Requests{}
	initPhase := Requests{}
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		cr := containerRequests(c, opts)
		if c.RestartPolicy != nil && *c.RestartPolicy == ContainerRestartPolicyAlways {
			// A sidecar keeps running beside the app containers and every later init container.
			reqs.addRequests(cr)
			restartable.addRequests(cr)
			cr = Requests{}
			cr.addRequests(restartable)
		} else {
			tmp := Requests{}
			tmp.addRequests(cr)
			tmp.addRequests(restartable)
			cr = tmp
		}
		initPhase.maxWith(cr)
	}
	reqs.maxWith(initPhase)
	if !opts.SkipPodLevelResources && IsPodLevelRequestsSet(pod) {
		for n, q := range pod.Spec.Resources.Requests {
			if IsSupportedPodLevelResource(n) {
				reqs[n] = quantityAmount(n, q)
			}
		}
	}
	if !opts.ExcludeOverhead {
		reqs.addList(pod.Spec.Overhead)
	}
	return reqs
}
