package scenario

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/termination"
)

// validator checks one object as the API server's validation would, with
// upstream's wording where it is useful and a hint on what to do.
type validator struct {
	l *loader
	o *object
}

// posOf finds the position of path, or of its nearest recorded parent.
func (v *validator) posOf(path string) Pos {
	for p := path; ; {
		if pos, ok := v.o.path(p); ok {
			return pos
		}
		if p == "" {
			return v.o.pos
		}
		i := strings.LastIndexAny(p, ".[")
		if i < 0 {
			p = ""
		} else {
			p = p[:i]
		}
	}
}

func (v *validator) err(path, msg, hint string) {
	v.l.errorAt(v.posOf(path), v.o.label, path, msg, hint)
}

func (v *validator) warn(path, msg, hint string) {
	v.l.warnAt(v.posOf(path), v.o.label, path, msg, hint)
}

// defaultNamespace sets the namespace as the API server would (default for
// a namespaced kind, none otherwise); it reports whether the kind has one.
func defaultNamespace(kind string, meta *api.ObjectMeta) bool {
	if !kinds[kind].namespaced {
		meta.Namespace = ""
		return false
	}
	if meta.Namespace == "" {
		meta.Namespace = "default"
	}
	return true
}

// validate checks the object alone (and defaults its namespace): what it
// reports depends on nothing else, which lets Cache keep it (check).
func (v *validator) validate() {
	meta := objectMeta(v.o.val)
	if defaultNamespace(v.o.kind, meta) {
		v.dnsLabel("metadata.namespace", meta.Namespace)
	}
	if meta.Name != "" {
		if v.o.kind == "Namespace" || v.o.kind == "Service" {
			v.dnsLabel("metadata.name", meta.Name)
		} else {
			v.dnsSubdomain("metadata.name", meta.Name)
		}
	}
	v.labels("metadata.labels", meta.Labels)
	if meta.DeletionGracePeriodSeconds != nil && *meta.DeletionGracePeriodSeconds < 0 {
		v.err("metadata.deletionGracePeriodSeconds", "must be greater than or equal to 0", "")
	}
	switch x := v.o.val.(type) {
	case *api.Node:
		v.node(x)
	case *api.Pod:
		v.podSpec("spec", &x.Spec, true)
		v.durationAnnotations(meta.Annotations)
	case *api.PriorityClass:
		v.priorityClass(x)
	case *api.PodDisruptionBudget:
		v.pdb(x)
	case *api.ReplicaSet:
		v.workload(&x.Spec)
	case *api.StatefulSet:
		v.workload(&x.Spec)
		v.claimTemplates(x.Spec.VolumeClaimTemplates)
	case *api.Deployment:
		v.workload(&x.Spec)
	case *api.Service:
		v.labels("spec.selector", x.Spec.Selector)
	case *api.ReplicationController:
		v.replicas(x.Spec.Replicas)
		v.labels("spec.selector", x.Spec.Selector)
	case *api.PersistentVolume:
		v.persistentVolume(x)
	case *api.PersistentVolumeClaim:
		v.claim(x)
	case *api.StorageClass:
		v.storageClass(x)
	case *api.CSINode:
		v.csiNode(x)
	}
}

// durationAnnotations checks the annotations that time a termination
// (core/termination): each a finite number of seconds, 0 or more.
func (v *validator) durationAnnotations(a map[string]string) {
	for _, k := range []string{termination.AnnotationPreStopSeconds, termination.AnnotationShutdownSeconds} {
		if val, ok := a[k]; ok {
			if _, err := termination.ParseSeconds(val); err != nil {
				v.err("metadata.annotations["+k+"]", err.Error(), `write a number of seconds such as "5" or "0.5"`)
			}
		}
	}
}

// replicas is ValidateNonnegativeField on spec.replicas, as upstream's
// ValidateReplicaSetSpec, ValidateDeploymentSpec, ValidateStatefulSetSpec
// and ValidateReplicationControllerSpec apply it.
func (v *validator) replicas(r *int32) {
	if r != nil && *r < 0 {
		v.err("spec.replicas", fmt.Sprintf("must be greater than or equal to 0, got %d", *r), "write 0 or more replicas")
	}
}

func (v *validator) workload(s *api.WorkloadSpec) {
	v.replicas(s.Replicas)
	v.labelSelector("spec.selector", s.Selector)
	v.labels("spec.template.metadata.labels", s.Template.Labels)
}

