// Package config holds KubeSchedulerConfiguration (v1) and the plugin
// arguments, with upstream's defaults (pkg/scheduler/apis/config/v1).
package config

import "github.com/schedplay/schedplay/core/api"

// KubeSchedulerConfiguration is the subset the simulation honours.
type KubeSchedulerConfiguration struct {
	// PercentageOfNodesToScore: 0 means adaptive.
	PercentageOfNodesToScore *int32
	PodInitialBackoffSeconds int64
	PodMaxBackoffSeconds     int64
	Profiles                 []Profile
}

// Profile is one scheduler profile.
type Profile struct {
	SchedulerName            string
	PercentageOfNodesToScore *int32
	Plugins                  *Plugins
	PluginConfig             []PluginConfig
}

// Plugins lists enabled and disabled plugins per extension point.
type Plugins struct {
	PreEnqueue PluginSet
	QueueSort  PluginSet
	PreFilter  PluginSet
	Filter     PluginSet
	PostFilter PluginSet
	PreScore   PluginSet
	Score      PluginSet
	Reserve    PluginSet
	Permit     PluginSet
	PreBind    PluginSet
	Bind       PluginSet
	PostBind   PluginSet
	MultiPoint PluginSet
}

// PluginSet is the enabled and disabled plugins of one extension point.
type PluginSet struct {
	Enabled  []Plugin
	Disabled []Plugin
}

// Plugin names a plugin and its score weight.
type Plugin struct {
	Name   string
	Weight int32
}

// PluginConfig holds one plugin's arguments (a pointer to one of the *Args types).
type PluginConfig struct {
	Name string
	Args any
}

// ResourceSpec is a resource name with a weight.
type ResourceSpec struct {
	Name   string
	Weight int64
}

// ScoringStrategyType names NodeResourcesFit's scoring strategy.
type ScoringStrategyType string

// Scoring strategies.
const (
	LeastAllocated           ScoringStrategyType = "LeastAllocated"
	MostAllocated            ScoringStrategyType = "MostAllocated"
	RequestedToCapacityRatio ScoringStrategyType = "RequestedToCapacityRatio"
)

// UtilizationShapePoint is a point of the requested-to-capacity shape.
type UtilizationShapePoint struct {
	Utilization int32
	Score       int32
}

// RequestedToCapacityRatioParam holds the shape.
type RequestedToCapacityRatioParam struct {
	Shape []UtilizationShapePoint
}

// ScoringStrategy configures NodeResourcesFit scoring.
type ScoringStrategy struct {
	Type                     ScoringStrategyType
	Resources                []ResourceSpec
	RequestedToCapacityRatio *RequestedToCapacityRatioParam
}

// NodeResourcesFitArgs are NodeResourcesFit's args.
type NodeResourcesFitArgs struct {
	IgnoredResources      []string
	IgnoredResourceGroups []string
	ScoringStrategy       *ScoringStrategy
}

// NodeResourcesBalancedAllocationArgs are BalancedAllocation's args.
type NodeResourcesBalancedAllocationArgs struct {
	Resources []ResourceSpec
}

// PodTopologySpreadConstraintsDefaulting is System or List.
type PodTopologySpreadConstraintsDefaulting string

// Defaulting types.
const (
	SystemDefaulting PodTopologySpreadConstraintsDefaulting = "System"
	ListDefaulting   PodTopologySpreadConstraintsDefaulting = "List"
)

// PodTopologySpreadArgs are PodTopologySpread's args.
type PodTopologySpreadArgs struct {
	DefaultConstraints []api.TopologySpreadConstraint
	DefaultingType     PodTopologySpreadConstraintsDefaulting
}

// InterPodAffinityArgs are InterPodAffinity's args.
type InterPodAffinityArgs struct {
	HardPodAffinityWeight              int32
	IgnorePreferredTermsOfExistingPods bool
}

// NodeAffinityArgs are NodeAffinity's args.
type NodeAffinityArgs struct {
	AddedAffinity *api.NodeAffinity
}

// DefaultPreemptionArgs are DefaultPreemption's args.
type DefaultPreemptionArgs struct {
	MinCandidateNodesPercentage int32
	MinCandidateNodesAbsolute   int32
}
