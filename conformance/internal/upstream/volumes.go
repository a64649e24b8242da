package upstream

import (
	"fmt"
	"sort"

	v1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	storagehelpers "k8s.io/component-helpers/storage/volume"
)

// The parts of kube-controller-manager's PV controller and of an external
// CSI provisioner that a scheduling decision depends on, over the fake API
// server (docs/contract.md says what they do and do not do). Matching uses
// component-helpers' FindMatchingVolume, the function the PV controller
// and VolumeBinding share. They act synchronously: at setup, and inside the
// API call that changes a claim or a volume (VolumeBinding's PreBind).

var (
	pvGVR      = schema.GroupVersionResource{Version: "v1", Resource: "persistentvolumes"}
	pvcGVR     = schema.GroupVersionResource{Version: "v1", Resource: "persistentvolumeclaims"}
	scGVR      = schema.GroupVersionResource{Group: "storage.k8s.io", Version: "v1", Resource: "storageclasses"}
	csiNodeGVR = schema.GroupVersionResource{Group: "storage.k8s.io", Version: "v1", Resource: "csinodes"}
	nodesGVR   = schema.GroupVersionResource{Version: "v1", Resource: "nodes"}
)

// installVolumes settles the initial storage objects and makes every later
// update of a claim or volume run the controllers.
func installVolumes(cs *fake.Clientset, tr k8stesting.ObjectTracker) error {
	for _, res := range []struct {
		name string
		gvr  schema.GroupVersionResource
	}{{"persistentvolumes", pvGVR}, {"persistentvolumeclaims", pvcGVR}} {
		gvr := res.gvr
		cs.PrependReactor("update", res.name, func(a k8stesting.Action) (bool, runtime.Object, error) {
			ua := a.(k8stesting.UpdateAction)
			if err := tr.Update(gvr, ua.GetObject(), a.GetNamespace()); err != nil {
				return true, nil, err
			}
			acc, _ := ua.GetObject().(metav1.Object)
			stored, err := tr.Get(gvr, a.GetNamespace(), acc.GetName())
			if err != nil {
				return true, nil, err
			}
			return true, stored, settleVolumes(tr)
		})
	}
	return settleVolumes(tr)
}

type volumeWorld struct {
	tr      k8stesting.ObjectTracker
	claims  []*v1.PersistentVolumeClaim
	volumes []*v1.PersistentVolume
	classes map[string]*storagev1.StorageClass
}

func (w *volumeWorld) load() error {
	w.claims, w.volumes, w.classes = nil, nil, map[string]*storagev1.StorageClass{}
	obj, err := w.tr.List(pvcGVR, schema.GroupVersionKind{Version: "v1", Kind: "PersistentVolumeClaim"}, "")
	if err != nil {
		return err
	}
	for i := range obj.(*v1.PersistentVolumeClaimList).Items {
		w.claims = append(w.claims, obj.(*v1.PersistentVolumeClaimList).Items[i].DeepCopy())
	}
	sort.Slice(w.claims, func(i, j int) bool {
		return w.claims[i].Namespace+"/"+w.claims[i].Name < w.claims[j].Namespace+"/"+w.claims[j].Name
	})
	obj, err = w.tr.List(pvGVR, schema.GroupVersionKind{Version: "v1", Kind: "PersistentVolume"}, "")
	if err != nil {
		return err
	}
	for i := range obj.(*v1.PersistentVolumeList).Items {
		w.volumes = append(w.volumes, obj.(*v1.PersistentVolumeList).Items[i].DeepCopy())
	}
	sort.Slice(w.volumes, func(i, j int) bool { return w.volumes[i].Name < w.volumes[j].Name })
	obj, err = w.tr.List(scGVR, schema.GroupVersionKind{Group: "storage.k8s.io", Version: "v1", Kind: "StorageClass"}, "")
	if err != nil {
		return err
	}
	for i := range obj.(*storagev1.StorageClassList).Items {
		c := obj.(*storagev1.StorageClassList).Items[i]
		w.classes[c.Name] = &c
	}
	return nil
}

