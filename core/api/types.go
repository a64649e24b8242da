// Package api holds plain, Kubernetes-shaped types for the objects a scenario
// can contain. They mirror the fields of k8s.io/api that the scheduler reads;
// the real packages are not imported because they would add several megabytes
// to the browser build (see shared/browser-facts.md).
package api

import (
	"strings"
	"time"
)

// ResourceName is the name of a resource such as cpu, memory or nvidia.com/gpu.
type ResourceName string

// Well-known resource names.
const (
	ResourceCPU              ResourceName = "cpu"
	ResourceMemory           ResourceName = "memory"
	ResourceEphemeralStorage ResourceName = "ephemeral-storage"
	ResourcePods             ResourceName = "pods"
	ResourceStorage          ResourceName = "storage"
)

// ResourceList maps resource names to quantities.
type ResourceList map[ResourceName]Quantity

// Well-known label keys.
const (
	LabelHostname          = "kubernetes.io/hostname"
	LabelTopologyZone      = "topology.kubernetes.io/zone"
	LabelTopologyRegion    = "topology.kubernetes.io/region"
	LabelFailureDomainZone = "failure-domain.beta.kubernetes.io/zone"
	LabelFailureDomainRegn = "failure-domain.beta.kubernetes.io/region"
	LabelMetadataName      = "kubernetes.io/metadata.name"
)

// OwnerReference points at the object that owns another one.
type OwnerReference struct {
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
	Name       string `json:"name,omitempty"`
	UID        string `json:"uid,omitempty"`
	Controller *bool  `json:"controller,omitempty"`
}

// ObjectMeta is the subset of metav1.ObjectMeta the simulation uses.
type ObjectMeta struct {
	Name                       string            `json:"name,omitempty"`
	Namespace                  string            `json:"namespace,omitempty"`
	UID                        string            `json:"uid,omitempty"`
	Labels                     map[string]string `json:"labels,omitempty"`
	Annotations                map[string]string `json:"annotations,omitempty"`
	CreationTimestamp          *time.Time        `json:"creationTimestamp,omitempty"`
	DeletionTimestamp          *time.Time        `json:"deletionTimestamp,omitempty"`
	DeletionGracePeriodSeconds *int64            `json:"deletionGracePeriodSeconds,omitempty"`
	OwnerReferences            []OwnerReference  `json:"ownerReferences,omitempty"`
}

// Meta returns the metadata itself: every object type embeds ObjectMeta,
// so any of them answers Meta (the loader's generic handling of kinds).
func (m *ObjectMeta) Meta() *ObjectMeta { return m }

// ControllerRef returns the owner reference with controller=true, if any.
func (m *ObjectMeta) ControllerRef() *OwnerReference {
	for i := range m.OwnerReferences {
		if c := m.OwnerReferences[i].Controller; c != nil && *c {
			return &m.OwnerReferences[i]
		}
	}
	return nil
}

// Namespace is a namespace; only its labels matter (namespaceSelector).
type Namespace struct {
	ObjectMeta `json:"metadata"`
}

// Taint effects.
type TaintEffect string

const (
	TaintEffectNoSchedule       TaintEffect = "NoSchedule"
	TaintEffectPreferNoSchedule TaintEffect = "PreferNoSchedule"
	TaintEffectNoExecute        TaintEffect = "NoExecute"
)

// Taint is a node taint.
type Taint struct {
	Key    string      `json:"key"`
	Value  string      `json:"value,omitempty"`
	Effect TaintEffect `json:"effect"`
}

// TolerationOperator is Exists or Equal.
type TolerationOperator string

const (
	TolerationOpExists TolerationOperator = "Exists"
	TolerationOpEqual  TolerationOperator = "Equal"
)

// Toleration is a pod toleration.
type Toleration struct {
	Key               string             `json:"key,omitempty"`
	Operator          TolerationOperator `json:"operator,omitempty"`
	Value             string             `json:"value,omitempty"`
	Effect            TaintEffect        `json:"effect,omitempty"`
	TolerationSeconds *int64             `json:"tolerationSeconds,omitempty"`
}

