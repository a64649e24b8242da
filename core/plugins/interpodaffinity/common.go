package interpodaffinity

import (
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/labels"
)

// namespaces looks up namespace labels for one cycle and remembers them.
type namespaces struct {
	cluster framework.ClusterLister
	cache   map[string]labels.Set
}

func newNamespaces(c framework.ClusterLister) *namespaces {
	return &namespaces{cluster: c, cache: map[string]labels.Set{}}
}

// labelsOf returns a namespace's labels (nil without a cluster lister).
func (n *namespaces) labelsOf(ns string) labels.Set {
	if l, ok := n.cache[ns]; ok {
		return l
	}
	var l labels.Set
	if n.cluster != nil {
		l = n.cluster.NamespaceLabels(ns)
	}
	n.cache[ns] = l
	return l
}

// incomingTermMatches reports whether pod is selected by one of the
// incoming pod's terms. Upstream first unrolls such a term's
// namespaceSelector into its namespace set (all namespaces the selector
// picks; we resolve a pod's namespace when we meet the pod, which is the
// same thing since only namespaces holding pods can ever be asked about)
// and then matches with no namespace labels. The unroll works on a copy of
// the term, so the selector also stays and is matched against the empty
// label set: a selector made only of NotIn/DoesNotExist expressions thus
// selects every namespace. We keep that quirk.
func (n *namespaces) incomingTermMatches(t *framework.AffinityTerm, pod *api.Pod) bool {
	sel := t.NamespaceSelector
	if t.Namespaces[pod.Namespace] || sel.Matches(nil) || sel.Matches(n.labelsOf(pod.Namespace)) {
		return t.Selector.Matches(pod.Labels)
	}
	return false
}

// podMatchesAllAffinityTerms reports whether pod matches every one of the
// incoming pod's terms; no terms means no match.
func (n *namespaces) podMatchesAllAffinityTerms(terms []framework.AffinityTerm, pod *api.Pod) bool {
	if len(terms) == 0 {
		return false
	}
	for i := range terms {
		if !n.incomingTermMatches(&terms[i], pod) {
			return false
		}
	}
	return true
}

// hasPodAffinity reports whether pod has pod affinity or anti-affinity
// terms of any kind (only those can fail to parse).
func hasPodAffinity(pod *api.Pod) bool {
	a := pod.Spec.Affinity
	return a != nil && (a.PodAffinity != nil || a.PodAntiAffinity != nil)
}
