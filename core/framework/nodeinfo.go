package framework

import (
	"fmt"
	"math"

	"github.com/schedplay/schedplay/core/api"
)

// NodeInfo is a node with the pods on it and their aggregated requests.
type NodeInfo struct {
	// The fields every filter and score pass reads come first, and the
	// resources are held by value, so that the first touch of a node brings
	// them in together instead of following three pointers to three
	// separate objects.
	node *api.Node
	// index is 1 + the node's position in its snapshot's List (0 outside a
	// snapshot); clones keep it, so per-node data a plugin keeps in slices
	// can be found without hashing the name. changes is the snapshot's log,
	// which clones do not write to.
	index int32
	// nameRank is 1 + the node's position among its snapshot's nodes
	// sorted by name (0 outside a snapshot; clones keep it): ordering a
	// snapshot's nodes by name is then an integer comparison, where a
	// string comparison is a byte loop in WebAssembly.
	nameRank int32
	// spec is the node's spec as SetNode found it, kept here so that the
	// filters that read it (NodeUnschedulable, TaintToleration) find it on
	// the NodeInfo's first cache line instead of missing on the Node.
	spec        api.NodeSpec
	Pods        []*PodInfo
	Allocatable Resource
	// Requested sums the pods' requests.
	Requested Resource
	// NonZeroRequested counts DefaultMilliCPURequest/DefaultMemoryRequest for
	// containers without requests; only scoring reads it.
	NonZeroRequested             Resource
	PodsWithAffinity             []*PodInfo
	PodsWithRequiredAntiAffinity []*PodInfo
	UsedPorts                    HostPortInfo
	// ImageStates is nil for a node without images, so that ImageLocality's
	// len check per scored node reads no map.
	ImageStates map[string]*ImageStateSummary
	Generation  int64
	changes     *ChangeLog
	// saturated is set while a request sum is held at the int64 bound (addRequests).
	saturated bool
}

// Index returns the node's position in the List of the snapshot it was
// built for (clones keep it), or -1 for a NodeInfo outside a snapshot. A
// caller keeping per-node data by index must check that the data is for
// this node (for example by its *api.Node), since a rebuilt snapshot
// reuses the positions.
func (n *NodeInfo) Index() int { return int(n.index) - 1 }

// NameRank returns the node's position among the nodes of the snapshot it
// was built for, sorted by name (clones keep it), or -1 for a NodeInfo
// outside a snapshot. Two nodes of one snapshot compare by name as their
// ranks do; nodes of different snapshots do not compare by rank.
func (n *NodeInfo) NameRank() int { return int(n.nameRank) - 1 }

// ChangeLog returns the log of the snapshot this NodeInfo belongs to, or
// nil for a clone or a NodeInfo outside a snapshot.
func (n *NodeInfo) ChangeLog() *ChangeLog { return n.changes }

// NewNodeInfo makes a NodeInfo holding pods (call SetNode to attach the node).
func NewNodeInfo(pods ...*api.Pod) *NodeInfo {
	ni := &NodeInfo{
		UsedPorts: HostPortInfo{},
	}
	for _, p := range pods {
		ni.AddPod(p)
	}
	return ni
}

// Node returns the node (nil if unset).
func (n *NodeInfo) Node() *api.Node {
	if n == nil {
		return nil
	}
	return n.node
}

// NodeSpec returns the node's spec as of SetNode (the zero spec if unset).
// Like Allocatable it is taken when the node is set: a node is changed by
// setting a new one, as the simulation and the scheduler cache do.
func (n *NodeInfo) NodeSpec() *api.NodeSpec { return &n.spec }

// SetNode attaches the node, its spec and its allocatable.
func (n *NodeInfo) SetNode(node *api.Node) {
	n.node = node
	n.spec = node.Spec
	n.Allocatable = *NewResource(node.Status.Allocatable)
	n.changed()
}

// changed bumps Generation and logs the node in its snapshot's log.
func (n *NodeInfo) changed() {
	n.Generation++
	if n.changes != nil {
		n.changes.record(n.index - 1)
	}
}

// AddPod adds a pod.
func (n *NodeInfo) AddPod(pod *api.Pod) { n.AddPodInfo(NewPodInfo(pod)) }

// AddPodInfo adds a compiled pod.
func (n *NodeInfo) AddPodInfo(pi *PodInfo) {
	n.Pods = append(n.Pods, pi)
	if podWithAffinity(pi.Pod) {
		n.PodsWithAffinity = append(n.PodsWithAffinity, pi)
	}
	if len(pi.RequiredAntiAffinityTerms) > 0 {
		n.PodsWithRequiredAntiAffinity = append(n.PodsWithRequiredAntiAffinity, pi)
	}
	n.update(pi.Pod, 1)
}

