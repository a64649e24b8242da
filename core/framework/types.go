package framework

import (
	"fmt"
	"strings"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/labels"
)

// Default requests assumed for scoring when a container sets none
// (upstream's schedutil.DefaultMilliCPURequest and DefaultMemoryRequest).
const (
	DefaultMilliCPURequest int64 = 100               // 0.1 core
	DefaultMemoryRequest   int64 = 200 * 1024 * 1024 // 200 MiB
)

// Resource is a node's or pod's resources in integer units (cpu in millicores).
type Resource struct {
	MilliCPU         int64
	Memory           int64
	EphemeralStorage int64
	// AllowedPodNumber is only meaningful for allocatable.
	AllowedPodNumber int
	ScalarResources  map[api.ResourceName]int64
}

// NewResource converts a resource list.
func NewResource(rl api.ResourceList) *Resource {
	r := &Resource{}
	for name, q := range rl {
		switch name {
		case api.ResourceCPU:
			r.MilliCPU += q.MilliValue()
		case api.ResourceMemory:
			r.Memory += q.Value()
		case api.ResourceEphemeralStorage:
			r.EphemeralStorage += q.Value()
		case api.ResourcePods:
			r.AllowedPodNumber += int(q.Value())
		default:
			if IsScalarResourceName(name) {
				r.AddScalar(name, q.Value())
			}
		}
	}
	return r
}

// AddRequests adds computed pod requests (pods are not counted here).
func (r *Resource) AddRequests(req api.Requests) {
	for name, v := range req {
		r.AddRequest(name, v)
	}
}

// AddRequest adds one resource's request (api.VisitPodRequests hands them
// out one by one); pods and names that are not scalar resources are ignored.
func (r *Resource) AddRequest(name api.ResourceName, v int64) {
	switch name {
	case api.ResourceCPU:
		r.MilliCPU += v
	case api.ResourceMemory:
		r.Memory += v
	case api.ResourceEphemeralStorage:
		r.EphemeralStorage += v
	case api.ResourcePods:
	default:
		if IsScalarResourceName(name) {
			r.AddScalar(name, v)
		}
	}
}

// AddScalar adds to an extended or hugepages resource.
func (r *Resource) AddScalar(name api.ResourceName, v int64) {
	if r.ScalarResources == nil {
		r.ScalarResources = map[api.ResourceName]int64{}
	}
	r.ScalarResources[name] += v
}

// Sub subtracts o from r.
func (r *Resource) Sub(o *Resource) {
	r.MilliCPU -= o.MilliCPU
	r.Memory -= o.Memory
	r.EphemeralStorage -= o.EphemeralStorage
	r.AllowedPodNumber -= o.AllowedPodNumber
	for n, v := range o.ScalarResources {
		r.AddScalar(n, -v)
	}
}

// Add adds o to r.
func (r *Resource) Add(o *Resource) {
	r.MilliCPU += o.MilliCPU
	r.Memory += o.Memory
	r.EphemeralStorage += o.EphemeralStorage
	r.AllowedPodNumber += o.AllowedPodNumber
	for n, v := range o.ScalarResources {
		r.AddScalar(n, v)
	}
}

// Clone deep-copies r.
func (r *Resource) Clone() *Resource {
	out := *r
	if r.ScalarResources != nil {
		out.ScalarResources = make(map[api.ResourceName]int64, len(r.ScalarResources))
		for k, v := range r.ScalarResources {
			out.ScalarResources[k] = v
		}
	}
	return &out
}

// IsScalarResourceName reports extended, hugepages, *kubernetes.io/-prefixed
// and attachable-volume resources, as upstream's schedutil.IsScalarResourceName.
func IsScalarResourceName(name api.ResourceName) bool {
	return IsExtendedResourceName(name) || IsHugePageResourceName(name) ||
		isPrefixedNativeResource(name) || hasPrefix(string(name), "attachable-volumes-")
}

// IsHugePageResourceName reports hugepages-<size>.
func IsHugePageResourceName(name api.ResourceName) bool { return hasPrefix(string(name), "hugepages-") }

// isPrefixedNativeResource reports a name anywhere containing "kubernetes.io/".
func isPrefixedNativeResource(name api.ResourceName) bool {
	return strings.Contains(string(name), "kubernetes.io/")
}