// Name and label syntax (k8s.io/apimachinery/pkg/util/validation).

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isLowerAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

func validDNSLabel(s string) bool {
	if len(s) == 0 || len(s) > 63 || !isLowerAlnum(s[0]) || !isLowerAlnum(s[len(s)-1]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isLowerAlnum(s[i]) && s[i] != '-' {
			return false
		}
	}
	return true
}

func validDNSSubdomain(s string) bool {
	if len(s) == 0 || len(s) > 253 {
		return false
	}
	for _, part := range strings.Split(s, ".") {
		if len(part) == 0 || !isLowerAlnum(part[0]) || !isLowerAlnum(part[len(part)-1]) {
			return false
		}
		for i := 0; i < len(part); i++ {
			if !isLowerAlnum(part[i]) && part[i] != '-' {
				return false
			}
		}
	}
	return true
}

// validLabelValue also checks the name part of a qualified name.
func validLabelValue(s string) bool {
	if s == "" {
		return true
	}
	if len(s) > 63 || !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

func validQualifiedName(s string) bool {
	prefix, name, found := strings.Cut(s, "/")
	if !found {
		name, prefix = prefix, ""
	} else if !validDNSSubdomain(prefix) {
		return false
	}
	return name != "" && validLabelValue(name)
}

const (
	dnsLabelMsg     = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"
	dnsSubdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
	qualifiedMsg    = "a label key must be a name of at most 63 alphanumeric characters, '-', '_' or '.', starting and ending with an alphanumeric character, with an optional DNS subdomain prefix and '/' (e.g. 'app' or 'example.com/app')"
	labelValueMsg   = "a label value must be empty or at most 63 alphanumeric characters, '-', '_' or '.', starting and ending with an alphanumeric character"
)

func (v *validator) dnsLabel(path, s string) {
	if !validDNSLabel(s) {
		v.err(path, fmt.Sprintf("Invalid value: %q: %s", s, dnsLabelMsg), "use a name such as 'my-name' (at most 63 characters)")
	}
}

func (v *validator) dnsSubdomain(path, s string) {
	if !validDNSSubdomain(s) {
		v.err(path, fmt.Sprintf("Invalid value: %q: %s", s, dnsSubdomainMsg), "use a name such as 'web-1' or 'node-a.example.com'")
	}
}

func (v *validator) labelKey(path, k string) {
	if !validQualifiedName(k) {
		v.err(path, fmt.Sprintf("Invalid value: %q: %s", k, qualifiedMsg), "")
	}
}

func (v *validator) labels(path string, m map[string]string) {
	for _, k := range sortedKeys(m) {
		p := fmt.Sprintf("%s[%s]", path, k)
		if !validQualifiedName(k) {
			v.l.errorAt(v.keyPos(p), v.o.label, path, fmt.Sprintf("Invalid value: %q: %s", k, qualifiedMsg), "")
		}
		if !validLabelValue(m[k]) {
			v.err(p, fmt.Sprintf("Invalid value: %q: %s", m[k], labelValueMsg), "")
		}
	}
}

func (v *validator) keyPos(p string) Pos {
	if pos, ok := v.o.path(p + "#key"); ok {
		return pos
	}
	return v.posOf(p)
}

func notSupported(got string, want ...string) string {
	q := make([]string, len(want))
	for i, w := range want {
		q[i] = strconv.Quote(w)
	}
	return fmt.Sprintf("Unsupported value: %q: supported values: %s", got, strings.Join(q, ", "))
}

func (v *validator) enum(path, got string, want ...string) bool {
	for _, w := range want {
		if got == w {
			return true
		}
	}
	if got == "" {
		v.err(path, "Required value", "set it to one of "+strings.Join(want, ", "))
		return false
	}
	hint := ""
	if c := closest(got, want); c != "" {
		hint = fmt.Sprintf("did you mean %q?", c)
	}
	v.err(path, notSupported(got, want...), hint)
	return false
}

// Selectors.

func (v *validator) labelSelector(path string, s *api.LabelSelector) {
	if s == nil {
		return
	}
	v.labels(path+".matchLabels", s.MatchLabels)
	for i, r := range s.MatchExpressions {
		p := fmt.Sprintf("%s.matchExpressions[%d]", path, i)
		v.labelKey(p+".key", r.Key)
		if !v.enum(p+".operator", string(r.Operator), enumOf[api.LabelSelectorOperator]()...) {
			continue
		}
		switch r.Operator {
		case api.LabelSelectorOpIn, api.LabelSelectorOpNotIn:
			if len(r.Values) == 0 {
				v.err(p+".values", "Required value: must be specified when `operator` is 'In' or 'NotIn'", "list at least one value")
			}
		default:
			if len(r.Values) > 0 {
				v.err(p+".values", "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'", "remove the values")
			}
		}
		for j, val := range r.Values {
			if !validLabelValue(val) {
				v.err(fmt.Sprintf("%s.values[%d]", p, j), fmt.Sprintf("Invalid value: %q: %s", val, labelValueMsg), "")
			}
		}
	}
}

func (v *validator) nodeSelectorRequirements(path string, reqs []api.NodeSelectorRequirement, fields bool) {
	for i, r := range reqs {
		p := fmt.Sprintf("%s[%d]", path, i)
		if fields {
			if r.Key != "metadata.name" {
				v.err(p+".key", fmt.Sprintf("Invalid value: %q: not a valid field selector key", r.Key), "matchFields supports only metadata.name")
			}
			if v.enum(p+".operator", string(r.Operator), "In", "NotIn") && len(r.Values) != 1 {
				v.err(p+".values", "Required value: must be only one value when `operator` is 'In' or 'NotIn' for node field selector", "")
			}
			continue
		}
		v.labelKey(p+".key", r.Key)
		if !v.enum(p+".operator", string(r.Operator), enumOf[api.NodeSelectorOperator]()...) {
			continue
		}
		switch r.Operator {
		case api.NodeSelectorOpIn, api.NodeSelectorOpNotIn:
			if len(r.Values) == 0 {
				v.err(p+".values", "Required value: must be specified when `operator` is 'In' or 'NotIn'", "list at least one value")
			}
		case api.NodeSelectorOpExists, api.NodeSelectorOpDoesNotExist:
			if len(r.Values) > 0 {
				v.err(p+".values", "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'", "remove the values")
			}
		case api.NodeSelectorOpGt, api.NodeSelectorOpLt:
			if len(r.Values) != 1 {
				v.err(p+".values", "Required value: must be specified single value when `operator` is 'Lt' or 'Gt'", "give exactly one integer value")
			} else if _, err := strconv.ParseInt(r.Values[0], 10, 64); err != nil {
				v.err(p+".values[0]", fmt.Sprintf("Invalid value: %q: must be an integer", r.Values[0]), "")
			}
		}
	}
}

func (v *validator) nodeSelectorTerm(path string, t *api.NodeSelectorTerm) {
	v.nodeSelectorRequirements(path+".matchExpressions", t.MatchExpressions, false)
	v.nodeSelectorRequirements(path+".matchFields", t.MatchFields, true)
}

func (v *validator) nodeAffinity(path string, na *api.NodeAffinity) {
	if na == nil {
		return
	}
	if r := na.RequiredDuringSchedulingIgnoredDuringExecution; r != nil {
		p := path + ".requiredDuringSchedulingIgnoredDuringExecution"
		if len(r.NodeSelectorTerms) == 0 {
			v.err(p+".nodeSelectorTerms", "Required value: must have at least one node selector term", "")
		}
		for i := range r.NodeSelectorTerms {
			v.nodeSelectorTerm(fmt.Sprintf("%s.nodeSelectorTerms[%d]", p, i), &r.NodeSelectorTerms[i])
		}
	}
	for i := range na.PreferredDuringSchedulingIgnoredDuringExecution {
		t := &na.PreferredDuringSchedulingIgnoredDuringExecution[i]
		p := fmt.Sprintf("%s.preferredDuringSchedulingIgnoredDuringExecution[%d]", path, i)
		v.weight(p+".weight", t.Weight)
		v.nodeSelectorTerm(p+".preference", &t.Preference)
	}
}

func (v *validator) weight(path string, w int32) {
	if w < 1 || w > 100 {
		v.err(path, fmt.Sprintf("Invalid value: %d: must be in the range 1-100", w), "")
	}
}

func (v *validator) podAffinityTerm(path string, t *api.PodAffinityTerm) {
	if t.TopologyKey == "" {
		v.err(path+".topologyKey", "Required value: can not be empty", "set a node label key such as kubernetes.io/hostname")
	} else {
		v.labelKey(path+".topologyKey", t.TopologyKey)
	}
	v.labelSelector(path+".labelSelector", t.LabelSelector)
	v.labelSelector(path+".namespaceSelector", t.NamespaceSelector)
	for i, ns := range t.Namespaces {
		v.dnsLabel(fmt.Sprintf("%s.namespaces[%d]", path, i), ns)
	}
	v.labelKeys(path, t.MatchLabelKeys, t.MismatchLabelKeys, t.LabelSelector)
}

// labelKeys checks matchLabelKeys/mismatchLabelKeys; it runs before they
// are merged into the selector (see mergeLabelKeys).
func (v *validator) labelKeys(path string, match, mismatch []string, sel *api.LabelSelector) {
	for _, f := range []struct {
		name string
		keys []string
	}{{"matchLabelKeys", match}, {"mismatchLabelKeys", mismatch}} {
		if len(f.keys) == 0 {
			continue
		}
		if sel == nil {
			v.err(path+"."+f.name, "Forbidden: must not be specified when labelSelector is not set", "add a labelSelector or remove "+f.name)
			continue
		}
		for i, k := range f.keys {
			p := fmt.Sprintf("%s.%s[%d]", path, f.name, i)
			v.labelKey(p, k)
			if _, ok := sel.MatchLabels[k]; ok {
				v.err(p, fmt.Sprintf("Invalid value: %q: exists in both %s and labelSelector", k, f.name), "remove the key from one of them")
			}
		}
	}
	for i, k := range match {
		for _, m := range mismatch {
			if k == m {
				v.err(fmt.Sprintf("%s.matchLabelKeys[%d]", path, i), fmt.Sprintf("Invalid value: %q: exists in both matchLabelKeys and mismatchLabelKeys", k), "")
			}
		}
	}
}

func (v *validator) podAffinityTerms(path string, req []api.PodAffinityTerm, pref []api.WeightedPodAffinityTerm) {
	for i := range req {
		v.podAffinityTerm(fmt.Sprintf("%s.requiredDuringSchedulingIgnoredDuringExecution[%d]", path, i), &req[i])
	}
	for i := range pref {
		p := fmt.Sprintf("%s.preferredDuringSchedulingIgnoredDuringExecution[%d]", path, i)
		v.weight(p+".weight", pref[i].Weight)
		v.podAffinityTerm(p+".podAffinityTerm", &pref[i].PodAffinityTerm)
	}
}

// TopologySpreadConstraints, as validateTopologySpreadConstraints.
func (v *validator) spreadConstraints(path string, cs []api.TopologySpreadConstraint, pod bool) {
	for i, c := range cs {
		p := fmt.Sprintf("%s[%d]", path, i)
		if c.MaxSkew <= 0 {
			v.err(p+".maxSkew", fmt.Sprintf("Invalid value: %d: must be greater than zero", c.MaxSkew), "set maxSkew to 1 or more")
		}
		if c.TopologyKey == "" {
			v.err(p+".topologyKey", "Required value: can not be empty", "set a node label key such as topology.kubernetes.io/zone")
		}
		v.enum(p+".whenUnsatisfiable", string(c.WhenUnsatisfiable), enumOf[api.UnsatisfiableConstraintAction]()...)
		for _, o := range cs[i+1:] {
			if o.TopologyKey == c.TopologyKey && o.WhenUnsatisfiable == c.WhenUnsatisfiable {
				v.err(p, fmt.Sprintf("Duplicate value: \"{%s, %s}\"", c.TopologyKey, c.WhenUnsatisfiable), "merge the two constraints")
				break
			}
		}
		if c.MinDomains != nil {
			if *c.MinDomains <= 0 {
				v.err(p+".minDomains", fmt.Sprintf("Invalid value: %d: must be greater than zero", *c.MinDomains), "")
			}
			if c.WhenUnsatisfiable != api.DoNotSchedule {
				v.err(p+".minDomains", fmt.Sprintf("Invalid value: %d: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not %s", *c.MinDomains, c.WhenUnsatisfiable), "remove minDomains or use DoNotSchedule")
			}
		}
		if c.NodeAffinityPolicy != nil {
			v.enum(p+".nodeAffinityPolicy", string(*c.NodeAffinityPolicy), enumOf[api.NodeInclusionPolicy]()...)
		}
		if c.NodeTaintsPolicy != nil {
			v.enum(p+".nodeTaintsPolicy", string(*c.NodeTaintsPolicy), enumOf[api.NodeInclusionPolicy]()...)
		}
		v.labelSelector(p+".labelSelector", c.LabelSelector)
		if pod {
			v.labelKeys(p, c.MatchLabelKeys, nil, c.LabelSelector)
		}
	}
}

// Resources.

func isExtendedResource(name string) bool {
	return strings.Contains(name, "/") && !strings.HasPrefix(name, "kubernetes.io/") && !strings.HasPrefix(name, "requests.")
}

func isHugePages(name string) bool { return strings.HasPrefix(name, "hugepages-") }

// overcommitAllowed is upstream's helper.IsOvercommitAllowed: native, not hugepages.
func overcommitAllowed(name string) bool {
	return !isExtendedResource(name) && !isHugePages(name) && name != ""
}

func (v *validator) resourceName(path, name string) {
	switch {
	case name == "cpu" || name == "memory" || name == "ephemeral-storage" || isHugePages(name):
	case isExtendedResource(name) && validQualifiedName(name):
	default:
		v.l.errorAt(v.keyPos(path), v.o.label, path, fmt.Sprintf("Invalid value: %q: must be a standard resource for containers", name), "use cpu, memory, ephemeral-storage, hugepages-<size> or an extended resource such as example.com/gpu")
	}
}

// quantities checks each quantity of rl as upstream's ValidateResourceQuantityValue:
// not negative, and whole for an extended resource (and for pods on a node).
func (v *validator) quantities(path string, rl api.ResourceList, node bool) {
	for _, k := range sortedKeys(rl) {
		p := fmt.Sprintf("%s[%s]", path, k)
		q := rl[api.ResourceName(k)]
		if q.Sign() < 0 {
			v.err(p, fmt.Sprintf("Invalid value: %q: must be greater than or equal to 0", q.String()), "")
		}
		if (isExtendedResource(k) || node && k == "pods") && q.MilliValue()%1000 != 0 {
			hint := "extended resources are counted in whole units"
			if k == "pods" {
				hint = "pods are counted in whole units"
			}
			v.err(p, fmt.Sprintf("Invalid value: %q: must be an integer", q.String()), hint)
		}
	}
}

// containerResources checks a pod's resource list: names first (only standard
// and extended resources may be requested), then quantities.
func (v *validator) containerResources(path string, rl api.ResourceList) {
	for _, k := range sortedKeys(rl) {
		v.resourceName(fmt.Sprintf("%s[%s]", path, k), k)
	}
	v.quantities(path, rl, false)
}

func (v *validator) resources(path string, r *api.ResourceRequirements) {
	v.containerResources(path+".limits", r.Limits)
	v.containerResources(path+".requests", r.Requests)
	for _, k := range sortedKeys(r.Requests) {
		req := r.Requests[api.ResourceName(k)]
		p := fmt.Sprintf("%s.requests[%s]", path, k)
		lim, ok := r.Limits[api.ResourceName(k)]
		cmpv := func(q api.Quantity) int64 { return q.MilliValue() }
		switch {
		case ok && !overcommitAllowed(k) && cmpv(req) != cmpv(lim):
			v.err(p, fmt.Sprintf("Invalid value: %q: must be equal to %s limit of %s", req.String(), k, lim.String()), "set the request equal to the limit")
		case ok && cmpv(req) > cmpv(lim):
			v.err(p, fmt.Sprintf("Invalid value: %q: must be less than or equal to %s limit of %s", req.String(), k, lim.String()), "raise the limit or lower the request")
		case !ok && !overcommitAllowed(k):
			v.err(path+".limits", "Required value: Limit must be set for non overcommitable resources", fmt.Sprintf("add limits: {%s: %s}", k, req.String()))
		}
	}
}

// Pods.

func (v *validator) podSpec(path string, s *api.PodSpec, pod bool) {
	if len(s.Containers) == 0 {
		v.err(path+".containers", "Required value: a pod needs at least one container", "add containers: [{name: app, image: registry.k8s.io/pause}]")
	}
	names := map[string]bool{}
	for _, list := range []struct {
		name string
		cs   []api.Container
	}{{"initContainers", s.InitContainers}, {"containers", s.Containers}} {
		for i := range list.cs {
			c := &list.cs[i]
			p := fmt.Sprintf("%s.%s[%d]", path, list.name, i)
			if c.Name == "" {
				v.err(p+".name", "Required value", "give the container a name")
			} else if !validDNSLabel(c.Name) {
				v.dnsLabel(p+".name", c.Name)
			} else if names[c.Name] {
				v.err(p+".name", fmt.Sprintf("Duplicate value: %q", c.Name), "container names must be unique in a pod")
			}
			names[c.Name] = true
			if strings.TrimSpace(c.Image) == "" {
				// The API server requires it (ValidatePodCreate), so kubectl apply would fail too.
				v.err(p+".image", "Required value", "name an image, e.g. image: registry.k8s.io/pause:3.10")
			}
			v.resources(p+".resources", &c.Resources)
			if c.RestartPolicy != nil {
				if list.name == "containers" {
					v.err(p+".restartPolicy", "Forbidden: may not be set for non-init containers", "")
				} else {
					v.enum(p+".restartPolicy", string(*c.RestartPolicy), enumOf[api.ContainerRestartPolicy]()...)
				}
			}
			for j, port := range c.Ports {
				pp := fmt.Sprintf("%s.ports[%d]", p, j)
				if port.ContainerPort < 1 || port.ContainerPort > 65535 {
					v.err(pp+".containerPort", fmt.Sprintf("Invalid value: %d: must be between 1 and 65535, inclusive", port.ContainerPort), "")
				}
				if port.HostPort != 0 && (port.HostPort < 1 || port.HostPort > 65535) {
					v.err(pp+".hostPort", fmt.Sprintf("Invalid value: %d: must be between 1 and 65535, inclusive", port.HostPort), "")
				}
				if port.Protocol != "" {
					v.enum(pp+".protocol", string(port.Protocol), enumOf[api.Protocol]()...)
				}
			}
		}
	}
	if s.Resources != nil {
		v.resources(path+".resources", s.Resources)
	}
	v.containerResources(path+".overhead", s.Overhead)
	v.labels(path+".nodeSelector", s.NodeSelector)
	if s.NodeName != "" {
		v.dnsSubdomain(path+".nodeName", s.NodeName)
	}
	if s.TerminationGracePeriodSeconds != nil && *s.TerminationGracePeriodSeconds < 0 {
		v.err(path+".terminationGracePeriodSeconds", "must be greater than or equal to 0", "")
	}
	if s.PreemptionPolicy != nil {
		v.enum(path+".preemptionPolicy", string(*s.PreemptionPolicy), enumOf[api.PreemptionPolicy]()...)
	}
	if a := s.Affinity; a != nil {
		v.nodeAffinity(path+".affinity.nodeAffinity", a.NodeAffinity)
		if pa := a.PodAffinity; pa != nil {
			v.podAffinityTerms(path+".affinity.podAffinity", pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution)
		}
		if pa := a.PodAntiAffinity; pa != nil {
			v.podAffinityTerms(path+".affinity.podAntiAffinity", pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution)
		}
	}
	for i, t := range s.Tolerations {
		p := fmt.Sprintf("%s.tolerations[%d]", path, i)
		if t.Key != "" {
			v.labelKey(p+".key", t.Key)
		}
		switch t.Operator {
		case "", api.TolerationOpEqual:
			if t.Key == "" {
				v.err(p+".operator", fmt.Sprintf("Invalid value: %q: operator must be Exists when `key` is empty, which means \"match all values and all keys\"", t.Operator), "use operator: Exists, or set a key")
			}
			if !validLabelValue(t.Value) {
				v.err(p+".value", fmt.Sprintf("Invalid value: %q: %s", t.Value, labelValueMsg), "")
			}
		case api.TolerationOpExists:
			if t.Value != "" {
				v.err(p+".operator", fmt.Sprintf("Invalid value: %q: value must be empty when `operator` is 'Exists'", t.Value), "remove the value")
			}
		default:
			v.enum(p+".operator", string(t.Operator), enumOf[api.TolerationOperator]()...)
		}
		if t.Effect != "" {
			v.enum(p+".effect", string(t.Effect), enumOf[api.TaintEffect]()...)
		}
		if t.TolerationSeconds != nil && t.Effect != api.TaintEffectNoExecute {
			v.err(p+".effect", fmt.Sprintf("Invalid value: %q: effect must be 'NoExecute' when `tolerationSeconds` is set", t.Effect), "")
		}
	}
	v.spreadConstraints(path+".topologySpreadConstraints", s.TopologySpreadConstraints, pod)
	v.podVolumes(path+".volumes", s.Volumes)
	seen := map[string]bool{}
	for i, g := range s.SchedulingGates {
		p := fmt.Sprintf("%s.schedulingGates[%d].name", path, i)
		v.labelKey(p, g.Name)
		if seen[g.Name] {
			v.err(p, fmt.Sprintf("Duplicate value: %q", g.Name), "")
		}
		seen[g.Name] = true
	}
}

// Nodes.

func (v *validator) node(n *api.Node) {
	seen := map[string]bool{}
	for i, t := range n.Spec.Taints {
		p := fmt.Sprintf("spec.taints[%d]", i)
		v.labelKey(p+".key", t.Key)
		if !validLabelValue(t.Value) {
			v.err(p+".value", fmt.Sprintf("Invalid value: %q: %s", t.Value, labelValueMsg), "")
		}
		v.enum(p+".effect", string(t.Effect), enumOf[api.TaintEffect]()...)
		k := t.Key + "\x00" + string(t.Effect)
		if seen[k] {
			v.err(p, fmt.Sprintf("Duplicate value: taints must be unique by key and effect pair, %s:%s", t.Key, t.Effect), "remove one of them")
		}
		seen[k] = true
	}
	// Upstream's ValidateNodeResources checks the quantities of capacity and
	// allocatable, not their names: kubelets publish attachable-volumes-* and
	// device plugins publish any name.
	v.quantities("status.capacity", n.Status.Capacity, true)
	v.quantities("status.allocatable", n.Status.Allocatable, true)
}

// PriorityClasses (scheduling validation; the globalDefault rule is checked in admit).

func (v *validator) priorityClass(pc *api.PriorityClass) {
	if strings.HasPrefix(pc.Name, "system-") {
		if b := builtinPriorityClass(pc.Name); b == nil || b.Value != pc.Value || pc.GlobalDefault {
			v.err("metadata.name", "Forbidden: priority class names with 'system-' prefix are reserved for system use only", "choose a name without the system- prefix")
		}
	} else if pc.Value > 1000000000 {
		v.err("value", fmt.Sprintf("Forbidden: maximum allowed value of a user defined priority is 1000000000, got %d", pc.Value), "use a value of at most 1000000000")
	}
	if pc.PreemptionPolicy != nil {
		v.enum("preemptionPolicy", string(*pc.PreemptionPolicy), enumOf[api.PreemptionPolicy]()...)
	}
}

// PodDisruptionBudgets (policy validation).

func (v *validator) pdb(p *api.PodDisruptionBudget) {
	if p.Spec.MinAvailable != nil && p.Spec.MaxUnavailable != nil {
		v.err("spec", "Invalid value: minAvailable and maxUnavailable cannot be both set", "keep one of them")
	}
	v.intOrPercent("spec.minAvailable", p.Spec.MinAvailable)
	v.intOrPercent("spec.maxUnavailable", p.Spec.MaxUnavailable)
	v.labelSelector("spec.selector", p.Spec.Selector)
}

func (v *validator) intOrPercent(path string, x *api.IntOrString) {
	if x == nil {
		return
	}
	if !x.IsString {
		if x.IntVal < 0 {
			v.err(path, fmt.Sprintf("Invalid value: %d: must be greater than or equal to 0", x.IntVal), "")
		}
		return
	}
	num, ok := strings.CutSuffix(x.StrVal, "%")
	n, err := strconv.Atoi(num)
	if !ok || err != nil {
		v.err(path, fmt.Sprintf("Invalid value: %q: a valid percent string must be a numeric string followed by an ending '%%' (e.g. '1%%',  or '93%%')", x.StrVal), "write an integer or a percentage such as \"50%\"")
		return
	}
	if n < 0 || n > 100 {
		v.err(path, fmt.Sprintf("Invalid value: %q: must be no more than 100%%", x.StrVal), "")
	}
}
