package scenario

import (
	"fmt"
	"sort"

	v1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/apis/core"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	"k8s.io/kubernetes/pkg/apis/storage"
	storagevalidation "k8s.io/kubernetes/pkg/apis/storage/validation"
)

// Storage objects: PersistentVolumes, PersistentVolumeClaims, StorageClasses,
// CSINodes and CSIDrivers, validated with the API server's validation and
// admitted with DefaultStorageClass.

// addStorage files a decoded storage object; it reports whether obj was one.
func (sc *Scenario) addStorage(obj runtime.Object) (bool, field.ErrorList, error) {
	acc, ok := obj.(metav1.Object)
	if !ok {
		return false, nil, nil
	}
	var errs field.ErrorList
	var err error
	prefix := ""
	switch o := obj.(type) {
	case *v1.PersistentVolume:
		o.Namespace, prefix = "", "pv-"
		var in core.PersistentVolume
		if err = toInternal(o, &in); err == nil {
			errs = corevalidation.ValidatePersistentVolume(&in, corevalidation.ValidationOptionsForPersistentVolume(&in, nil))
		}
		sc.PersistentVolumes = append(sc.PersistentVolumes, o)
	case *v1.PersistentVolumeClaim:
		if o.Namespace == "" {
			o.Namespace = metav1.NamespaceDefault
		}
		prefix = "pvc-" + o.Namespace + "-"
		var in core.PersistentVolumeClaim
		if err = toInternal(o, &in); err == nil {
			errs = corevalidation.ValidatePersistentVolumeClaim(&in, corevalidation.ValidationOptionsForPersistentVolumeClaim(&in, nil))
		}
		sc.PersistentVolumeClaims = append(sc.PersistentVolumeClaims, o)
	case *storagev1.StorageClass:
		o.Namespace, prefix = "", "sc-"
		var in storage.StorageClass
		if err = toInternal(o, &in); err == nil {
			errs = storagevalidation.ValidateStorageClass(&in)
		}
		sc.StorageClasses = append(sc.StorageClasses, o)
	case *storagev1.CSINode:
		o.Namespace, prefix = "", "csinode-"
		sc.CSINodes = append(sc.CSINodes, o)
	case *storagev1.CSIDriver:
		o.Namespace, prefix = "", "csidriver-"
		sc.CSIDrivers = append(sc.CSIDrivers, o)
	default:
		return false, nil, nil
	}
	if acc.GetUID() == "" {
		acc.SetUID(types.UID(prefix + acc.GetName()))
	}
	return true, errs, err
}

// storageObjects lists the storage objects, classes first.
func (sc *Scenario) storageObjects() []runtime.Object {
	var out []runtime.Object
	for _, o := range sc.StorageClasses {
		out = append(out, o)
	}
	for _, o := range sc.CSIDrivers {
		out = append(out, o)
	}
	for _, o := range sc.CSINodes {
		out = append(out, o)
	}
	for _, o := range sc.PersistentVolumes {
		out = append(out, o)
	}
	for _, o := range sc.PersistentVolumeClaims {
		out = append(out, o)
	}
	return out
}

// admitClaims is the DefaultStorageClass admission plugin
// (plugin/pkg/admission/storage/storageclass/setdefault with
// volumeutil.GetDefaultClass): a claim without a class, and without the
// beta annotation, gets the newest default class, then the first by name.
func (sc *Scenario) admitClaims() {
	var defaults []*storagev1.StorageClass
	for _, c := range sc.StorageClasses {
		if c.Annotations["storageclass.kubernetes.io/is-default-class"] == "true" || c.Annotations["storageclass.beta.kubernetes.io/is-default-class"] == "true" {
			defaults = append(defaults, c)
		}
	}
	sort.Slice(defaults, func(i, j int) bool {
		ti, tj := defaults[i].CreationTimestamp.UnixNano(), defaults[j].CreationTimestamp.UnixNano()
		if ti == tj {
			return defaults[i].Name < defaults[j].Name
		}
		return ti > tj
	})
	for _, c := range sc.PersistentVolumeClaims {
		if _, beta := c.Annotations[v1.BetaStorageClassAnnotation]; beta || c.Spec.StorageClassName != nil || len(defaults) == 0 {
			continue
		}
		name := defaults[0].Name
		c.Spec.StorageClassName = &name
	}
	for _, c := range sc.PersistentVolumeClaims {
		if c.Status.Phase == "" {
			c.Status.Phase = v1.ClaimPending
		}
	}
	for _, v := range sc.PersistentVolumes {
		if v.Status.Phase == "" {
			v.Status.Phase = v1.VolumePending
		}
	}
}

func storageError(kind string, o metav1.Object, errs field.ErrorList) string {
	name := o.GetName()
	if o.GetNamespace() != "" {
		name = o.GetNamespace() + "/" + name
	}
	return fmt.Sprintf("%s %s is invalid: %v", kind, name, errs.ToAggregate())
}