// IsExtendedResourceName reports a domain-qualified name outside
// *kubernetes.io/ that is not requests.-prefixed and whose quota form
// ("requests."+name) is a qualified name, as v1helper.IsExtendedResourceName.
func IsExtendedResourceName(name api.ResourceName) bool {
	s := string(name)
	if !strings.Contains(s, "/") || isPrefixedNativeResource(name) || hasPrefix(s, "requests.") {
		return false
	}
	return labels.IsQualifiedName("requests." + s)
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

// AffinityTerm is a compiled pod (anti-)affinity term.
type AffinityTerm struct {
	Namespaces        map[string]bool
	Selector          labels.Selector
	TopologyKey       string
	NamespaceSelector labels.Selector
}

// Matches reports whether pod (whose namespace has nsLabels) is selected.
func (at *AffinityTerm) Matches(pod *api.Pod, nsLabels labels.Set) bool {
	if at.Namespaces[pod.Namespace] || at.NamespaceSelector.Matches(nsLabels) {
		return at.Selector.Matches(pod.Labels)
	}
	return false
}

// WeightedAffinityTerm is a preferred term with its weight.
type WeightedAffinityTerm struct {
	AffinityTerm
	Weight int32
}

// PodInfo is a pod with its affinity terms compiled once.
type PodInfo struct {
	Pod                        *api.Pod
	RequiredAffinityTerms      []AffinityTerm
	RequiredAntiAffinityTerms  []AffinityTerm
	PreferredAffinityTerms     []WeightedAffinityTerm
	PreferredAntiAffinityTerms []WeightedAffinityTerm
	// ParseError is set when a term could not be compiled.
	ParseError error
}

// NewPodInfo compiles pod's affinity terms.
func NewPodInfo(pod *api.Pod) *PodInfo {
	pi := &PodInfo{Pod: pod}
	a := pod.Spec.Affinity
	if a == nil {
		return pi
	}
	var errs []error
	if a.PodAffinity != nil {
		pi.RequiredAffinityTerms = affinityTerms(pod, a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution, &errs)
		pi.PreferredAffinityTerms = weightedAffinityTerms(pod, a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution, &errs)
	}
	if a.PodAntiAffinity != nil {
		pi.RequiredAntiAffinityTerms = affinityTerms(pod, a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution, &errs)
		pi.PreferredAntiAffinityTerms = weightedAffinityTerms(pod, a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution, &errs)
	}
	if len(errs) > 0 {
		pi.ParseError = errs[0]
	}
	return pi
}

func newAffinityTerm(pod *api.Pod, term *api.PodAffinityTerm) (AffinityTerm, error) {
	sel, err := labels.LabelSelectorAsSelector(term.LabelSelector)
	if err != nil {
		return AffinityTerm{}, fmt.Errorf("parsing labelSelector of pod %s: %w", pod.Key(), err)
	}
	nsSel, err := labels.LabelSelectorAsSelector(term.NamespaceSelector)
	if err != nil {
		return AffinityTerm{}, fmt.Errorf("parsing namespaceSelector of pod %s: %w", pod.Key(), err)
	}
	ns := map[string]bool{}
	if len(term.Namespaces) == 0 && term.NamespaceSelector == nil {
		ns[pod.Namespace] = true
	}
	for _, n := range term.Namespaces {
		ns[n] = true
	}
	return AffinityTerm{Namespaces: ns, Selector: sel, TopologyKey: term.TopologyKey, NamespaceSelector: nsSel}, nil
}

func affinityTerms(pod *api.Pod, terms []api.PodAffinityTerm, errs *[]error) []AffinityTerm {
	var out []AffinityTerm
	for i := range terms {
		t, err := newAffinityTerm(pod, &terms[i])
		if err != nil {
			*errs = append(*errs, err)
			continue
		}
		out = append(out, t)
	}
	return out
}

func weightedAffinityTerms(pod *api.Pod, terms []api.WeightedPodAffinityTerm, errs *[]error) []WeightedAffinityTerm {
	var out []WeightedAffinityTerm
	for i := range terms {
		t, err := newAffinityTerm(pod, &terms[i].PodAffinityTerm)
		if err != nil {
			*errs = append(*errs, err)
			continue
		}
		out = append(out, WeightedAffinityTerm{AffinityTerm: t, Weight: terms[i].Weight})
	}
	return out
}

// ProtocolPort is a protocol and port pair.
type ProtocolPort struct {
	Protocol string
	Port     int32
}

// DefaultBindAllHostIP is the wildcard host IP.
const DefaultBindAllHostIP = "0.0.0.0"

// HostPortInfo maps host IPs to the protocol/ports used on them.
type HostPortInfo map[string]map[ProtocolPort]struct{}

func sanitize(ip, protocol string) (string, string) {
	if ip == "" {
		ip = DefaultBindAllHostIP
	}
	if protocol == "" {
		protocol = string(api.ProtocolTCP)
	}
	return ip, protocol
}

// Add records a used host port.
func (h HostPortInfo) Add(ip, protocol string, port int32) {
	if port <= 0 {
		return
	}
	ip, protocol = sanitize(ip, protocol)
	if h[ip] == nil {
		h[ip] = map[ProtocolPort]struct{}{}
	}
	h[ip][ProtocolPort{protocol, port}] = struct{}{}
}

// Remove forgets a used host port.
func (h HostPortInfo) Remove(ip, protocol string, port int32) {
	if port <= 0 {
		return
	}
	ip, protocol = sanitize(ip, protocol)
	if m, ok := h[ip]; ok {
		delete(m, ProtocolPort{protocol, port})
		if len(m) == 0 {
			delete(h, ip)
		}
	}
}

// CheckConflict reports whether the port is taken; 0.0.0.0 conflicts with every IP.
func (h HostPortInfo) CheckConflict(ip, protocol string, port int32) bool {
	if port <= 0 {
		return false
	}
	ip, protocol = sanitize(ip, protocol)
	pp := ProtocolPort{protocol, port}
	if ip == DefaultBindAllHostIP {
		for _, m := range h {
			if _, ok := m[pp]; ok {
				return true
			}
		}
		return false
	}
	for _, key := range []string{ip, DefaultBindAllHostIP} {
		if m, ok := h[key]; ok {
			if _, ok := m[pp]; ok {
				return true
			}
		}
	}
	return false
}

// ImageStateSummary is an image's size and how many nodes hold it.
type ImageStateSummary struct {
	Size     int64
	NumNodes int
}
