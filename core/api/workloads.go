package api

// Service is v1 Service; only its selector matters (default spread constraints).
type Service struct {
	ObjectMeta `json:"metadata"`
	Spec       ServiceSpec `json:"spec"`
}

// ServiceSpec holds the pod selector.
type ServiceSpec struct {
	Selector map[string]string `json:"selector,omitempty"`
}

// ReplicationController is v1 ReplicationController (selector and replicas).
type ReplicationController struct {
	ObjectMeta `json:"metadata"`
	Spec       ReplicationControllerSpec `json:"spec"`
}

// ReplicationControllerSpec holds the pod selector and the scale (PDBs read it).
type ReplicationControllerSpec struct {
	Replicas *int32            `json:"replicas,omitempty"`
	Selector map[string]string `json:"selector,omitempty"`
}

// ReplicaSet is apps/v1 ReplicaSet (selector, replicas and template).
type ReplicaSet struct {
	ObjectMeta `json:"metadata"`
	Spec       WorkloadSpec `json:"spec"`
}

// StatefulSet is apps/v1 StatefulSet (selector, replicas and template).
type StatefulSet struct {
	ObjectMeta `json:"metadata"`
	Spec       WorkloadSpec `json:"spec"`
}

// Deployment is apps/v1 Deployment (selector, replicas and template).
type Deployment struct {
	ObjectMeta `json:"metadata"`
	Spec       WorkloadSpec `json:"spec"`
}

// WorkloadSpec is the part of a ReplicaSet, StatefulSet or Deployment spec
// the simulation uses.
type WorkloadSpec struct {
	Replicas *int32         `json:"replicas,omitempty"`
	Selector *LabelSelector `json:"selector,omitempty"`
	Template PodTemplate    `json:"template"`
	// VolumeClaimTemplates (StatefulSets only) become one claim per pod.
	VolumeClaimTemplates []PersistentVolumeClaimTemplate `json:"volumeClaimTemplates,omitempty"`
}

// PodTemplate is a pod template.
type PodTemplate struct {
	ObjectMeta `json:"metadata,omitempty"`
	Spec       PodSpec `json:"spec"`
}
