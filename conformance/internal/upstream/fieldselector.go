package upstream

import (
	"strconv"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

// The API server applies a list's or watch's field selector; client-go's fake clientset
// does not. kube-scheduler's pod informer selects status.phase!=Succeeded,
// status.phase!=Failed (pkg/scheduler/scheduler.go newPodInformer), so without this a
// finished pod of the scenario would sit in the scheduler's cache holding its node's
// resources, which no real scheduler sees.

// podFields is the pod registry's ToSelectableFields (pkg/registry/core/pod/strategy.go,
// v1.36) on a v1 Pod.
func podFields(p *v1.Pod) fields.Set {
	podIP := ""
	if len(p.Status.PodIPs) > 0 {
		podIP = p.Status.PodIPs[0].IP
	}
	return fields.Set{
		"metadata.name":            p.Name,
		"metadata.namespace":       p.Namespace,
		"spec.nodeName":            p.Spec.NodeName,
		"spec.restartPolicy":       string(p.Spec.RestartPolicy),
		"spec.schedulerName":       p.Spec.SchedulerName,
		"spec.serviceAccountName":  p.Spec.ServiceAccountName,
		"spec.hostNetwork":         strconv.FormatBool(p.Spec.HostNetwork),
		"status.phase":             string(p.Status.Phase),
		"status.podIP":             podIP,
		"status.nominatedNodeName": p.Status.NominatedNodeName,
	}
}

func podSelected(sel fields.Selector, obj runtime.Object) bool {
	p, ok := obj.(*v1.Pod)
	return !ok || sel.Matches(podFields(p))
}

// selectPodFields makes the clientset's pod lists and watches honour field selectors.
func selectPodFields(cs *fake.Clientset, t k8stesting.ObjectTracker) {
	cs.PrependReactor("list", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		la, ok := a.(k8stesting.ListActionImpl)
		if !ok || la.ListRestrictions.Fields == nil || la.ListRestrictions.Fields.Empty() {
			return false, nil, nil
		}
		obj, err := t.List(la.GetResource(), la.GetKind(), la.GetNamespace(), la.ListOptions)
		if err != nil {
			return true, nil, err
		}
		list := obj.(*v1.PodList)
		kept := list.Items[:0]
		for i := range list.Items {
			if podSelected(la.ListRestrictions.Fields, &list.Items[i]) {
				kept = append(kept, list.Items[i])
			}
		}
		list.Items = kept
		return true, list, nil
	})
	cs.PrependWatchReactor("pods", func(a k8stesting.Action) (bool, watch.Interface, error) {
		wa, ok := a.(k8stesting.WatchActionImpl)
		sel := wa.WatchRestrictions.Fields
		if !ok || sel == nil || sel.Empty() {
			return false, nil, nil
		}
		w, err := t.Watch(wa.GetResource(), wa.GetNamespace(), wa.ListOptions)
		if err != nil {
			return true, nil, err
		}
		// As the API server's watch cache: an object that stops matching is
		// deleted for this watcher; the others pass when they match.
		return true, watch.Filter(w, func(e watch.Event) (watch.Event, bool) {
			if e.Type == watch.Modified && !podSelected(sel, e.Object) {
				return watch.Event{Type: watch.Deleted, Object: e.Object}, true
			}
			return e, e.Type == watch.Error || e.Type == watch.Bookmark || podSelected(sel, e.Object)
		}), nil
	})
}
