// Package engine turns a loaded scenario into what the scheduler reads
// (snapshot, nominated pods, PDB status, one framework per profile) and runs
// it: one explained cycle now, the simulation clock later.
package engine

import (
	"fmt"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
	"github.com/schedplay/schedplay/core/disruption"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/framework/runtime"
	"github.com/schedplay/schedplay/core/plugins"
	"github.com/schedplay/schedplay/core/scenario"
	"github.com/schedplay/schedplay/core/scheduler"
)

// Nominations maps node names to the pods nominated to run there.
type Nominations map[string][]*framework.PodInfo

// NominatedPodsForNode implements runtime.Nominator.
func (n Nominations) NominatedPodsForNode(node string) []*framework.PodInfo { return n[node] }

// NumNominatedNodes counts the nodes with an entry (the simulation deletes
// an entry when its last pod leaves); with none, filtering need not ask
// NominatedPodsForNode for every node.
func (n Nominations) NumNominatedNodes() int { return len(n) }

// ClusterAt is the cluster as the scheduler sees it at one moment.
type ClusterAt struct {
	Snapshot  *framework.Snapshot
	Nominated Nominations
	Lister    *framework.Cluster
}

// BuildCluster builds the scheduler's view of pods and nodes: bound pods
// (terminating ones too: they hold their resources until gone) on their
// nodes, pending pods with a nominatedNodeName in the nominator, and PDB
// status computed as the disruption controller would at now. Finished pods
// are left out of the first two: the scheduler's informer never lists them.
func BuildCluster(s *scenario.Scenario, pods []*api.Pod) *ClusterAt {
	var bound []*api.Pod
	nominated := Nominations{}
	for _, p := range pods {
		if p.Finished() {
			continue
		}
		if p.Spec.NodeName != "" {
			bound = append(bound, p)
		} else if nnn := p.Status.NominatedNodeName; nnn != "" {
			nominated[nnn] = append(nominated[nnn], framework.NewPodInfo(p))
		}
	}
	scale := disruption.WithReplicationControllers(disruption.WorkloadScales(s.ReplicaSets, s.StatefulSets, s.Deployments), s.ReplicationControllers)
	pdbs := make([]*api.PodDisruptionBudget, 0, len(s.PDBs))
	for _, pdb := range s.PDBs {
		c := *pdb
		c.Status = disruption.ComputeStatusWith(pdb, pods, disruption.Options{Now: s.T0, Scale: scale})
		pdbs = append(pdbs, &c)
	}
	storage, _ := InitialStorage(s)
	return &ClusterAt{
		Snapshot:  framework.NewSnapshot(bound, s.Nodes),
		Nominated: nominated,
		Lister: &framework.Cluster{
			Namespaces:             s.Namespaces,
			PDBs:                   pdbs,
			ServiceList:            s.Services,
			ReplicationControllerL: s.ReplicationControllers,
			ReplicaSetList:         s.ReplicaSets,
			StatefulSetList:        s.StatefulSets,
			StorageObjects:         storage,
		},
	}
}

// ProfileFor returns the profile that schedules pods with schedulerName.
func ProfileFor(cfg *config.KubeSchedulerConfiguration, schedulerName string) (*config.Profile, error) {
	if schedulerName == "" {
		schedulerName = config.DefaultSchedulerName
	}
	for i := range cfg.Profiles {
		if cfg.Profiles[i].SchedulerName == schedulerName {
			return &cfg.Profiles[i], nil
		}
	}
	return nil, fmt.Errorf("no scheduler profile is named %q: kube-scheduler would leave this pod alone (add a profile with that schedulerName, or remove spec.schedulerName)", schedulerName)
}

// NewFramework instantiates a profile's plugins over the in-tree registry.
func NewFramework(profile *config.Profile, c *ClusterAt) (*runtime.Framework, error) {
	p := *profile
	p.Plugins = runtime.MergeWithDefaults(profile.Plugins)
	return runtime.NewFramework(plugins.NewInTreeRegistry(), &p, runtime.Options{Nominator: c.Nominated, Cluster: c.Lister})
}

// FindPod returns the pod named namespace/name.
func FindPod(s *scenario.Scenario, key string) (*api.Pod, error) {
	for _, p := range s.Pods {
		if p.Key() == key {
			return p, nil
		}
	}
	return nil, fmt.Errorf("no pod %q in the scenario (name pods as namespace/name, e.g. default/web-1)", key)
}

// Explain runs one cycle for the pending pod key against the t=0 cluster.
func Explain(s *scenario.Scenario, key string) (*scheduler.Explanation, error) {
	pod, err := FindPod(s, key)
	if err != nil {
		return nil, err
	}
	if pod.Finished() {
		return nil, fmt.Errorf("pod %s has finished (status.phase %s); kube-scheduler does not see finished pods, and explain works on pending pods", key, pod.Status.Phase)
	}
	if pod.Spec.NodeName != "" {
		return nil, fmt.Errorf("pod %s is already bound to node %s; explain works on pending pods", key, pod.Spec.NodeName)
	}
	c := BuildCluster(s, s.Pods)
	profile, err := ProfileFor(s.Config, pod.Spec.SchedulerName)
	if err != nil {
		return nil, err
	}
	fwk, err := NewFramework(profile, c)
	if err != nil {
		return nil, fmt.Errorf("building profile %q: %w", profile.SchedulerName, err)
	}
	// At t=0 no cycle has run: the search starts at the first node.
	var global int32
	if g := s.Config.PercentageOfNodesToScore; g != nil {
		global = *g
	}
	return scheduler.Explain(fwk, pod, c.Snapshot, scheduler.Search{Percentage: global})
}
