package scenario

import (
	"fmt"
	"reflect"
	"time"

	"github.com/schedplay/schedplay/core/api"
)

func valueOf(p any) reflect.Value { return reflect.ValueOf(p).Elem() }

func ptr[T any](v T) *T { return &v }

// builtinPriorityClasses are the classes every cluster has (scheduling/v1 SystemPriorityClasses).
func builtinPriorityClasses() []*api.PriorityClass {
	return []*api.PriorityClass{
		{ObjectMeta: api.ObjectMeta{Name: "system-node-critical", UID: "pc-system-node-critical"}, Value: 2000001000,
			PreemptionPolicy: ptr(api.PreemptLowerPriority), Description: "Used for system critical pods that must not be moved from their current node."},
		{ObjectMeta: api.ObjectMeta{Name: "system-cluster-critical", UID: "pc-system-cluster-critical"}, Value: 2000000000,
			PreemptionPolicy: ptr(api.PreemptLowerPriority), Description: "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary."},
	}
}

func builtinPriorityClass(name string) *api.PriorityClass {
	for _, pc := range builtinPriorityClasses() {
		if pc.Name == name {
			return pc
		}
	}
	return nil
}

// admit applies, in the API server's order, v1 defaulting, the pod
// strategy's matchLabelKeys merge, PodTopologyLabels and Priority admission,
// then the scenario's time rule and deterministic UIDs.
func (l *loader) admit(s *Scenario) {
	// Priority classes: built-ins first; a dump that repeats a built-in class
	// unchanged is accepted as that class (validation rejected any change).
	classes := builtinPriorityClasses()
	var userClasses []*api.PriorityClass
	for _, pc := range s.PriorityClasses {
		if builtinPriorityClass(pc.Name) != nil {
			continue
		}
		if pc.PreemptionPolicy == nil {
			pc.PreemptionPolicy = ptr(api.PreemptLowerPriority)
		}
		if pc.GlobalDefault {
			for _, other := range userClasses {
				if other.GlobalDefault {
					o := l.objectOf(pc)
					(&validator{l: l, o: o}).err("globalDefault", fmt.Sprintf("Forbidden: PriorityClass %s is already marked as default. Only one default can exist", other.Name), "set globalDefault: true on one class only")
				}
			}
		}
		userClasses = append(userClasses, pc)
	}
	s.PriorityClasses = append(classes, userClasses...)
	byName := map[string]*api.PriorityClass{}
	var globalDefault *api.PriorityClass
	for _, pc := range s.PriorityClasses {
		byName[pc.Name] = pc
		// With several defaults upstream picks the lowest value; validation allows one.
		if pc.GlobalDefault && (globalDefault == nil || pc.Value < globalDefault.Value) {
			globalDefault = pc
		}
	}

	t0 := l.latest()
	s.T0 = t0

	nodes := map[string]*api.Node{}
	for _, n := range s.Nodes {
		// SetDefaults_NodeStatus: allocatable defaults to capacity.
		if n.Status.Allocatable == nil && n.Status.Capacity != nil {
			n.Status.Allocatable = api.ResourceList{}
			for k, q := range n.Status.Capacity {
				n.Status.Allocatable[k] = q
			}
		}
		nodes[n.Name] = n
	}
	for _, ns := range s.Namespaces {
		// The namespace strategy labels every namespace with its name.
		if ns.Labels == nil {
			ns.Labels = map[string]string{}
		}
		ns.Labels[api.LabelMetadataName] = ns.Name
	}

	// The pods, in s.Pods' order (their objects'); a pod a Cache shares
	// as admitted before, with the same nodes, classes and T0, is so
	// already.
	i := 0
	for _, o := range l.objs {
		p, ok := o.val.(*api.Pod)
		if !ok {
			continue
		}
		if !l.pause(i) {
			return // cancelled: the load returns ErrCancelled
		}
		i++
		if o.pristine == nil {
			l.admitPod(p, o, nodes, byName, globalDefault)
		}
	}

	// Every object exists at T0 unless the file says when it was created.
	prefixes := map[string]string{"Node": "node-", "Pod": "pod-", "PriorityClass": "pc-", "PodDisruptionBudget": "pdb-",
		"Namespace": "ns-", "Service": "svc-", "ReplicationController": "rc-", "ReplicaSet": "rs-", "StatefulSet": "sts-", "Deployment": "deploy-",
		"PersistentVolume": "pv-", "PersistentVolumeClaim": "pvc-", "StorageClass": "sc-", "CSINode": "csinode-", "CSIDriver": "csidriver-"}
	for _, o := range l.objs {
		if o.kind == "KubeSchedulerConfiguration" {
			continue
		}
		m := objectMeta(o.val)
		if m.CreationTimestamp == nil {
			m.CreationTimestamp = ptr(t0)
		}
		if m.UID == "" {
			// The harness's UIDs: kind prefix, then namespace-name or name.
			if m.Namespace != "" {
				m.UID = prefixes[o.kind] + m.Namespace + "-" + m.Name
			} else {
				m.UID = prefixes[o.kind] + m.Name
			}
		}
	}
	admitStorage(s)
	for _, p := range s.Pods {
		if p.Spec.NodeName != "" {
			markRunning(p)
		}
	}
}

