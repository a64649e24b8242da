package framework

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/schedplay/schedplay/core/api"
)

// ActionType is a bit set of the kinds of change an event carries.
// Update is the union of the specific Update* bits; an incoming event uses
// the most specific bits it can, and a plugin registering a broader set
// still matches it (see MatchClusterEvents).
type ActionType int64

// Action types, in upstream's bit order (the order matters to <= in
// MatchClusterEvents).
const (
	Add ActionType = 1 << iota
	Delete
	UpdateNodeAllocatable
	UpdateNodeLabel
	// UpdateNodeTaint covers taints and spec.unschedulable becoming false.
	UpdateNodeTaint
	UpdateNodeCondition
	UpdateNodeAnnotation
	UpdateNodeDeclaredFeature
	UpdatePodLabel
	// UpdatePodScaleDown: some resource request went down.
	UpdatePodScaleDown
	// UpdatePodToleration: tolerations were added (they cannot be removed).
	UpdatePodToleration
	// UpdatePodSchedulingGatesEliminated: the last scheduling gate went away.
	UpdatePodSchedulingGatesEliminated
	UpdatePodGeneratedResourceClaim

	All ActionType = 1<<iota - 1

	Update = UpdateNodeAllocatable | UpdateNodeLabel | UpdateNodeTaint | UpdateNodeCondition | UpdateNodeAnnotation |
		UpdateNodeDeclaredFeature | UpdatePodLabel | UpdatePodScaleDown | UpdatePodToleration |
		UpdatePodSchedulingGatesEliminated | UpdatePodGeneratedResourceClaim

	// None is no action (an extractor that found nothing).
	None ActionType = 0
)

var actionNames = []struct {
	a    ActionType
	name string
}{
	{Add, "Add"}, {Delete, "Delete"}, {UpdateNodeAllocatable, "UpdateNodeAllocatable"}, {UpdateNodeLabel, "UpdateNodeLabel"},
	{UpdateNodeTaint, "UpdateNodeTaint"}, {UpdateNodeCondition, "UpdateNodeCondition"}, {UpdateNodeAnnotation, "UpdateNodeAnnotation"},
	{UpdateNodeDeclaredFeature, "UpdateNodeDeclaredFeature"}, {UpdatePodLabel, "UpdatePodLabel"}, {UpdatePodScaleDown, "UpdatePodScaleDown"},
	{UpdatePodToleration, "UpdatePodToleration"}, {UpdatePodSchedulingGatesEliminated, "UpdatePodSchedulingGatesEliminated"},
	{UpdatePodGeneratedResourceClaim, "UpdatePodGeneratedResourceClaim"}, {All, "All"}, {Update, "Update"},
}

// String names a single action, All or Update as upstream; other
// combinations print as their names joined by "|".
func (a ActionType) String() string {
	for _, n := range actionNames {
		if n.a == a {
			return n.name
		}
	}
	var parts []string
	for _, n := range actionNames[:13] {
		if a&n.a != 0 {
			parts = append(parts, n.name)
		}
	}
	return strings.Join(parts, "|")
}

// EventResource names the kind of object an event is about.
type EventResource string

// Event resources. AssignedPod and UnschedulablePod are what incoming pod
// events carry; plugins register Pod, which matches both.
const (
	Pod                   EventResource = "Pod"
	AssignedPod           EventResource = "AssignedPod"
	UnschedulablePod      EventResource = "UnschedulablePod"
	Node                  EventResource = "Node"
	PersistentVolume      EventResource = "PersistentVolume"
	PersistentVolumeClaim EventResource = "PersistentVolumeClaim"
	CSINode               EventResource = "storage.k8s.io/CSINode"
	CSIDriver             EventResource = "storage.k8s.io/CSIDriver"
	VolumeAttachment      EventResource = "storage.k8s.io/VolumeAttachment"
	CSIStorageCapacity    EventResource = "storage.k8s.io/CSIStorageCapacity"
	StorageClass          EventResource = "storage.k8s.io/StorageClass"
	ResourceClaim         EventResource = "resource.k8s.io/ResourceClaim"
	ResourceSlice         EventResource = "resource.k8s.io/ResourceSlice"
	DeviceClass           EventResource = "resource.k8s.io/DeviceClass"
	// WildCard with All matches every event and moves every pod.
	WildCard EventResource = "*"
)

// ClusterEvent is a change to the cluster: which kind of object, which change.
type ClusterEvent struct {
	Resource   EventResource
	ActionType ActionType
	// CustomLabel replaces the label of special events (UnschedulableTimeout).
	CustomLabel string
}

// Label names the event as upstream's logs and metrics do ("NodeAdd",
// "AssignedPodDelete", "UnschedulableTimeout").
func (ce ClusterEvent) Label() string {
	if ce.CustomLabel != "" {
		return ce.CustomLabel
	}
	return string(ce.Resource) + ce.ActionType.String()
}

// QueueingHint is a plugin's verdict on whether an event may make a pod it
// rejected schedulable.
type QueueingHint int

// Hints.
const (
	QueueSkip QueueingHint = iota
	Queue
)