func (w *volumeWorld) putVolume(pv *v1.PersistentVolume, create bool) error {
	if create {
		return w.tr.Create(pvGVR, pv, "")
	}
	return w.tr.Update(pvGVR, pv, "")
}

func (w *volumeWorld) putClaim(c *v1.PersistentVolumeClaim) error {
	return w.tr.Update(pvcGVR, c, c.Namespace)
}

// settleVolumes runs the controllers until nothing changes.
func settleVolumes(tr k8stesting.ObjectTracker) error {
	w := &volumeWorld{tr: tr}
	for i := 0; i < 100; i++ {
		if err := w.load(); err != nil {
			return err
		}
		changed, err := w.step()
		if err != nil || !changed {
			return err
		}
	}
	return fmt.Errorf("volumes did not settle")
}

// step makes one change: a volume's phase, or one claim bound or provisioned.
func (w *volumeWorld) step() (bool, error) {
	for _, pv := range w.volumes {
		if pv.Spec.ClaimRef == nil && pv.Status.Phase != v1.VolumeAvailable && pv.Status.Phase != v1.VolumeReleased {
			pv.Status.Phase = v1.VolumeAvailable
			return true, w.putVolume(pv, false)
		}
	}
	for _, c := range w.claims {
		if c.Spec.VolumeName != "" && metav1.HasAnnotation(c.ObjectMeta, storagehelpers.AnnBindCompleted) {
			continue
		}
		if c.Spec.VolumeName != "" {
			pv := w.volume(c.Spec.VolumeName)
			if pv == nil || (pv.Spec.ClaimRef != nil && !storagehelpers.IsVolumeBoundToClaim(pv, c)) {
				continue
			}
			return true, w.bind(pv, c)
		}
		class := w.classes[storagehelpers.GetPersistentVolumeClaimClass(c)]
		delay := class != nil && class.VolumeBindingMode != nil && *class.VolumeBindingMode == storagev1.VolumeBindingWaitForFirstConsumer
		// FindMatchingVolume without a node: a volume prebound to the
		// claim always, other volumes only when binding is Immediate.
		pv, err := storagehelpers.FindMatchingVolume(c, w.volumes, nil, nil, delay, true)
		if err != nil {
			return false, err
		}
		if pv != nil {
			return true, w.bind(pv, c)
		}
		if class == nil || class.Provisioner == "" || class.Provisioner == storagehelpers.NotSupportedProvisioner {
			continue
		}
		var node *v1.Node
		if delay {
			name, ok := c.Annotations[storagehelpers.AnnSelectedNode]
			if !ok {
				continue
			}
			obj, err := w.tr.Get(nodesGVR, "", name)
			if err != nil {
				continue
			}
			node = obj.(*v1.Node)
		}
		return true, w.provision(c, class, node)
	}
	return false, nil
}

func (w *volumeWorld) volume(name string) *v1.PersistentVolume {
	for _, pv := range w.volumes {
		if pv.Name == name {
			return pv
		}
	}
	return nil
}

// bind is the PV controller's bind: volume claimRef and phase, claim
// volumeName, bind-completed and phase.
func (w *volumeWorld) bind(pv *v1.PersistentVolume, c *v1.PersistentVolumeClaim) error {
	if pv.Spec.ClaimRef == nil || pv.Spec.ClaimRef.UID == "" {
		if pv.Spec.ClaimRef == nil {
			metav1.SetMetaDataAnnotation(&pv.ObjectMeta, storagehelpers.AnnBoundByController, "yes")
		}
		pv.Spec.ClaimRef = &v1.ObjectReference{Kind: "PersistentVolumeClaim", APIVersion: "v1", Namespace: c.Namespace, Name: c.Name, UID: c.UID}
	}
	pv.Status.Phase = v1.VolumeBound
	if err := w.putVolume(pv, false); err != nil {
		return err
	}
	if c.Spec.VolumeName == "" {
		metav1.SetMetaDataAnnotation(&c.ObjectMeta, storagehelpers.AnnBoundByController, "yes")
	}
	metav1.SetMetaDataAnnotation(&c.ObjectMeta, storagehelpers.AnnBindCompleted, "yes")
	c.Spec.VolumeName = pv.Name
	c.Status.Phase = v1.ClaimBound
	c.Status.AccessModes = pv.Spec.AccessModes
	c.Status.Capacity = v1.ResourceList{v1.ResourceStorage: pv.Spec.Capacity[v1.ResourceStorage]}
	return w.putClaim(c)
}

