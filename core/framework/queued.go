package framework

import (
	"time"

	"github.com/schedplay/schedplay/core/api"
)

// QueuedPodInfo is a pod in the scheduling queue.
type QueuedPodInfo struct {
	*PodInfo
	// Timestamp is when the pod was added to the queue (simulated time).
	Timestamp time.Time
	// Attempts counts scheduling attempts (drives backoff).
	Attempts int
	// InitialAttemptTimestamp is when the pod was first tried.
	InitialAttemptTimestamp *time.Time
	// UnschedulablePlugins rejected the pod in its last attempt.
	UnschedulablePlugins map[string]bool
	// PendingPlugins returned Pending in its last attempt.
	PendingPlugins map[string]bool
	// GatingPlugin is the PreEnqueue plugin holding the pod back, if any.
	GatingPlugin string
}

// QueueSortPlugin orders the active queue.
type QueueSortPlugin interface {
	Plugin
	Less(a, b *QueuedPodInfo) bool
}

// BindPlugin binds a pod to a node.
type BindPlugin interface {
	Plugin
	Bind(state *CycleState, pod *api.Pod, nodeName string) *Status
}
