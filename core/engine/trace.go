package engine

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"
)

// The trace is the simulation's record: one Event per thing that happened,
// in order. This file is its one definition: the kinds, the JSON form
// (`schedplay simulate --trace`, the browser bridge) and the text form
// (`schedplay simulate`). docs/contract.md describes both forms.

// Event kinds in the trace. Every Event has Seq, T, Kind and Reason; the
// comments say which other fields a kind sets.
const (
	// EvQueued: a pending pod enters the scheduling queue (Pod, Queue).
	EvQueued = "Queued"
	// EvGated: a PreEnqueue plugin holds a pod back (Pod, Queue).
	EvGated = "Gated"
	// EvIgnored: a pod the engine cannot take (no such profile, a name
	// taken, an unknown node) (Pod).
	EvIgnored = "Ignored"
	// EvScheduled: a cycle bound a pod (Pod, Node; Ties, and TieCount past
	// 8, when nodes shared the top score).
	EvScheduled = "Scheduled"
	// EvUnschedulable: a cycle found no node; the pod went back to Queue
	// (Pod, Queue).
	EvUnschedulable = "Unschedulable"
	// EvNominated: preemption nominated the preemptor to Node and chose
	// Victims (Pod, Node, Victims).
	EvNominated = "Nominated"
	// EvPreempted: a victim's graceful deletion starts (Pod, Node, Until).
	EvPreempted = "Preempted"
	// EvNominationCleared: a lower-priority pod lost its nomination to a
	// preemptor (Pod, Node).
	EvNominationCleared = "NominationCleared"
	// EvPreStopDone: a preStop hook finished; containers get SIGTERM (Pod, Node).
	EvPreStopDone = "SIGTERM"
	// EvKilled: a grace period ended with containers running (Pod, Node).
	EvKilled = "SIGKILL"
	// EvDeleted: a pod is gone and its resources are free (Pod, Node where it ran).
	EvDeleted = "Deleted"
	// EvFailed: an evicted pod's containers are gone; the pod object stays,
	// phase Failed, its resources free (Pod, Node where it ran).
	EvFailed = "Failed"
	// EvRequeued: a cluster event moved a pod between sub-queues (Pod, Queue).
	EvRequeued = "Requeued"
	// EvFlush: nothing could happen, so the clock jumped and the
	// unschedulable pods were flushed back.
	EvFlush = "Flush"
	// EvCreated: a controller or the timeline created a pod (Pod, Node when
	// it comes bound) or a ReplicaSet.
	EvCreated = "Created"
	// EvTerminating: a controller or the timeline deleted a running pod;
	// its graceful termination starts (Pod, Node, Until).
	EvTerminating = "Terminating"
	// EvEvicted: the kubelet's node-pressure eviction kills a pod (Pod,
	// Node, Until).
	EvEvicted = "Evicted"
	// EvAction: a timeline action took effect or was ignored (Node when it
	// names one).
	EvAction = "Action"
	// EvPressure: a node's pressure signal fell within its limit (Node).
	EvPressure = "Pressure"
	// EvWaiting: a StatefulSet waits before its next pod.
	EvWaiting = "Waiting"
	// EvVolume: the PV controller, the provisioner or the StatefulSet
	// controller created, bound or settled a claim or volume.
	EvVolume = "Volume"
	// EvPreBind: VolumeBinding's PreBind bound the pod's delayed claims
	// on its chosen node, just before the pod is bound (Pod, Node).
	EvPreBind = "PreBind"
)

// Event is one line of the trace.
type Event struct {
	Seq int `json:"seq"`
	// T is simulated time since the scenario's start.
	T      Duration `json:"t"`
	Kind   string   `json:"kind"`
	Pod    string   `json:"pod,omitempty"`
	Node   string   `json:"node,omitempty"`
	Reason string   `json:"reason"`
	// Victims are the pods a preemption evicts (on Nominated).
	Victims []string `json:"victims,omitempty"`
	// Queue is where a pod went (on Queued, Gated, Unschedulable, Requeued).
	Queue string `json:"queue,omitempty"`
	// Until is when a termination ends (on Preempted, Terminating, Evicted).
	Until *Duration `json:"until,omitempty"`
	// Ties are the nodes that shared the top score when the pod was bound
	// to one of them (on Scheduled): which one kube-scheduler takes
	// depends on the order its parallel filter found them in; Node is the
	// one this run took. At most
	// scheduler.MaxTiedNames are named (the first by name); TieCount
	// counts them all when there are more.
	Ties     []string `json:"ties,omitempty"`
	TieCount int      `json:"tieCount,omitempty"`
}

// Duration prints as seconds in JSON.
type Duration time.Duration

// MarshalJSON writes seconds as a number.
func (d Duration) MarshalJSON() ([]byte, error) {
	return []byte(fmt.Sprintf("%g", time.Duration(d).Seconds())), nil
}

func (d Duration) String() string { return time.Duration(d).String() }

// Subject is what the event is about: "pod", "pod @ node", or "@ node"
// for a node's event.
func (e *Event) Subject() string {
	s := e.Pod
	if e.Node != "" {
		s += " @ " + e.Node
	}
	return s
}

// WriteTraceJSON writes the trace's JSON form: one event per line.
func WriteTraceJSON(w io.Writer, events []Event) error {
	enc := json.NewEncoder(w)
	for i := range events {
		if err := enc.Encode(&events[i]); err != nil {
			return fmt.Errorf("writing trace event %d: %w", events[i].Seq, err)
		}
	}
	return nil
}

// WriteTraceText writes the trace's text form: one event per line, in
// aligned columns (time, kind, subject, reason).
func WriteTraceText(w io.Writer, events []Event) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for i := range events {
		e := &events[i]
		fmt.Fprintf(tw, "%8s\t%s\t%s\t%s\n", e.T.String(), e.Kind, e.Subject(), e.Reason)
	}
	return tw.Flush()
}
