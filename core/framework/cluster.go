package framework

import "github.com/schedplay/schedplay/core/api"

// Cluster is a plain ClusterLister over slices.
type Cluster struct {
	Namespaces             []*api.Namespace
	PDBs                   []*api.PodDisruptionBudget
	ServiceList            []*api.Service
	ReplicationControllerL []*api.ReplicationController
	ReplicaSetList         []*api.ReplicaSet
	StatefulSetList        []*api.StatefulSet
	// StorageObjects is nil in a cluster without storage objects.
	StorageObjects *Storage
}

var _ ClusterLister = (*Cluster)(nil)

// NamespaceLabels returns a namespace's labels plus kubernetes.io/metadata.name,
// which the API server sets on every namespace.
func (c *Cluster) NamespaceLabels(name string) map[string]string {
	out := map[string]string{}
	for _, ns := range c.Namespaces {
		if ns.Name == name {
			for k, v := range ns.Labels {
				out[k] = v
			}
		}
	}
	out[api.LabelMetadataName] = name
	return out
}

// ListNamespaces lists known namespaces.
func (c *Cluster) ListNamespaces() []*api.Namespace { return c.Namespaces }

// PodDisruptionBudgets lists PDBs.
func (c *Cluster) PodDisruptionBudgets() []*api.PodDisruptionBudget { return c.PDBs }

// Services lists services.
func (c *Cluster) Services() []*api.Service { return c.ServiceList }

// ReplicationControllers lists replication controllers.
func (c *Cluster) ReplicationControllers() []*api.ReplicationController {
	return c.ReplicationControllerL
}

// ReplicaSets lists replica sets.
func (c *Cluster) ReplicaSets() []*api.ReplicaSet { return c.ReplicaSetList }

// StatefulSets lists stateful sets.
func (c *Cluster) StatefulSets() []*api.StatefulSet { return c.StatefulSetList }

// Storage reads the storage objects (a nil *Storage finds none).
func (c *Cluster) Storage() StorageLister { return c.StorageObjects }
