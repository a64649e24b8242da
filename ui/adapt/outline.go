package adapt

import (
	"strconv"

	"github.com/schedplay/schedplay/ui"
)

// Outline is the canvas's picture as text: the same scene (built from the
// engine's state after the shown event) read at the shown time, zones and
// nodes in the order the canvas lays them out. The page's text view and
// its announcements print it as it is; nothing in it is worked out in
// the page.
type Outline struct {
	// T is the simulated time shown, in seconds; Caption the canvas's
	// caption line.
	T       float64       `json:"t"`
	Caption string        `json:"caption"`
	ZoneKey string        `json:"zoneKey"`
	Zones   []OutlineZone `json:"zones"`
	// Pending are the queue lane's pods, in the lane's order.
	Pending []OutlinePod `json:"pending"`
}

// OutlineZone is one region of the canvas.
type OutlineZone struct {
	// Name is the zone label's value ("" for unlabelled nodes).
	Name  string        `json:"name"`
	Nodes []OutlineNode `json:"nodes"`
}

// OutlineNode is one node card.
type OutlineNode struct {
	Name string `json:"name"`
	// CPU, Memory and Pods are the card's bars: requested / allocatable.
	CPU      string   `json:"cpu"`
	Memory   string   `json:"memory"`
	Pods     string   `json:"pods"`
	Cordoned bool     `json:"cordoned,omitempty"`
	Taints   []string `json:"taints,omitempty"`
	// Nominated are the pending pods preemption reserved room for here.
	Nominated []string     `json:"nominated,omitempty"`
	Bound     []OutlinePod `json:"bound"`
}

// OutlinePod is one pod chip.
type OutlinePod struct {
	Key           string `json:"key"`
	Node          string `json:"node,omitempty"`
	Phase         string `json:"phase"`
	Priority      int32  `json:"priority"`
	PriorityClass string `json:"priorityClass,omitempty"`
	// Queue is a pending pod's sub-queue, with its backoff left
	// ("backoffQ, 2s left").
	Queue         string `json:"queue,omitempty"`
	NominatedNode string `json:"nominatedNode,omitempty"`
	// Terminating is the countdown of a pod being deleted or evicted, as
	// the canvas's tooltip shows it ("SIGTERM · SIGKILL in 12s").
	Terminating string `json:"terminating,omitempty"`
	Evicted     bool   `json:"evicted,omitempty"`
	Reason      string `json:"reason,omitempty"`
}

// OutlineOf reads scene s at simulated time now, its caption in words w
// (nil: English).
func OutlineOf(s *ui.Scene, now float64, w *ui.Words) Outline {
	o := Outline{T: now, Caption: s.Caption(w), ZoneKey: s.ZoneKey, Zones: []OutlineZone{}, Pending: []OutlinePod{}}
	for i := range s.Pending {
		o.Pending = append(o.Pending, outlinePod(&s.Pending[i], now, w))
	}
	for _, z := range s.Zones() {
		oz := OutlineZone{Name: z.Name, Nodes: make([]OutlineNode, 0, len(z.Nodes))}
		for _, n := range z.Nodes {
			req := n.Requested()
			on := OutlineNode{
				Name:     n.Name,
				CPU:      ui.FormatCPU(req.MilliCPU) + " / " + ui.FormatCPU(n.Allocatable.MilliCPU),
				Memory:   ui.FormatMemory(req.Memory) + " / " + ui.FormatMemory(n.Allocatable.Memory),
				Pods:     strconv.FormatInt(req.Pods, 10) + " / " + strconv.FormatInt(n.Allocatable.Pods, 10),
				Cordoned: n.Unschedulable,
				Bound:    make([]OutlinePod, 0, len(n.Pods)),
			}
			for _, t := range n.Taints {
				on.Taints = append(on.Taints, t.String())
			}
			for i := range n.Ghosts {
				on.Nominated = append(on.Nominated, n.Ghosts[i].Key())
			}
			for i := range n.Pods {
				on.Bound = append(on.Bound, outlinePod(&n.Pods[i], now, w))
			}
			oz.Nodes = append(oz.Nodes, on)
		}
		o.Zones = append(o.Zones, oz)
	}
	return o
}

func outlinePod(p *ui.Pod, now float64, w *ui.Words) OutlinePod {
	op := OutlinePod{Key: p.Key(), Node: p.Node, Phase: p.Phase, Priority: p.Priority, PriorityClass: p.PriorityClass,
		NominatedNode: p.NominatedNode, Reason: p.Reason}
	if op.Phase == "" {
		op.Phase = "Pending"
	}
	if p.Node == "" {
		op.Queue = p.Queue
		if p.Queue == ui.QueueBackoff {
			op.Queue = ui.QueueLeft(w, p.Queue, max(p.BackoffUntil-now, 0))
		}
	}
	if t := p.Termination; t != nil {
		op.Terminating = t.Countdown(now, w)
		op.Evicted = t.Eviction
	}
	return op
}
