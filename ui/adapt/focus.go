package adapt

import "github.com/schedplay/schedplay/core/engine"

// focus is what a trace event involves, for the camera that follows the
// action: the event's node (where a pod is bound, the nominated node, the
// node a victim or an evicted pod runs on) and its pods (the pod, then the
// victims a nomination evicts).
func focus(e *engine.Event) (nodes, pods []string) {
	if e.Node != "" {
		nodes = []string{e.Node}
	}
	if e.Pod != "" {
		pods = append(pods, e.Pod)
	}
	pods = append(pods, e.Victims...)
	return nodes, pods
}