func (h QueueingHint) String() string {
	if h == Queue {
		return "Queue"
	}
	return "QueueSkip"
}

// QueueingHintFn decides for pod, rejected by the plugin, whether the change
// from oldObj to newObj (*api.Pod or *api.Node; oldObj nil on add, newObj
// nil on delete) may make it schedulable. An error counts as Queue, so that
// a pod is never stuck by a faulty hint.
type QueueingHintFn func(pod *api.Pod, oldObj, newObj any) (QueueingHint, error)

// ClusterEventWithHint is one registration: a nil QueueingHintFn means Queue.
type ClusterEventWithHint struct {
	Event          ClusterEvent
	QueueingHintFn QueueingHintFn
}

// EnqueueExtensions is implemented by plugins that can reject pods
// (PreEnqueue, PreFilter, Filter) to say which events may lift their
// rejection. A rejecting plugin without it is assumed to care about every
// event (UnrollWildCardResource).
type EnqueueExtensions interface {
	Plugin
	EventsToRegister() ([]ClusterEventWithHint, error)
}

// Special event labels.
const (
	ScheduleAttemptFailure = "ScheduleAttemptFailure"
	BackoffComplete        = "BackoffComplete"
	PopFromBackoffQ        = "PopFromBackoffQ"
	ForceActivate          = "ForceActivate"
	UnschedulableTimeout   = "UnschedulableTimeout"
)

// The events the scheduler's own handlers produce.
var (
	EventAssignedPodAdd       = ClusterEvent{Resource: AssignedPod, ActionType: Add}
	EventAssignedPodUpdate    = ClusterEvent{Resource: AssignedPod, ActionType: Update}
	EventAssignedPodDelete    = ClusterEvent{Resource: AssignedPod, ActionType: Delete}
	EventUnscheduledPodAdd    = ClusterEvent{Resource: UnschedulablePod, ActionType: Add}
	EventUnscheduledPodUpdate = ClusterEvent{Resource: UnschedulablePod, ActionType: Update}
	EventUnscheduledPodDelete = ClusterEvent{Resource: UnschedulablePod, ActionType: Delete}
	EventNodeAdd              = ClusterEvent{Resource: Node, ActionType: Add}
	EventNodeDelete           = ClusterEvent{Resource: Node, ActionType: Delete}
	EventUnschedulableTimeout = ClusterEvent{Resource: WildCard, ActionType: All, CustomLabel: UnschedulableTimeout}
	EventForceActivate        = ClusterEvent{Resource: WildCard, ActionType: All, CustomLabel: ForceActivate}
)

// ClusterEventIsWildCard reports the match-everything event.
func ClusterEventIsWildCard(ce ClusterEvent) bool {
	return ce.Resource == WildCard && ce.ActionType == All
}

// MatchClusterEvents reports whether the registered event ce covers the
// incoming one: same resource (Pod covers AssignedPod and UnschedulablePod),
// overlapping actions, and the incoming actions no broader than ce's (a
// plain Update does not wake a plugin that registered UpdateNodeLabel).
func MatchClusterEvents(ce, incoming ClusterEvent) bool {
	return ClusterEventIsWildCard(ce) ||
		matchEventResources(ce.Resource, incoming.Resource) && ce.ActionType&incoming.ActionType != 0 && incoming.ActionType <= ce.ActionType
}

func matchEventResources(r, incoming EventResource) bool {
	return r == WildCard || r == incoming || r == Pod && (incoming == AssignedPod || incoming == UnschedulablePod)
}

// MatchAnyClusterEvent reports whether any of registered covers ce.
func MatchAnyClusterEvent(ce ClusterEvent, registered []ClusterEvent) bool {
	for _, e := range registered {
		if MatchClusterEvents(e, ce) {
			return true
		}
	}
	return false
}

// UnrollWildCardResource is what a rejecting plugin without
// EnqueueExtensions registers: every action on every resource, no hint.
func UnrollWildCardResource() []ClusterEventWithHint {
	var out []ClusterEventWithHint
	for _, r := range []EventResource{Pod, Node, PersistentVolume, PersistentVolumeClaim, CSINode, CSIDriver,
		CSIStorageCapacity, StorageClass, ResourceClaim, DeviceClass} {
		out = append(out, ClusterEventWithHint{Event: ClusterEvent{Resource: r, ActionType: All}})
	}
	return out
}

// PodSchedulingPropertiesChange turns a pod update into the specific events
// it amounts to (labels, scale down, gates eliminated, tolerations), or a
// plain Update when none applies. The resource says whether the new pod is
// bound.
func PodSchedulingPropertiesChange(newPod, oldPod *api.Pod) []ClusterEvent {
	r := AssignedPod
	if newPod.Spec.NodeName == "" {
		r = UnschedulablePod
	}
	var events []ClusterEvent
	for _, extract := range []func(newPod, oldPod *api.Pod) ActionType{
		extractPodLabelsChange, extractPodScaleDown, extractPodSchedulingGateEliminatedChange, extractPodTolerationChange,
	} {
		if a := extract(newPod, oldPod); a != None {
			events = append(events, ClusterEvent{Resource: r, ActionType: a})
		}
	}
	if len(events) == 0 {
		events = append(events, ClusterEvent{Resource: r, ActionType: Update})
	}
	return events
}

