package disruption

import (
	"strings"

	"github.com/schedplay/schedplay/core/api"
)

// WorkloadScales returns a ScaleLookup over the given workloads, trying the
// controller kinds in the order upstream's finders do: a ReplicaSet owned by
// a Deployment counts as that Deployment, any other ReplicaSet and a
// StatefulSet count as themselves. Unset replicas mean 1, the API default.
func WorkloadScales(replicaSets []*api.ReplicaSet, statefulSets []*api.StatefulSet, deployments []*api.Deployment) ScaleLookup {
	return func(namespace string, ref *api.OwnerReference) (string, int32, bool) {
		switch {
		case verifyGroupKind(ref, "ReplicaSet", "apps", "extensions"):
			rs := findMeta(replicaSets, namespace, ref, func(r *api.ReplicaSet) *api.ObjectMeta { return &r.ObjectMeta })
			if rs == nil {
				return "", 0, false
			}
			owner := rs.ControllerRef()
			if owner == nil || owner.Kind != "Deployment" {
				return rs.UID, replicas(rs.Spec.Replicas), true
			}
			if !verifyGroupKind(owner, "Deployment", "apps", "extensions") {
				return "", 0, false
			}
			d := findMeta(deployments, rs.Namespace, owner, func(d *api.Deployment) *api.ObjectMeta { return &d.ObjectMeta })
			if d == nil {
				return "", 0, false
			}
			return d.UID, replicas(d.Spec.Replicas), true
		case verifyGroupKind(ref, "StatefulSet", "apps"):
			ss := findMeta(statefulSets, namespace, ref, func(s *api.StatefulSet) *api.ObjectMeta { return &s.ObjectMeta })
			if ss == nil {
				return "", 0, false
			}
			return ss.UID, replicas(ss.Spec.Replicas), true
		}
		return "", 0, false
	}
}

// WithReplicationControllers extends a lookup with ReplicationControllers,
// which upstream's disruption controller tries first.
func WithReplicationControllers(next ScaleLookup, rcs []*api.ReplicationController) ScaleLookup {
	return func(namespace string, ref *api.OwnerReference) (string, int32, bool) {
		if verifyGroupKind(ref, "ReplicationController", "") {
			rc := findMeta(rcs, namespace, ref, func(r *api.ReplicationController) *api.ObjectMeta { return &r.ObjectMeta })
			if rc == nil {
				return "", 0, false
			}
			return rc.UID, replicas(rc.Spec.Replicas), true
		}
		if next == nil {
			return "", 0, false
		}
		return next(namespace, ref)
	}
}

func replicas(r *int32) int32 {
	if r == nil {
		return 1
	}
	return *r
}

// findMeta finds the object named by ref in namespace whose UID matches.
func findMeta[T any](objs []T, namespace string, ref *api.OwnerReference, meta func(T) *api.ObjectMeta) T {
	var zero T
	for _, o := range objs {
		m := meta(o)
		if m.Namespace == namespace && m.Name == ref.Name {
			if m.UID != ref.UID {
				return zero
			}
			return o
		}
	}
	return zero
}

// verifyGroupKind checks the reference's kind and the group of its apiVersion.
func verifyGroupKind(ref *api.OwnerReference, kind string, groups ...string) bool {
	if ref.Kind != kind {
		return false
	}
	group := ""
	if i := strings.Index(ref.APIVersion, "/"); i >= 0 {
		group = ref.APIVersion[:i]
	}
	for _, g := range groups {
		if g == group {
			return true
		}
	}
	return false
}