// latest is T0: the latest timestamp in the file (of the objects as
// decoded), else DefaultT0.
func (l *loader) latest() time.Time {
	var t0 time.Time
	bump := func(t *time.Time) {
		if t != nil && t.After(t0) {
			t0 = *t
		}
	}
	for _, o := range l.objs {
		if o.kind == "KubeSchedulerConfiguration" {
			continue
		}
		v := o.val
		if o.pristine != nil {
			v = o.pristine
		}
		bump(objectMeta(v).CreationTimestamp)
		if p, ok := v.(*api.Pod); ok {
			bump(p.Status.StartTime)
		}
	}
	if t0.IsZero() {
		return DefaultT0
	}
	return t0
}

func (l *loader) admitPod(p *api.Pod, o *object, nodes map[string]*api.Node, classes map[string]*api.PriorityClass, globalDefault *api.PriorityClass) {
	v := &validator{l: l, o: o}
	defaultPodSpec(&p.Spec)
	if o.hostNet {
		defaultHostNetworkPorts(p.Spec.InitContainers)
		defaultHostNetworkPorts(p.Spec.Containers)
	}
	mergeLabelKeys(p)

	if p.Spec.NodeName != "" {
		n, ok := nodes[p.Spec.NodeName]
		if !ok {
			v.err("spec.nodeName", fmt.Sprintf("Pod is bound to unknown node %q", p.Spec.NodeName), "add the Node to the scenario or remove spec.nodeName")
			return
		}
		// PodTopologyLabels admission copies the node's zone and region.
		for _, k := range []string{api.LabelTopologyZone, api.LabelTopologyRegion} {
			if val, ok := n.Labels[k]; ok {
				if p.Labels == nil {
					p.Labels = map[string]string{}
				}
				p.Labels[k] = val
			}
		}
	}

	// Priority admission.
	var (
		value  int32
		policy *api.PreemptionPolicy
	)
	switch {
	case p.Spec.PriorityClassName != "":
		pc, ok := classes[p.Spec.PriorityClassName]
		if !ok {
			v.err("spec.priorityClassName", fmt.Sprintf("no PriorityClass with name %s was found", p.Spec.PriorityClassName), "add the PriorityClass to the scenario or fix the name")
			return
		}
		value, policy = pc.Value, pc.PreemptionPolicy
	case globalDefault != nil:
		p.Spec.PriorityClassName = globalDefault.Name
		value, policy = globalDefault.Value, globalDefault.PreemptionPolicy
	default:
		policy = ptr(api.PreemptLowerPriority)
	}
	if p.Spec.Priority != nil && *p.Spec.Priority != value {
		v.err("spec.priority", fmt.Sprintf("the integer value of priority (%d) must not be provided in pod spec; priority admission controller computed %d from the given PriorityClass name", *p.Spec.Priority, value), "remove spec.priority; it comes from the PriorityClass")
	}
	p.Spec.Priority = ptr(value)
	if policy != nil {
		if p.Spec.PreemptionPolicy != nil && *p.Spec.PreemptionPolicy != *policy {
			v.err("spec.preemptionPolicy", fmt.Sprintf("the string value of PreemptionPolicy (%s) must not be provided in pod spec; priority admission controller computed %s from the given PriorityClass name", *p.Spec.PreemptionPolicy, *policy), "remove spec.preemptionPolicy; it comes from the PriorityClass")
		}
		p.Spec.PreemptionPolicy = ptr(*policy)
	}
}

// defaultPodSpec applies the v1 defaults that matter to scheduling
// (SetDefaults_Pod, SetDefaults_PodSpec, SetDefaults_ContainerPort).
func defaultPodSpec(s *api.PodSpec) {
	if s.SchedulerName == "" {
		s.SchedulerName = "default-scheduler"
	}
	if s.TerminationGracePeriodSeconds == nil {
		s.TerminationGracePeriodSeconds = ptr(int64(30))
	}
	for _, cs := range [][]api.Container{s.InitContainers, s.Containers} {
		for i := range cs {
			c := &cs[i]
			// Requests default to limits where only limits are set.
			if c.Resources.Limits != nil {
				if c.Resources.Requests == nil {
					c.Resources.Requests = api.ResourceList{}
				}
				for k, q := range c.Resources.Limits {
					if _, ok := c.Resources.Requests[k]; !ok {
						c.Resources.Requests[k] = q
					}
				}
			}
			for j := range c.Ports {
				if c.Ports[j].Protocol == "" {
					c.Ports[j].Protocol = api.ProtocolTCP
				}
			}
		}
	}
	defaultPodRequests(s)
}

