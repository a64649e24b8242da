package scenario

import (
	"strings"
	"testing"
)

// TestStorageAdmission: the harness defaults and admits storage objects as
// schedplay's loader does (docs/contract.md): DefaultStorageClass picks the
// newest default class, UIDs follow schedplay's scheme, and core validation
// rejects a volume without a source.
func TestStorageAdmission(t *testing.T) {
	sc, err := Parse("t.yaml", []byte(head+`---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: old, annotations: {storageclass.kubernetes.io/is-default-class: "true"}, creationTimestamp: "2025-01-01T00:00:00Z"}
provisioner: a
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: new, annotations: {storageclass.kubernetes.io/is-default-class: "true"}, creationTimestamp: "2025-06-01T00:00:00Z"}
provisioner: b
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: defaulted}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: no-class}
spec: {accessModes: [ReadWriteOnce], storageClassName: "", resources: {requests: {storage: 1Gi}}}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: v}
spec: {accessModes: [ReadWriteOnce], capacity: {storage: 1Gi}, hostPath: {path: /v}}
`))
	if err != nil {
		t.Fatal(err)
	}
	c := sc.PersistentVolumeClaims
	if got := *c[0].Spec.StorageClassName; got != "new" {
		t.Errorf("defaulted class = %q, want new", got)
	}
	if got := *c[1].Spec.StorageClassName; got != "" {
		t.Errorf("explicit empty class = %q", got)
	}
	if c[0].UID != "pvc-default-defaulted" || sc.PersistentVolumes[0].UID != "pv-v" || sc.StorageClasses[0].UID != "sc-old" {
		t.Errorf("uids %q %q %q", c[0].UID, sc.PersistentVolumes[0].UID, sc.StorageClasses[0].UID)
	}
	if m := *sc.StorageClasses[0].VolumeBindingMode; m != "Immediate" {
		t.Errorf("binding mode default = %q", m)
	}
	_, err = Parse("t.yaml", []byte(head+`---
apiVersion: v1
kind: PersistentVolume
metadata: {name: v}
spec: {accessModes: [ReadWriteOnce], capacity: {storage: 1Gi}}
`))
	if err == nil || !strings.Contains(err.Error(), "must specify a volume type") {
		t.Errorf("a volume without a source: %v", err)
	}
}