// ContainerImage is an entry of node.status.images.
type ContainerImage struct {
	Names     []string `json:"names"`
	SizeBytes int64    `json:"sizeBytes,omitempty"`
}

// NodeSpec is the subset of v1.NodeSpec the scheduler reads.
type NodeSpec struct {
	Unschedulable bool    `json:"unschedulable,omitempty"`
	Taints        []Taint `json:"taints,omitempty"`
}

// NodeCondition is a node condition (pressure conditions matter to the kubelet).
type NodeCondition struct {
	Type   string `json:"type"`
	Status string `json:"status"`
}

// NodeStatus is the subset of v1.NodeStatus the scheduler reads.
type NodeStatus struct {
	Capacity    ResourceList     `json:"capacity,omitempty"`
	Allocatable ResourceList     `json:"allocatable,omitempty"`
	Images      []ContainerImage `json:"images,omitempty"`
	Conditions  []NodeCondition  `json:"conditions,omitempty"`
}

// Node is a cluster node.
type Node struct {
	ObjectMeta `json:"metadata"`
	Spec       NodeSpec   `json:"spec,omitempty"`
	Status     NodeStatus `json:"status,omitempty"`
}

// PreemptionPolicy says whether a pod may preempt lower-priority pods.
type PreemptionPolicy string

const (
	PreemptLowerPriority PreemptionPolicy = "PreemptLowerPriority"
	PreemptNever         PreemptionPolicy = "Never"
)

// Protocol is a network protocol of a container port.
type Protocol string

const (
	ProtocolTCP  Protocol = "TCP"
	ProtocolUDP  Protocol = "UDP"
	ProtocolSCTP Protocol = "SCTP"
)

// ContainerPort is a port a container exposes.
type ContainerPort struct {
	Name          string   `json:"name,omitempty"`
	HostPort      int32    `json:"hostPort,omitempty"`
	ContainerPort int32    `json:"containerPort"`
	Protocol      Protocol `json:"protocol,omitempty"`
	HostIP        string   `json:"hostIP,omitempty"`
}

// ResourceRequirements holds requests and limits.
type ResourceRequirements struct {
	Limits   ResourceList `json:"limits,omitempty"`
	Requests ResourceList `json:"requests,omitempty"`
}

// ContainerRestartPolicy is set on restartable init containers (sidecars).
type ContainerRestartPolicy string

// ContainerRestartPolicyAlways marks a sidecar init container.
const ContainerRestartPolicyAlways ContainerRestartPolicy = "Always"

// SleepAction is lifecycle.preStop.sleep.
type SleepAction struct {
	Seconds int64 `json:"seconds"`
}

// LifecycleHandler is a lifecycle hook. Exec and HTTPGet are kept only as
// presence markers: their duration comes from the scenario (see termination).
type LifecycleHandler struct {
	Exec    map[string]any `json:"exec,omitempty"`
	HTTPGet map[string]any `json:"httpGet,omitempty"`
	Sleep   *SleepAction   `json:"sleep,omitempty"`
}

// Lifecycle holds container lifecycle hooks.
type Lifecycle struct {
	PreStop *LifecycleHandler `json:"preStop,omitempty"`
}

// Container is the subset of v1.Container the simulation reads.
type Container struct {
	Name          string                  `json:"name"`
	Image         string                  `json:"image,omitempty"`
	Ports         []ContainerPort         `json:"ports,omitempty"`
	Resources     ResourceRequirements    `json:"resources,omitempty"`
	RestartPolicy *ContainerRestartPolicy `json:"restartPolicy,omitempty"`
	Lifecycle     *Lifecycle              `json:"lifecycle,omitempty"`
}

// LabelSelectorOperator is In, NotIn, Exists or DoesNotExist.
type LabelSelectorOperator string