// provision is an external provisioner's volume: pvc-<claim UID>, in the
// selected node's topology (the driver's keys on its CSINode, else the
// keys of the class's allowedTopologies), or the first allowed topology.
func (w *volumeWorld) provision(c *v1.PersistentVolumeClaim, class *storagev1.StorageClass, node *v1.Node) error {
	name := "pvc-" + string(c.UID)
	pv := &v1.PersistentVolume{
		ObjectMeta: metav1.ObjectMeta{Name: name, UID: "pv-" + "pvc-" + c.UID,
			Annotations: map[string]string{"pv.kubernetes.io/provisioned-by": class.Provisioner}},
		Spec: v1.PersistentVolumeSpec{
			Capacity:                      v1.ResourceList{v1.ResourceStorage: c.Spec.Resources.Requests[v1.ResourceStorage]},
			AccessModes:                   c.Spec.AccessModes,
			ClaimRef:                      &v1.ObjectReference{Kind: "PersistentVolumeClaim", APIVersion: "v1", Namespace: c.Namespace, Name: c.Name, UID: c.UID},
			PersistentVolumeReclaimPolicy: v1.PersistentVolumeReclaimDelete,
			StorageClassName:              class.Name,
			VolumeMode:                    c.Spec.VolumeMode,
			PersistentVolumeSource:        v1.PersistentVolumeSource{CSI: &v1.CSIPersistentVolumeSource{Driver: class.Provisioner, VolumeHandle: name}},
		},
		Status: v1.PersistentVolumeStatus{Phase: v1.VolumePending},
	}
	if class.ReclaimPolicy != nil {
		pv.Spec.PersistentVolumeReclaimPolicy = *class.ReclaimPolicy
	}
	var reqs []v1.NodeSelectorRequirement
	switch {
	case node != nil:
		for _, k := range w.topologyKeys(class, node.Name) {
			if v, ok := node.Labels[k]; ok {
				reqs = append(reqs, v1.NodeSelectorRequirement{Key: k, Operator: v1.NodeSelectorOpIn, Values: []string{v}})
			}
		}
	case len(class.AllowedTopologies) > 0:
		for _, e := range class.AllowedTopologies[0].MatchLabelExpressions {
			reqs = append(reqs, v1.NodeSelectorRequirement{Key: e.Key, Operator: v1.NodeSelectorOpIn, Values: []string{e.Values[0]}})
		}
	}
	if len(reqs) > 0 {
		pv.Spec.NodeAffinity = &v1.VolumeNodeAffinity{Required: &v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{{MatchExpressions: reqs}}}}
	}
	metav1.SetMetaDataAnnotation(&c.ObjectMeta, storagehelpers.AnnStorageProvisioner, class.Provisioner)
	if err := w.putClaim(c); err != nil {
		return err
	}
	return w.putVolume(pv, true)
}

func (w *volumeWorld) topologyKeys(class *storagev1.StorageClass, node string) []string {
	if obj, err := w.tr.Get(csiNodeGVR, "", node); err == nil {
		for _, d := range obj.(*storagev1.CSINode).Spec.Drivers {
			if d.Name == class.Provisioner && len(d.TopologyKeys) > 0 {
				return d.TopologyKeys
			}
		}
	}
	var keys []string
	seen := map[string]bool{}
	for _, t := range class.AllowedTopologies {
		for _, e := range t.MatchLabelExpressions {
			if !seen[e.Key] {
				seen[e.Key] = true
				keys = append(keys, e.Key)
			}
		}
	}
	return keys
}