// RemovePod removes a pod by namespace/name. Like upstream it swaps the last
// pod into the hole, so pod order changes.
func (n *NodeInfo) RemovePod(pod *api.Pod) error {
	key := pod.Key()
	n.PodsWithAffinity, _ = removeFromSlice(n.PodsWithAffinity, key)
	n.PodsWithRequiredAntiAffinity, _ = removeFromSlice(n.PodsWithRequiredAntiAffinity, key)
	var removed *PodInfo
	n.Pods, removed = removeFromSlice(n.Pods, key)
	if removed == nil {
		return fmt.Errorf("no pod %s on node %s", key, n.node.Name)
	}
	n.update(removed.Pod, -1)
	return nil
}

func removeFromSlice(s []*PodInfo, key string) ([]*PodInfo, *PodInfo) {
	i := indexOfPod(s, key)
	if i < 0 {
		return s, nil
	}
	removed := s[i]
	s[i] = s[len(s)-1]
	return s[:len(s)-1], removed
}

func podWithAffinity(p *api.Pod) bool {
	a := p.Spec.Affinity
	return a != nil && (a.PodAffinity != nil || a.PodAntiAffinity != nil)
}

func (n *NodeInfo) update(pod *api.Pod, sign int64) {
	if n.saturated || n.addRequests(pod, sign) {
		n.resum()
	}
	for _, p := range GetHostPorts(pod) {
		if sign > 0 {
			n.UsedPorts.Add(p.HostIP, string(p.Protocol), p.HostPort)
		} else {
			n.UsedPorts.Remove(p.HostIP, string(p.Protocol), p.HostPort)
		}
	}
	n.changed()
}

// addRequests adds (sign 1) or subtracts (sign -1) a pod's requests and
// reports whether a sum saturated. Upstream adds int64s that wrap: pods
// bound with cpu requests past 2^63 millicores made a full node look empty.
// Here a sum saturates instead, and the node's sums are then recomputed
// from its pods on every change while one stays saturated (a saturated sum
// cannot be undone by subtracting); sums that never reach the int64 bounds
// are the same as upstream's.
func (n *NodeInfo) addRequests(pod *api.Pod, sign int64) (saturated bool) {
	res, non0CPU, non0Mem := CalculatePodResource(pod)
	add := func(dst *int64, v int64) {
		var over bool
		*dst, over = addSat(*dst, sign*v)
		saturated = saturated || over
	}
	add(&n.Requested.MilliCPU, res.MilliCPU)
	add(&n.Requested.Memory, res.Memory)
	add(&n.Requested.EphemeralStorage, res.EphemeralStorage)
	for name, v := range res.ScalarResources {
		if n.Requested.ScalarResources == nil {
			n.Requested.ScalarResources = map[api.ResourceName]int64{}
		}
		sum := n.Requested.ScalarResources[name]
		add(&sum, v)
		n.Requested.ScalarResources[name] = sum
	}
	add(&n.NonZeroRequested.MilliCPU, non0CPU)
	add(&n.NonZeroRequested.Memory, non0Mem)
	return saturated
}

// resum recomputes a node's request sums from its pods.
func (n *NodeInfo) resum() {
	n.Requested = Resource{}
	n.NonZeroRequested = Resource{}
	n.saturated = false
	for _, pi := range n.Pods {
		if n.addRequests(pi.Pod, 1) {
			n.saturated = true
		}
	}
}

// addSat is a+b, saturated at the int64 bounds; over reports that it was.
func addSat(a, b int64) (sum int64, over bool) {
	sum = a + b
	switch {
	case b > 0 && sum < a:
		return math.MaxInt64, true
	case b < 0 && sum > a:
		return math.MinInt64, true
	}
	return sum, false
}

// CalculatePodResource returns a pod's requests and the non-zero cpu and
// memory figures scoring uses, as upstream's PodInfo.CalculateResource.
func CalculatePodResource(pod *api.Pod) (Resource, int64, int64) {
	var res Resource
	podLevel := api.IsPodLevelRequestsSet(pod)
	// The stand-ins only fill requests a container lacks: when every
	// container names both cpu and memory, the non-zero figures are the
	// plain ones, and one pass (with no map for the common pod shape) does.
	if !podLevel && api.ContainersRequestCPUAndMemory(pod) {
		api.VisitPodRequests(pod, api.PodRequestsOptions{}, res.AddRequest)
		return res, res.MilliCPU, res.Memory
	}
	reqs := api.PodRequests(pod, api.PodRequestsOptions{})
	res.AddRequests(reqs)
	non0 := reqs
	if missing := nonMissingContainerRequests(reqs, podLevel); len(missing) > 0 {
		non0 = api.PodRequests(pod, api.PodRequestsOptions{NonMissingContainerRequests: missing})
	}
	return res, non0[api.ResourceCPU], non0[api.ResourceMemory]
}