func extractPodLabelsChange(newPod, oldPod *api.Pod) ActionType {
	if !SemanticMapsEqual(newPod.Labels, oldPod.Labels) {
		return UpdatePodLabel
	}
	return None
}

func extractPodScaleDown(newPod, oldPod *api.Pod) ActionType {
	newReqs := api.PodRequests(newPod, api.PodRequestsOptions{})
	for name, old := range api.PodRequests(oldPod, api.PodRequestsOptions{}) {
		if n, ok := newReqs[name]; !ok || old > n {
			return UpdatePodScaleDown
		}
	}
	return None
}

// Tolerations can only be added, so a different count means a new one.
func extractPodTolerationChange(newPod, oldPod *api.Pod) ActionType {
	if len(newPod.Spec.Tolerations) != len(oldPod.Spec.Tolerations) {
		return UpdatePodToleration
	}
	return None
}

func extractPodSchedulingGateEliminatedChange(newPod, oldPod *api.Pod) ActionType {
	if len(newPod.Spec.SchedulingGates) == 0 && len(oldPod.Spec.SchedulingGates) != 0 {
		return UpdatePodSchedulingGatesEliminated
	}
	return None
}

// NodeSchedulingPropertiesChange turns a node update into its specific
// events, in upstream's order; an update changing none of them yields none.
func NodeSchedulingPropertiesChange(newNode, oldNode *api.Node) []ClusterEvent {
	var events []ClusterEvent
	for _, extract := range []func(newNode, oldNode *api.Node) ActionType{
		extractNodeSpecUnschedulableChange, extractNodeAllocatableChange, extractNodeLabelsChange,
		extractNodeTaintsChange, extractNodeConditionsChange, extractNodeAnnotationsChange,
	} {
		if a := extract(newNode, oldNode); a != None {
			events = append(events, ClusterEvent{Resource: Node, ActionType: a})
		}
	}
	return events
}

// Only a node becoming schedulable counts (as UpdateNodeTaint, upstream has
// no separate action for it).
func extractNodeSpecUnschedulableChange(newNode, oldNode *api.Node) ActionType {
	if newNode.Spec.Unschedulable != oldNode.Spec.Unschedulable && !newNode.Spec.Unschedulable {
		return UpdateNodeTaint
	}
	return None
}

func extractNodeAllocatableChange(newNode, oldNode *api.Node) ActionType {
	if !resourceListsEqual(oldNode.Status.Allocatable, newNode.Status.Allocatable) {
		return UpdateNodeAllocatable
	}
	return None
}

func extractNodeLabelsChange(newNode, oldNode *api.Node) ActionType {
	if !SemanticMapsEqual(newNode.Labels, oldNode.Labels) {
		return UpdateNodeLabel
	}
	return None
}

func extractNodeTaintsChange(newNode, oldNode *api.Node) ActionType {
	if len(newNode.Spec.Taints) != len(oldNode.Spec.Taints) ||
		len(newNode.Spec.Taints) != 0 && !reflect.DeepEqual(newNode.Spec.Taints, oldNode.Spec.Taints) {
		return UpdateNodeTaint
	}
	return None
}

// Only condition statuses count, not their timestamps or messages.
func extractNodeConditionsChange(newNode, oldNode *api.Node) ActionType {
	strip := func(cs []api.NodeCondition) map[string]string {
		m := make(map[string]string, len(cs))
		for _, c := range cs {
			m[c.Type] = c.Status
		}
		return m
	}
	if !SemanticMapsEqual(strip(oldNode.Status.Conditions), strip(newNode.Status.Conditions)) {
		return UpdateNodeCondition
	}
	return None
}

func extractNodeAnnotationsChange(newNode, oldNode *api.Node) ActionType {
	if !SemanticMapsEqual(oldNode.Annotations, newNode.Annotations) {
		return UpdateNodeAnnotation
	}
	return None
}

// SemanticMapsEqual compares string maps treating nil and empty alike, as
// equality.Semantic does.
func SemanticMapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// resourceListsEqual compares quantities by value, as equality.Semantic
// does (1000m equals 1).
func resourceListsEqual(a, b api.ResourceList) bool {
	if len(a) != len(b) {
		return false
	}
	for k, q := range a {
		r, ok := b[k]
		if !ok || q.MilliValue() != r.MilliValue() || q.Value() != r.Value() {
			return false
		}
	}
	return true
}

// As converts a hint's objects to T (*api.Pod or *api.Node); a nil object
// stays the zero T. Any other type is an error, which callers turn into Queue.
func As[T any](oldObj, newObj any) (T, T, error) {
	var oldT, newT T
	if oldObj != nil {
		v, ok := oldObj.(T)
		if !ok {
			return oldT, newT, fmt.Errorf("expected %T, but got %T", oldT, oldObj)
		}
		oldT = v
	}
	if newObj != nil {
		v, ok := newObj.(T)
		if !ok {
			return oldT, newT, fmt.Errorf("expected %T, but got %T", newT, newObj)
		}
		newT = v
	}
	return oldT, newT, nil
}
