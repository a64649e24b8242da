package framework

import "github.com/schedplay/schedplay/core/api"

// NodeToStatus maps node names to filter statuses. Nodes not in the map
// (e.g. excluded by a PreFilterResult) have AbsentNodesStatus.
//
// The node search rejects most of a large cluster's nodes in some cycles,
// and a successful cycle never reads which: so SetNodeInfo keeps statuses
// in a list by the node's snapshot position, and they are moved into the
// map (hashing each name once) only when something reads them. That list
// holds no pointers: writing a pointer while the collector marks costs a
// write barrier, which in WebAssembly costs more than the rest of a
// rejection.
type NodeToStatus struct {
	nodeToStatus      map[string]*Status
	absentNodesStatus *Status
	// pending holds statuses not yet in the map; while it has any the map
	// is empty. slot[i] is 1 + the place in pending of the node at snapshot
	// position i (0: none).
	pending []pendingStatus
	slot    []int32
	// nodes[i] is the node last recorded at snapshot position i, kept
	// across Resets: a reused map sees the same nodes cycle after cycle,
	// and a pointer compared is not written again.
	nodes []*api.Node
	// statuses are the pending entries' statuses, a status listed once for
	// a run of nodes that share it (filters hand out one status for many
	// nodes).
	statuses []*Status
}

// pendingStatus is a node's snapshot position and its status's place in
// statuses. The node rather than its name is kept (in nodes): the search
// rejects a node without reading the Node object, and its name is read
// only if the statuses are moved into the map (a node's name never
// changes in place).
type pendingStatus struct {
	index, status int32
}

// NewDefaultNodeToStatus returns a map whose absent nodes are
// UnschedulableAndUnresolvable, as upstream's default.
func NewDefaultNodeToStatus() *NodeToStatus {
	return &NodeToStatus{nodeToStatus: map[string]*Status{}, absentNodesStatus: NewStatus(UnschedulableAndUnresolvable)}
}

// Reset empties the map, keeping its storage, and restores the default
// absent-nodes status, for a caller that reuses it for a new cycle.
func (m *NodeToStatus) Reset() {
	clear(m.nodeToStatus)
	m.dropPending()
	m.absentNodesStatus = NewStatus(UnschedulableAndUnresolvable)
}

func (m *NodeToStatus) dropPending() {
	for _, p := range m.pending {
		m.slot[p.index] = 0
	}
	m.pending = m.pending[:0]
	clear(m.statuses) // the statuses may go
	m.statuses = m.statuses[:0]
}

// flush moves the pending statuses into the map.
func (m *NodeToStatus) flush() {
	if len(m.pending) == 0 {
		return
	}
	for _, p := range m.pending {
		m.nodeToStatus[m.nodes[p.index].Name] = m.statuses[p.status]
	}
	m.dropPending()
}

// Get returns the status for a node.
func (m *NodeToStatus) Get(name string) *Status {
	m.flush()
	if s, ok := m.nodeToStatus[name]; ok {
		return s
	}
	return m.absentNodesStatus
}

// Set records a node's status.
func (m *NodeToStatus) Set(name string, s *Status) {
	m.flush()
	m.nodeToStatus[name] = s
}

// SetNodeInfo records the status of ni's node, as Set(ni.Node().Name, s).
// Between two Resets, every NodeInfo passed must belong to one snapshot
// (or be a clone of one that does), so that a position names one node.
func (m *NodeToStatus) SetNodeInfo(ni *NodeInfo, s *Status) {
	i := ni.Index()
	node := ni.Node()
	if i < 0 || len(m.nodeToStatus) > 0 {
		m.Set(node.Name, s)
		return
	}
	if i >= len(m.slot) {
		m.slot = append(m.slot, make([]int32, i+1-len(m.slot))...)
		m.nodes = append(m.nodes, make([]*api.Node, len(m.slot)-len(m.nodes))...)
	}
	if k := m.slot[i]; k > 0 {
		if n := m.nodes[i]; n == node || n.Name == node.Name {
			m.pending[k-1].status = m.statusPlace(s)
			return
		}
		m.Set(node.Name, s) // another node at the same position: use the map
		return
	}
	if m.nodes[i] != node {
		m.nodes[i] = node
	}
	m.pending = append(m.pending, pendingStatus{index: int32(i), status: m.statusPlace(s)})
	m.slot[i] = int32(len(m.pending))
}

// statusPlace returns s's place in statuses, adding it unless it is the
// last one there.
func (m *NodeToStatus) statusPlace(s *Status) int32 {
	if n := len(m.statuses); n == 0 || m.statuses[n-1] != s {
		m.statuses = append(m.statuses, s)
	}
	return int32(len(m.statuses) - 1)
}

// Len is the number of nodes with an explicit status.
func (m *NodeToStatus) Len() int { return len(m.nodeToStatus) + len(m.pending) }

// AbsentNodesStatus is the status of nodes not in the map.
func (m *NodeToStatus) AbsentNodesStatus() *Status { return m.absentNodesStatus }

// SetAbsentNodesStatus changes the status of nodes not in the map.
func (m *NodeToStatus) SetAbsentNodesStatus(s *Status) { m.absentNodesStatus = s }

// ForEachExplicitNode calls fn for every node with an explicit status.
func (m *NodeToStatus) ForEachExplicitNode(fn func(name string, s *Status)) {
	m.flush()
	for n, s := range m.nodeToStatus {
		fn(n, s)
	}
}

// NodesForStatusCode lists nodes in lister order whose status has code.
func (m *NodeToStatus) NodesForStatusCode(lister NodeInfoLister, code Code) ([]*NodeInfo, error) {
	var out []*NodeInfo
	for _, ni := range lister.List() {
		if m.Get(ni.Node().Name).Code() == code {
			out = append(out, ni)
		}
	}
	return out, nil
}