// nonMissingContainerRequests picks the defaults that stand in for absent
// container requests. Without pod-level requests every container lacking a
// cpu or memory request gets one. With them, a resource is defaulted only
// when the pod's total does not mention it at all: presence counts, so an
// explicit zero anywhere (container, pod level or overhead) keeps it zero.
func nonMissingContainerRequests(reqs api.Requests, podLevelRequestsSet bool) api.ResourceList {
	defaults := api.ResourceList{
		api.ResourceCPU:    api.NewMilliQuantity(DefaultMilliCPURequest),
		api.ResourceMemory: api.NewQuantity(DefaultMemoryRequest),
	}
	if !podLevelRequestsSet {
		return defaults
	}
	out := api.ResourceList{}
	for name, q := range defaults {
		if _, ok := reqs[name]; !ok {
			out[name] = q
		}
	}
	return out
}

// GetHostPorts lists the container ports of pod that use a host port, as
// upstream's schedutil.GetHostPorts: sidecar init containers (restartPolicy
// Always) first, since they run for the pod's whole life, then the regular
// containers. Other init containers exit before the pod runs and hold no port.
func GetHostPorts(pod *api.Pod) []api.ContainerPort {
	var out []api.ContainerPort
	for _, c := range pod.Spec.InitContainers {
		if c.RestartPolicy == nil || *c.RestartPolicy != api.ContainerRestartPolicyAlways {
			continue
		}
		for _, p := range c.Ports {
			if p.HostPort > 0 {
				out = append(out, p)
			}
		}
	}
	for _, c := range pod.Spec.Containers {
		for _, p := range c.Ports {
			if p.HostPort > 0 {
				out = append(out, p)
			}
		}
	}
	return out
}

// Clone copies the NodeInfo so a plugin may add and remove pods on it
// (preemption does) without touching the snapshot.
func (n *NodeInfo) Clone() *NodeInfo {
	out := &NodeInfo{
		node:             n.node,
		spec:             n.spec,
		Requested:        *n.Requested.Clone(),
		NonZeroRequested: *n.NonZeroRequested.Clone(),
		Allocatable:      *n.Allocatable.Clone(),
		UsedPorts:        HostPortInfo{},
		ImageStates:      n.ImageStates,
		Generation:       n.Generation,
		index:            n.index,
		nameRank:         n.nameRank,
		saturated:        n.saturated,
	}
	for ip, m := range n.UsedPorts {
		out.UsedPorts[ip] = map[ProtocolPort]struct{}{}
		for pp := range m {
			out.UsedPorts[ip][pp] = struct{}{}
		}
	}
	out.Pods = append([]*PodInfo(nil), n.Pods...)
	out.PodsWithAffinity = append([]*PodInfo(nil), n.PodsWithAffinity...)
	out.PodsWithRequiredAntiAffinity = append([]*PodInfo(nil), n.PodsWithRequiredAntiAffinity...)
	return out
}

// UpdatePod replaces a pod already on the node with its new version (the
// same object changed in place, or a new one with the same key), as the
// scheduler cache does on a pod update, and bumps Generation so that
// anything cached for this node is recomputed. Upstream's cache removes the
// old pod and adds the new one, which moves it to the end of the list; here
// it keeps its place, so pod order (and with it every decision) is the same
// as before the update path existed.
func (n *NodeInfo) UpdatePod(oldPod, newPod *api.Pod) error {
	key := oldPod.Key()
	i := indexOfPod(n.Pods, key)
	if i < 0 {
		return fmt.Errorf("no pod %s on node %s", key, n.node.Name)
	}
	old := n.Pods[i]
	pi := old
	if old.Pod != newPod {
		pi = NewPodInfo(newPod)
	}
	n.Pods[i] = pi
	n.PodsWithAffinity = replaceInSlice(n.PodsWithAffinity, key, pi, podWithAffinity(newPod))
	n.PodsWithRequiredAntiAffinity = replaceInSlice(n.PodsWithRequiredAntiAffinity, key, pi, len(pi.RequiredAntiAffinityTerms) > 0)
	n.update(old.Pod, -1)
	n.update(newPod, 1)
	return nil
}

func indexOfPod(s []*PodInfo, key string) int {
	for i := range s {
		if s[i].Pod.Key() == key {
			return i
		}
	}
	return -1
}

// replaceInSlice puts pi in key's place in s, appends it when it is new to
// s and keep is set, and removes key when keep is not set.
func replaceInSlice(s []*PodInfo, key string, pi *PodInfo, keep bool) []*PodInfo {
	i := indexOfPod(s, key)
	switch {
	case i >= 0 && keep:
		s[i] = pi
	case i >= 0:
		s, _ = removeFromSlice(s, key)
	case keep:
		s = append(s, pi)
	}
	return s
}
