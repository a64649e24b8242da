package config

import (
	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/plugins/names"
)

// DefaultSchedulerName is the default profile's name.
const DefaultSchedulerName = "default-scheduler"

// DefaultPercentageOfNodesToScore (0) selects the adaptive percentage.
const DefaultPercentageOfNodesToScore = 0

// DefaultMultiPoint is v1.36's default profile (default_plugins.go), in
// order, with score weights, after the default feature gates are applied:
// DynamicResources goes before DefaultPreemption (DRA is GA) and
// NodeDeclaredFeatures (beta, on in 1.36) is appended.
func DefaultMultiPoint() []Plugin {
	return []Plugin{
		{Name: names.SchedulingGates},
		{Name: names.PrioritySort},
		{Name: names.NodeUnschedulable},
		{Name: names.NodeName},
		{Name: names.TaintToleration, Weight: 3},
		{Name: names.NodeAffinity, Weight: 2},
		{Name: names.NodePorts},
		{Name: names.NodeResourcesFit, Weight: 1},
		{Name: names.VolumeRestrictions},
		{Name: names.NodeVolumeLimits},
		{Name: names.VolumeBinding},
		{Name: names.VolumeZone},
		{Name: names.PodTopologySpread, Weight: 2},
		{Name: names.InterPodAffinity, Weight: 2},
		{Name: names.DynamicResources, Weight: 2},
		{Name: names.DefaultPreemption},
		{Name: names.NodeResourcesBalancedAllocation, Weight: 1},
		{Name: names.ImageLocality, Weight: 1},
		{Name: names.DefaultBinder},
		{Name: names.NodeDeclaredFeatures},
	}
}

// Default returns a configuration with one default profile.
func Default() *KubeSchedulerConfiguration {
	c := &KubeSchedulerConfiguration{}
	SetDefaults(c)
	return c
}

// SetDefaults fills unset fields as the v1 defaulting functions do.
func SetDefaults(c *KubeSchedulerConfiguration) {
	if c.PodInitialBackoffSeconds == 0 {
		c.PodInitialBackoffSeconds = 1
	}
	if c.PodMaxBackoffSeconds == 0 {
		c.PodMaxBackoffSeconds = 10
	}
	if len(c.Profiles) == 0 {
		c.Profiles = []Profile{{}}
	}
	for i := range c.Profiles {
		p := &c.Profiles[i]
		if p.SchedulerName == "" {
			p.SchedulerName = DefaultSchedulerName
		}
		for _, name := range []string{names.DefaultPreemption, names.InterPodAffinity, names.NodeResourcesFit,
			names.NodeResourcesBalancedAllocation, names.PodTopologySpread, names.NodeAffinity} {
			if ArgsFor(p, name) == nil {
				p.PluginConfig = append(p.PluginConfig, PluginConfig{Name: name, Args: NewDefaultArgs(name)})
			} else {
				SetDefaultArgs(ArgsFor(p, name))
			}
		}
	}
}

// ArgsFor returns a profile's args for a plugin, or nil.
func ArgsFor(p *Profile, name string) any {
	for _, pc := range p.PluginConfig {
		if pc.Name == name {
			return pc.Args
		}
	}
	return nil
}

// NewDefaultArgs returns defaulted args for a plugin, or nil if it takes none.
func NewDefaultArgs(name string) any {
	var a any
	switch name {
	case names.DefaultPreemption:
		a = &DefaultPreemptionArgs{}
	case names.InterPodAffinity:
		a = &InterPodAffinityArgs{}
	case names.NodeResourcesFit:
		a = &NodeResourcesFitArgs{}
	case names.NodeResourcesBalancedAllocation:
		a = &NodeResourcesBalancedAllocationArgs{}
	case names.PodTopologySpread:
		a = &PodTopologySpreadArgs{}
	case names.NodeAffinity:
		a = &NodeAffinityArgs{}
	default:
		return nil
	}
	SetDefaultArgs(a)
	return a
}

func defaultResourceSpecs() []ResourceSpec {
	return []ResourceSpec{{Name: string(api.ResourceCPU), Weight: 1}, {Name: string(api.ResourceMemory), Weight: 1}}
}

// SetDefaultArgs applies the v1 defaults to args in place.
func SetDefaultArgs(args any) {
	switch a := args.(type) {
	case *DefaultPreemptionArgs:
		if a.MinCandidateNodesPercentage == 0 {
			a.MinCandidateNodesPercentage = 10
		}
		if a.MinCandidateNodesAbsolute == 0 {
			a.MinCandidateNodesAbsolute = 100
		}
	case *InterPodAffinityArgs:
		if a.HardPodAffinityWeight == 0 {
			a.HardPodAffinityWeight = 1
		}
	case *NodeResourcesFitArgs:
		if a.ScoringStrategy == nil {
			a.ScoringStrategy = &ScoringStrategy{Type: LeastAllocated, Resources: defaultResourceSpecs()}
		}
		if len(a.ScoringStrategy.Resources) == 0 {
			a.ScoringStrategy.Resources = defaultResourceSpecs()
		}
		for i := range a.ScoringStrategy.Resources {
			if a.ScoringStrategy.Resources[i].Weight == 0 {
				a.ScoringStrategy.Resources[i].Weight = 1
			}
		}
	case *NodeResourcesBalancedAllocationArgs:
		if len(a.Resources) == 0 {
			a.Resources = defaultResourceSpecs()
		}
		for i := range a.Resources {
			if a.Resources[i].Weight == 0 {
				a.Resources[i].Weight = 1
			}
		}
	case *PodTopologySpreadArgs:
		if a.DefaultingType == "" {
			a.DefaultingType = SystemDefaulting
		}
	}
}
