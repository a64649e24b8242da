package framework

import (
	"fmt"
	"sort"

	"github.com/schedplay/schedplay/core/api"
)

// Snapshot is an immutable view of the cluster for one scheduling cycle.
type Snapshot struct {
	nodeInfoMap                       map[string]*NodeInfo
	nodeInfoList                      []*NodeInfo
	havePodsWithAffinityList          []*NodeInfo
	havePodsWithRequiredAntiAffinList []*NodeInfo
	// changes logs which nodes changed after the snapshot was built.
	changes *ChangeLog
}

// NewSnapshot builds a snapshot from bound pods and nodes. Nodes are listed
// in the order upstream's node tree lists them: sorted by name (the order a
// LIST from the API server delivers them to the cache), then interleaved
// across zones one node per zone at a time. That order decides which nodes
// a large cluster samples (percentageOfNodesToScore).
func NewSnapshot(pods []*api.Pod, nodes []*api.Node) *Snapshot {
	s := &Snapshot{nodeInfoMap: map[string]*NodeInfo{}}
	sorted := append([]*api.Node(nil), nodes...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	// The scheduler cache keeps one state per image name: its size is the
	// one reported by the first node added (LIST order, by name) and is
	// shared by every node holding that name.
	images := map[string]int{}
	sizes := map[string]int64{}
	for _, n := range sorted {
		seen := map[string]bool{}
		for _, img := range n.Status.Images {
			for _, name := range img.Names {
				if _, ok := sizes[name]; !ok {
					sizes[name] = img.SizeBytes
				}
				if !seen[name] {
					seen[name] = true
					images[name]++
				}
			}
		}
	}
	for i, n := range sorted {
		ni := NewNodeInfo()
		ni.SetNode(n)
		ni.nameRank = int32(i + 1)
		for _, img := range n.Status.Images {
			for _, name := range img.Names {
				if ni.ImageStates == nil {
					ni.ImageStates = map[string]*ImageStateSummary{}
				}
				if _, ok := ni.ImageStates[name]; !ok {
					ni.ImageStates[name] = &ImageStateSummary{Size: sizes[name], NumNodes: images[name]}
				}
			}
		}
		s.nodeInfoMap[n.Name] = ni
	}
	for _, p := range pods {
		if ni, ok := s.nodeInfoMap[p.Spec.NodeName]; ok && p.Spec.NodeName != "" {
			ni.AddPod(p)
		}
	}
	s.changes = &ChangeLog{}
	dup := false
	for i, name := range NodeTreeOrder(sorted) {
		ni := s.nodeInfoMap[name]
		dup = dup || ni.index != 0
		ni.index, ni.changes = int32(i+1), s.changes
		s.nodeInfoList = append(s.nodeInfoList, ni)
	}
	if dup {
		// A name listed twice has one NodeInfo at two positions, which
		// one log entry cannot name: readers walk every node instead.
		s.changes = nil
		for _, ni := range s.nodeInfoList {
			ni.changes = nil
		}
	}
	s.RebuildAffinityLists()
	return s
}

// RebuildAffinityLists recomputes the lists of nodes with affinity pods
// after pods were added or removed.
func (s *Snapshot) RebuildAffinityLists() {
	s.havePodsWithAffinityList = s.havePodsWithAffinityList[:0]
	s.havePodsWithRequiredAntiAffinList = s.havePodsWithRequiredAntiAffinList[:0]
	for _, ni := range s.nodeInfoList {
		if len(ni.PodsWithAffinity) > 0 {
			s.havePodsWithAffinityList = append(s.havePodsWithAffinityList, ni)
		}
		if len(ni.PodsWithRequiredAntiAffinity) > 0 {
			s.havePodsWithRequiredAntiAffinList = append(s.havePodsWithRequiredAntiAffinList, ni)
		}
	}
}

// GetZoneKey returns region + ":\x00:" + zone, as upstream's utilnode.GetZoneKey.
func GetZoneKey(n *api.Node) string {
	zone, ok := n.Labels[api.LabelTopologyZone]
	if !ok {
		zone = n.Labels[api.LabelFailureDomainZone]
	}
	region, ok := n.Labels[api.LabelTopologyRegion]
	if !ok {
		region = n.Labels[api.LabelFailureDomainRegn]
	}
	if region == "" && zone == "" {
		return ""
	}
	return region + ":\x00:" + zone
}

// NodeTreeOrder lists node names as upstream's nodeTree.list does for nodes
// added in the given order: zones in order of first appearance, taking one
// node from each zone per round.
func NodeTreeOrder(nodes []*api.Node) []string {
	var zones []string
	tree := map[string][]string{}
	for _, n := range nodes {
		k := GetZoneKey(n)
		if _, ok := tree[k]; !ok {
			zones = append(zones, k)
		}
		tree[k] = append(tree[k], n.Name)
	}
	out := make([]string, 0, len(nodes))
	for i := 0; len(out) < len(nodes); i++ {
		for _, z := range zones {
			if i < len(tree[z]) {
				out = append(out, tree[z][i])
			}
		}
	}
	return out
}

// List returns node infos in node-tree order.
func (s *Snapshot) List() []*NodeInfo { return s.nodeInfoList }

// HavePodsWithAffinityList returns nodes holding pods with (anti-)affinity.
func (s *Snapshot) HavePodsWithAffinityList() []*NodeInfo { return s.havePodsWithAffinityList }

// HavePodsWithRequiredAntiAffinityList returns nodes holding pods with required anti-affinity.
func (s *Snapshot) HavePodsWithRequiredAntiAffinityList() []*NodeInfo {
	return s.havePodsWithRequiredAntiAffinList
}

// Get returns a node's info.
func (s *Snapshot) Get(name string) (*NodeInfo, error) {
	if ni, ok := s.nodeInfoMap[name]; ok {
		return ni, nil
	}
	return nil, fmt.Errorf("nodeinfo not found for node name %q", name)
}

// NodeInfos returns the snapshot as a NodeInfoLister.
func (s *Snapshot) NodeInfos() NodeInfoLister { return s }

// NumNodes returns how many nodes the snapshot holds.
func (s *Snapshot) NumNodes() int { return len(s.nodeInfoList) }

// AddPod places a bound pod on its node (the simulation keeps one snapshot
// up to date instead of rebuilding it every cycle).
func (s *Snapshot) AddPod(p *api.Pod) error {
	ni, err := s.Get(p.Spec.NodeName)
	if err != nil {
		return err
	}
	ni.AddPod(p)
	if podWithAffinity(p) {
		s.RebuildAffinityLists()
	}
	return nil
}

// RemovePod takes a pod off its node.
func (s *Snapshot) RemovePod(p *api.Pod) error {
	ni, err := s.Get(p.Spec.NodeName)
	if err != nil {
		return err
	}
	if err := ni.RemovePod(p); err != nil {
		return err
	}
	if podWithAffinity(p) {
		s.RebuildAffinityLists()
	}
	return nil
}

// UpdatePod tells the snapshot that a pod bound to a node changed (status,
// deletionTimestamp, labels), as the cache's UpdatePod: the node's
// Generation moves, so caches keyed by it see the change.
func (s *Snapshot) UpdatePod(oldPod, newPod *api.Pod) error {
	ni, err := s.Get(newPod.Spec.NodeName)
	if err != nil {
		return err
	}
	if err := ni.UpdatePod(oldPod, newPod); err != nil {
		return err
	}
	if podWithAffinity(oldPod) || podWithAffinity(newPod) {
		s.RebuildAffinityLists()
	}
	return nil
}