// defaultPodRequests is defaultPodRequests of PodLevelResources (beta, on):
// with pod-level resources, a missing pod-level request for cpu or memory
// becomes the containers' aggregate request, else the pod-level limit.
func defaultPodRequests(s *api.PodSpec) {
	r := s.Resources
	if r == nil || len(r.Limits) == 0 && len(r.Requests) == 0 {
		return
	}
	reqs := r.Requests
	if reqs == nil {
		reqs = api.ResourceList{}
	}
	agg := api.PodRequests(&api.Pod{Spec: *s}, api.PodRequestsOptions{ExcludeOverhead: true, SkipPodLevelResources: true})
	for _, n := range []api.ResourceName{api.ResourceCPU, api.ResourceMemory} {
		if _, ok := reqs[n]; ok {
			continue
		}
		if v, ok := agg[n]; ok {
			if n == api.ResourceCPU {
				reqs[n] = api.NewMilliQuantity(v)
			} else {
				reqs[n] = api.NewQuantity(v)
			}
		}
	}
	for n, q := range r.Limits {
		if _, ok := reqs[n]; !ok && api.IsSupportedPodLevelResource(n) {
			reqs[n] = q
		}
	}
	if len(reqs) > 0 {
		r.Requests = reqs
	}
}

func hostNetwork(raw *ynode) bool {
	v, n := scalarAt(raw, "spec", "hostNetwork")
	return n != nil && !n.isStr && (v == "true" || v == "True" || v == "TRUE")
}

// defaultHostNetworkPorts: with hostNetwork, a container port is a host port.
func defaultHostNetworkPorts(cs []api.Container) {
	for i := range cs {
		for j := range cs[i].Ports {
			if cs[i].Ports[j].HostPort == 0 {
				cs[i].Ports[j].HostPort = cs[i].Ports[j].ContainerPort
			}
		}
	}
}

// mergeLabelKeys merges matchLabelKeys/mismatchLabelKeys into the label
// selectors as the v1.36 pod strategy does on create (MatchLabelKeysInPodAffinity
// GA; MatchLabelKeysInPodTopologySpreadSelectorMerge beta, on). A requirement
// already present is not added again, so a written scenario reloads unchanged.
func mergeLabelKeys(p *api.Pod) {
	merge := func(sel *api.LabelSelector, keys []string, op api.LabelSelectorOperator) {
		if sel == nil {
			return
		}
	next:
		for _, k := range keys {
			val, ok := p.Labels[k]
			if !ok {
				continue
			}
			for _, r := range sel.MatchExpressions {
				if r.Key == k && r.Operator == op && len(r.Values) == 1 && r.Values[0] == val {
					continue next
				}
			}
			sel.MatchExpressions = append(sel.MatchExpressions, api.LabelSelectorRequirement{Key: k, Operator: op, Values: []string{val}})
		}
	}
	term := func(t *api.PodAffinityTerm) {
		merge(t.LabelSelector, t.MatchLabelKeys, api.LabelSelectorOpIn)
		merge(t.LabelSelector, t.MismatchLabelKeys, api.LabelSelectorOpNotIn)
	}
	if a := p.Spec.Affinity; a != nil {
		if pa := a.PodAffinity; pa != nil {
			for i := range pa.RequiredDuringSchedulingIgnoredDuringExecution {
				term(&pa.RequiredDuringSchedulingIgnoredDuringExecution[i])
			}
			for i := range pa.PreferredDuringSchedulingIgnoredDuringExecution {
				term(&pa.PreferredDuringSchedulingIgnoredDuringExecution[i].PodAffinityTerm)
			}
		}
		if pa := a.PodAntiAffinity; pa != nil {
			for i := range pa.RequiredDuringSchedulingIgnoredDuringExecution {
				term(&pa.RequiredDuringSchedulingIgnoredDuringExecution[i])
			}
			for i := range pa.PreferredDuringSchedulingIgnoredDuringExecution {
				term(&pa.PreferredDuringSchedulingIgnoredDuringExecution[i].PodAffinityTerm)
			}
		}
	}
	for i := range p.Spec.TopologySpreadConstraints {
		c := &p.Spec.TopologySpreadConstraints[i]
		merge(c.LabelSelector, c.MatchLabelKeys, api.LabelSelectorOpIn)
	}
}

// markRunning gives a bound pod what a running pod has, as the harness does:
// phase Running, a start time (status.startTime, else creationTimestamp) and
// Ready=True unless the file gives a Ready condition or the pod has finished.
func markRunning(p *api.Pod) {
	if p.Status.Phase == "" || p.Status.Phase == api.PodPending {
		p.Status.Phase = api.PodRunning
	}
	if p.Status.StartTime == nil {
		p.Status.StartTime = ptr(*p.CreationTimestamp)
	}
	if p.Finished() {
		return // the kubelet marks a finished pod not ready (reason PodCompleted)
	}
	for _, c := range p.Status.Conditions {
		if c.Type == api.PodReady {
			return
		}
	}
	p.Status.Conditions = append(p.Status.Conditions, api.PodCondition{Type: api.PodReady, Status: api.ConditionTrue})
}
