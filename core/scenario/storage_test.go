package scenario

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
)

func TestLoadStorageErrors(t *testing.T) {
	const pvc = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c}\nspec:\n"
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"claim without access modes or size", pvc + "  storageClassName: fast\n",
			[]string{
				`f.yaml:5:3: PersistentVolumeClaim default/c: spec.accessModes: Required value: at least 1 access mode is required (add accessModes: [ReadWriteOnce])`,
				`f.yaml:5:3: PersistentVolumeClaim default/c: spec.resources.requests[storage]: Required value (add storage: 1Gi)`,
			}},
		{"bad access mode", pvc + "  accessModes: [ReadWriteSometimes]\n  resources: {requests: {storage: 1Gi}}\n",
			[]string{`f.yaml:5:17: PersistentVolumeClaim default/c: spec.accessModes[0]: Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"`}},
		{"class without provisioner, bad mode", "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: s}\nvolumeBindingMode: Later\n",
			[]string{
				`f.yaml:1:1: StorageClass s: provisioner: Required value (name a provisioner, or kubernetes.io/no-provisioner for static volumes only)`,
				`f.yaml:4:20: StorageClass s: volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"`,
			}},
		{"volume without capacity", "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: v}\nspec:\n  accessModes: [ReadWriteOnce]\n",
			[]string{
				`f.yaml:5:3: PersistentVolume v: spec: Required value: must specify a volume type (add the volume's source, e.g. csi: {driver: ebs.csi.aws.com, volumeHandle: vol-1})`,
				`f.yaml:5:3: PersistentVolume v: spec.capacity[storage]: Required value (add storage: 1Gi)`,
			}},
		{"pod volume without claim name", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: a, image: i}]\n  volumes: [{name: d, persistentVolumeClaim: {claimName: \"\"}}]\n",
			[]string{`f.yaml:6:58: Pod default/p: spec.volumes[0].persistentVolumeClaim.claimName: Required value (name the PersistentVolumeClaim)`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load("f.yaml", []byte(tc.src))
			var el ErrorList
			if !errors.As(err, &el) {
				t.Fatalf("want an ErrorList, got %v", err)
			}
			var got []string
			for _, d := range el {
				got = append(got, d.Error())
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestLoadStorageDefaults(t *testing.T) {
	src := `apiVersion: storage.k8s.io/v1
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
`
	s, err := Load("f.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]any{
		"defaulted class":     s.PersistentVolumeClaims[0].ClassName(),
		"explicit empty":      s.PersistentVolumeClaims[1].ClassName(),
		"binding mode":        string(*s.StorageClasses[0].VolumeBindingMode),
		"volume mode":         string(*s.PersistentVolumes[0].Spec.VolumeMode),
		"reclaim":             s.PersistentVolumes[0].Spec.PersistentVolumeReclaimPolicy,
		"claim uid":           s.PersistentVolumeClaims[0].UID,
		"claim phase":         s.PersistentVolumeClaims[0].Status.Phase,
		"volume phase at T0":  s.PersistentVolumes[0].Status.Phase,
		"claim default mode":  string(api.ModeOf(s.PersistentVolumeClaims[0].Spec.VolumeMode)),
		"no warnings on load": len(s.Warnings),
	}
	want := map[string]any{
		"defaulted class": "new", "explicit empty": "", "binding mode": "Immediate", "volume mode": "Filesystem",
		"reclaim": "Retain", "claim uid": "pvc-default-defaulted", "claim phase": "Pending", "volume phase at T0": "Pending",
		"claim default mode": "Filesystem", "no warnings on load": 0,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}