const (
	LabelSelectorOpIn           LabelSelectorOperator = "In"
	LabelSelectorOpNotIn        LabelSelectorOperator = "NotIn"
	LabelSelectorOpExists       LabelSelectorOperator = "Exists"
	LabelSelectorOpDoesNotExist LabelSelectorOperator = "DoesNotExist"
)

// LabelSelectorRequirement is one matchExpressions entry.
type LabelSelectorRequirement struct {
	Key      string                `json:"key"`
	Operator LabelSelectorOperator `json:"operator"`
	Values   []string              `json:"values,omitempty"`
}

// LabelSelector is metav1.LabelSelector.
type LabelSelector struct {
	MatchLabels      map[string]string          `json:"matchLabels,omitempty"`
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty"`
}

// NodeSelectorOperator adds Gt and Lt to the label operators.
type NodeSelectorOperator string

const (
	NodeSelectorOpIn           NodeSelectorOperator = "In"
	NodeSelectorOpNotIn        NodeSelectorOperator = "NotIn"
	NodeSelectorOpExists       NodeSelectorOperator = "Exists"
	NodeSelectorOpDoesNotExist NodeSelectorOperator = "DoesNotExist"
	NodeSelectorOpGt           NodeSelectorOperator = "Gt"
	NodeSelectorOpLt           NodeSelectorOperator = "Lt"
)

// NodeSelectorRequirement is one node selector expression.
type NodeSelectorRequirement struct {
	Key      string               `json:"key"`
	Operator NodeSelectorOperator `json:"operator"`
	Values   []string             `json:"values,omitempty"`
}

// NodeSelectorTerm ANDs its expressions and fields.
type NodeSelectorTerm struct {
	MatchExpressions []NodeSelectorRequirement `json:"matchExpressions,omitempty"`
	MatchFields      []NodeSelectorRequirement `json:"matchFields,omitempty"`
}

// NodeSelector ORs its terms.
type NodeSelector struct {
	NodeSelectorTerms []NodeSelectorTerm `json:"nodeSelectorTerms"`
}

// PreferredSchedulingTerm is a weighted node preference.
type PreferredSchedulingTerm struct {
	Weight     int32            `json:"weight"`
	Preference NodeSelectorTerm `json:"preference"`
}

