package upstream

import (
	"strconv"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

// rvTracker wraps the fake clientset's object tracker so that every write stores a new
// metadata.resourceVersion, as the API server does. client-go's tracker leaves the field
// as written (create and patch both keep ""), and the scheduler's pod update handler
// (updatePodInSchedulingQueue) drops an update whose resourceVersion did not change: the
// scheduler would never see its own status.nominatedNodeName patches on queued pods.
type rvTracker struct {
	k8stesting.ObjectTracker
	rv *atomic.Int64 // one counter for every resource, as etcd's revision
}

// withRV returns a copy of obj carrying the next resourceVersion (the caller's object is
// left alone, as a real client returns a new object).
func (t *rvTracker) withRV(obj runtime.Object) runtime.Object {
	obj = obj.DeepCopyObject()
	t.stamp(obj)
	return obj
}

func (t *rvTracker) stamp(obj runtime.Object) {
	if acc, err := meta.Accessor(obj); err == nil {
		acc.SetResourceVersion(strconv.FormatInt(t.rv.Add(1), 10))
	}
}

func (t *rvTracker) Add(obj runtime.Object) error {
	return t.ObjectTracker.Add(t.withRV(obj))
}

func (t *rvTracker) Create(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.CreateOptions) error {
	return t.ObjectTracker.Create(gvr, t.withRV(obj), ns, opts...)
}

func (t *rvTracker) Update(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.UpdateOptions) error {
	return t.ObjectTracker.Update(gvr, t.withRV(obj), ns, opts...)
}

// Patch stamps obj in place: ObjectReaction's patch returns the very object it passes
// here (a fresh copy it owns), and the response must carry the new resourceVersion.
func (t *rvTracker) Patch(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.PatchOptions) error {
	t.stamp(obj)
	return t.ObjectTracker.Patch(gvr, obj, ns, opts...)
}

// newClientset is fake.NewClientset whose object reactions go through an rvTracker. It
// returns the tracker too: writes the harness makes itself (binding, graceful delete,
// PDB status) must use it rather than cs.Tracker().
func newClientset(objects ...runtime.Object) (*fake.Clientset, *rvTracker, error) {
	cs := fake.NewClientset()
	t := &rvTracker{ObjectTracker: cs.Tracker(), rv: &atomic.Int64{}}
	// Replace the default "*" object reaction (the watch reaction reads the same
	// underlying tracker and is kept).
	cs.ReactionChain = nil
	cs.AddReactor("*", "*", k8stesting.ObjectReaction(t))
	for _, o := range objects {
		if err := t.Add(o); err != nil {
			return nil, nil, err
		}
	}
	return cs, t, nil
}
