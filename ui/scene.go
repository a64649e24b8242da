// Package ui draws a cluster on an ebiten canvas: zones as regions, nodes as
// cards with resource bars, pods as chips coloured by PriorityClass, and the
// pending pods in a queue lane.
//
// The only input of drawing is a Scene, a read-only view model built from
// whatever the engine reports; layout, camera, hit testing and animation are
// plain Go (tested natively), and the ebiten files (build tag js or ebiten)
// only turn their results into pixels.
package ui

import "sort"

// Resources is an amount of the three resources a node card shows.
type Resources struct {
	MilliCPU int64 `json:"milliCPU"`
	Memory   int64 `json:"memory"`
	Pods     int64 `json:"pods"`
}

// Add returns r+o.
func (r Resources) Add(o Resources) Resources {
	return Resources{MilliCPU: r.MilliCPU + o.MilliCPU, Memory: r.Memory + o.Memory, Pods: r.Pods + o.Pods}
}

// Taint is a node taint as shown on a card.
type Taint struct {
	Key    string `json:"key"`
	Value  string `json:"value,omitempty"`
	Effect string `json:"effect"`
}

// String renders the taint the way kubectl describe does: key=value:Effect.
func (t Taint) String() string {
	s := t.Key
	if t.Value != "" {
		s += "=" + t.Value
	}
	return s + ":" + t.Effect
}

// Pod is one pod of the scene, bound or pending.
type Pod struct {
	Namespace     string    `json:"namespace"`
	Name          string    `json:"name"`
	Node          string    `json:"node,omitempty"`
	PriorityClass string    `json:"priorityClass,omitempty"`
	Priority      int32     `json:"priority"`
	Phase         string    `json:"phase,omitempty"`
	NominatedNode string    `json:"nominatedNode,omitempty"`
	Requests      Resources `json:"requests"`
	// Reason says why a pending pod is pending, when the engine knows.
	Reason string `json:"reason,omitempty"`
}

// Key returns namespace/name, the pod's identity on the canvas.
func (p *Pod) Key() string { return p.Namespace + "/" + p.Name }

// Node is one node card.
type Node struct {
	Name string `json:"name"`
	// Zone is the node's value of the scene's zone key; empty when unlabelled.
	Zone          string    `json:"zone,omitempty"`
	Allocatable   Resources `json:"allocatable"`
	Taints        []Taint   `json:"taints,omitempty"`
	Unschedulable bool      `json:"unschedulable,omitempty"`
	// Pods are the pods bound to the node, in the order to draw them.
	Pods []Pod `json:"pods,omitempty"`
}

// Requested sums the requests of the node's pods; pods counts one per pod,
// as the scheduler's NodeInfo does.
func (n *Node) Requested() Resources {
	var r Resources
	for i := range n.Pods {
		r = r.Add(Resources{MilliCPU: n.Pods[i].Requests.MilliCPU, Memory: n.Pods[i].Requests.Memory})
		r.Pods++
	}
	return r
}

// PriorityClass is an entry of the legend.
type PriorityClass struct {
	Name  string `json:"name"`
	Value int32  `json:"value"`
}

// Scene is everything the canvas shows at one moment.
type Scene struct {
	// ZoneKey is the node label that groups nodes into regions.
	ZoneKey string          `json:"zoneKey"`
	Nodes   []Node          `json:"nodes"`
	Pending []Pod           `json:"pending"`
	Classes []PriorityClass `json:"classes"`
}

// Zone is a region of the canvas and the nodes in it.
type Zone struct {
	// Name is the zone label value; empty for the region of unlabelled nodes.
	Name  string
	Nodes []*Node
}

// Zones groups the scene's nodes by zone, zones in name order and nodes in
// scene order within a zone; unlabelled nodes come last, in a region of their
// own.
func (s *Scene) Zones() []Zone {
	index := map[string]int{}
	var zones []Zone
	for i := range s.Nodes {
		n := &s.Nodes[i]
		j, ok := index[n.Zone]
		if !ok {
			j = len(zones)
			index[n.Zone] = j
			zones = append(zones, Zone{Name: n.Zone})
		}
		zones[j].Nodes = append(zones[j].Nodes, n)
	}
	sort.SliceStable(zones, func(a, b int) bool {
		za, zb := zones[a].Name, zones[b].Name
		if (za == "") != (zb == "") {
			return zb == ""
		}
		return za < zb
	})
	return zones
}

// FindPod returns the pod with the given key, bound or pending.
func (s *Scene) FindPod(key string) (*Pod, bool) {
	for i := range s.Pending {
		if s.Pending[i].Key() == key {
			return &s.Pending[i], true
		}
	}
	for i := range s.Nodes {
		for j := range s.Nodes[i].Pods {
			if s.Nodes[i].Pods[j].Key() == key {
				return &s.Nodes[i].Pods[j], true
			}
		}
	}
	return nil, false
}

// FindNode returns the node with the given name.
func (s *Scene) FindNode(name string) (*Node, bool) {
	for i := range s.Nodes {
		if s.Nodes[i].Name == name {
			return &s.Nodes[i], true
		}
	}
	return nil, false
}