// NodeAffinity is spec.affinity.nodeAffinity.
type NodeAffinity struct {
	RequiredDuringSchedulingIgnoredDuringExecution  *NodeSelector             `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
	PreferredDuringSchedulingIgnoredDuringExecution []PreferredSchedulingTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

// PodAffinityTerm selects pods in a topology domain.
type PodAffinityTerm struct {
	LabelSelector     *LabelSelector `json:"labelSelector,omitempty"`
	Namespaces        []string       `json:"namespaces,omitempty"`
	TopologyKey       string         `json:"topologyKey"`
	NamespaceSelector *LabelSelector `json:"namespaceSelector,omitempty"`
	MatchLabelKeys    []string       `json:"matchLabelKeys,omitempty"`
	MismatchLabelKeys []string       `json:"mismatchLabelKeys,omitempty"`
}

// WeightedPodAffinityTerm is a preferred pod (anti-)affinity term.
type WeightedPodAffinityTerm struct {
	Weight          int32           `json:"weight"`
	PodAffinityTerm PodAffinityTerm `json:"podAffinityTerm"`
}

// PodAffinity is spec.affinity.podAffinity.
type PodAffinity struct {
	RequiredDuringSchedulingIgnoredDuringExecution  []PodAffinityTerm         `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
	PreferredDuringSchedulingIgnoredDuringExecution []WeightedPodAffinityTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

// PodAntiAffinity is spec.affinity.podAntiAffinity.
type PodAntiAffinity struct {
	RequiredDuringSchedulingIgnoredDuringExecution  []PodAffinityTerm         `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
	PreferredDuringSchedulingIgnoredDuringExecution []WeightedPodAffinityTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

// Affinity groups the three affinity kinds.
type Affinity struct {
	NodeAffinity    *NodeAffinity    `json:"nodeAffinity,omitempty"`
	PodAffinity     *PodAffinity     `json:"podAffinity,omitempty"`
	PodAntiAffinity *PodAntiAffinity `json:"podAntiAffinity,omitempty"`
}

// UnsatisfiableConstraintAction is DoNotSchedule or ScheduleAnyway.
type UnsatisfiableConstraintAction string

const (
	DoNotSchedule  UnsatisfiableConstraintAction = "DoNotSchedule"
	ScheduleAnyway UnsatisfiableConstraintAction = "ScheduleAnyway"
)

// NodeInclusionPolicy is Honor or Ignore.
type NodeInclusionPolicy string

const (
	NodeInclusionPolicyIgnore NodeInclusionPolicy = "Ignore"
	NodeInclusionPolicyHonor  NodeInclusionPolicy = "Honor"
)

// TopologySpreadConstraint is one entry of spec.topologySpreadConstraints.
type TopologySpreadConstraint struct {
	MaxSkew            int32                         `json:"maxSkew"`
	TopologyKey        string                        `json:"topologyKey"`
	WhenUnsatisfiable  UnsatisfiableConstraintAction `json:"whenUnsatisfiable"`
	LabelSelector      *LabelSelector                `json:"labelSelector,omitempty"`
	MinDomains         *int32                        `json:"minDomains,omitempty"`
	NodeAffinityPolicy *NodeInclusionPolicy          `json:"nodeAffinityPolicy,omitempty"`
	NodeTaintsPolicy   *NodeInclusionPolicy          `json:"nodeTaintsPolicy,omitempty"`
	MatchLabelKeys     []string                      `json:"matchLabelKeys,omitempty"`
}

// PodSchedulingGate blocks scheduling while present.
type PodSchedulingGate struct {
	Name string `json:"name"`
}

// PodSpec is the subset of v1.PodSpec the simulation reads.
type PodSpec struct {
	NodeName                      string                     `json:"nodeName,omitempty"`
	SchedulerName                 string                     `json:"schedulerName,omitempty"`
	PriorityClassName             string                     `json:"priorityClassName,omitempty"`
	Priority                      *int32                     `json:"priority,omitempty"`
	PreemptionPolicy              *PreemptionPolicy          `json:"preemptionPolicy,omitempty"`
	InitContainers                []Container                `json:"initContainers,omitempty"`
	Containers                    []Container                `json:"containers"`
	Overhead                      ResourceList               `json:"overhead,omitempty"`
	Resources                     *ResourceRequirements      `json:"resources,omitempty"`
	NodeSelector                  map[string]string          `json:"nodeSelector,omitempty"`
	Affinity                      *Affinity                  `json:"affinity,omitempty"`
	Tolerations                   []Toleration               `json:"tolerations,omitempty"`
	TopologySpreadConstraints     []TopologySpreadConstraint `json:"topologySpreadConstraints,omitempty"`
	TerminationGracePeriodSeconds *int64                     `json:"terminationGracePeriodSeconds,omitempty"`
	SchedulingGates               []PodSchedulingGate        `json:"schedulingGates,omitempty"`
	Volumes                       []Volume                   `json:"volumes,omitempty"`
}

// Pod condition types the simulation sets or reads.
const (
	PodReady         = "Ready"
	DisruptionTarget = "DisruptionTarget"
	PodScheduled     = "PodScheduled"
	ConditionTrue    = "True"
	ConditionFalse   = "False"
	PodReasonPreempt = "PreemptionByScheduler"
	// PodReasonTerminationByKubelet marks a node-pressure eviction.
	PodReasonTerminationByKubelet = "TerminationByKubelet"
	PodReasonUnschedu             = "Unschedulable"
)

// PodCondition is one entry of status.conditions.
type PodCondition struct {
	Type    string `json:"type"`
	Status  string `json:"status"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// Pod phases.
const (
	PodPending   = "Pending"
	PodRunning   = "Running"
	PodSucceeded = "Succeeded"
	PodFailed    = "Failed"
)

// PodStatus is the subset of v1.PodStatus the simulation reads.
type PodStatus struct {
	Phase             string         `json:"phase,omitempty"`
	NominatedNodeName string         `json:"nominatedNodeName,omitempty"`
	StartTime         *time.Time     `json:"startTime,omitempty"`
	Conditions        []PodCondition `json:"conditions,omitempty"`
}

// Pod is a pod.
type Pod struct {
	ObjectMeta `json:"metadata"`
	Spec       PodSpec   `json:"spec"`
	Status     PodStatus `json:"status,omitempty"`
}

// Key returns namespace/name.
func (p *Pod) Key() string { return p.Namespace + "/" + p.Name }

// PodKeys is each pod's Key, the keys cut from one string (one allocation
// for thousands of pods instead of one each).
func PodKeys(pods []*Pod) []string {
	n := 0
	for _, p := range pods {
		n += len(p.Namespace) + 1 + len(p.Name)
	}
	var b strings.Builder
	b.Grow(n)
	for _, p := range pods {
		b.WriteString(p.Namespace)
		b.WriteByte('/')
		b.WriteString(p.Name)
	}
	all, keys := b.String(), make([]string, len(pods))
	for i, p := range pods {
		n := len(p.Namespace) + 1 + len(p.Name)
		keys[i], all = all[:n], all[n:]
	}
	return keys
}

// Finished reports status.phase Succeeded or Failed: kube-scheduler's pod
// informer lists only other pods (newPodInformer's field selector
// status.phase!=Succeeded,status.phase!=Failed), so to the scheduler a
// finished pod does not exist.
func (p *Pod) Finished() bool {
	return p.Status.Phase == PodSucceeded || p.Status.Phase == PodFailed
}

// PriorityValue returns spec.priority, or 0 when unset (as upstream's corev1helpers.PodPriority).
func (p *Pod) PriorityValue() int32 {
	if p.Spec.Priority != nil {
		return *p.Spec.Priority
	}
	return 0
}

// PriorityClass is scheduling.k8s.io/v1 PriorityClass.
type PriorityClass struct {
	ObjectMeta       `json:"metadata"`
	Value            int32             `json:"value"`
	GlobalDefault    bool              `json:"globalDefault,omitempty"`
	PreemptionPolicy *PreemptionPolicy `json:"preemptionPolicy,omitempty"`
	Description      string            `json:"description,omitempty"`
}

// IntOrString is an int or a string such as "50%".
type IntOrString struct {
	IsString bool
	IntVal   int32
	StrVal   string
}

// PodDisruptionBudgetSpec is policy/v1 PDB spec.
type PodDisruptionBudgetSpec struct {
	MinAvailable   *IntOrString   `json:"minAvailable,omitempty"`
	MaxUnavailable *IntOrString   `json:"maxUnavailable,omitempty"`
	Selector       *LabelSelector `json:"selector,omitempty"`
}

// PodDisruptionBudgetStatus is what the disruption controller computes.
type PodDisruptionBudgetStatus struct {
	DisruptedPods      map[string]time.Time `json:"disruptedPods,omitempty"`
	DisruptionsAllowed int32                `json:"disruptionsAllowed"`
	CurrentHealthy     int32                `json:"currentHealthy"`
	DesiredHealthy     int32                `json:"desiredHealthy"`
	ExpectedPods       int32                `json:"expectedPods"`
}

// PodDisruptionBudget is policy/v1 PodDisruptionBudget.
type PodDisruptionBudget struct {
	ObjectMeta `json:"metadata"`
	Spec       PodDisruptionBudgetSpec   `json:"spec"`
	Status     PodDisruptionBudgetStatus `json:"status,omitempty"`
}
