// Package imagelocality favours nodes that already hold the pod's container
// images, weighting each image by its size and by how widely it is spread
// (an image on every node says little about any one of them).
package imagelocality

import (
	"slices"
	"strings"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/plugins/names"
)

// Name is the plugin's name.
const Name = names.ImageLocality

// Thresholds bounding the summed image score: below minThreshold a node
// scores 0, at maxContainerThreshold per container it scores 100.
const (
	mb                    int64 = 1024 * 1024
	minThreshold          int64 = 23 * mb
	maxContainerThreshold int64 = 1000 * mb
)

// ImageLocality is the plugin.
type ImageLocality struct {
	handle framework.Handle
}

var (
	_ framework.ScorePlugin      = (*ImageLocality)(nil)
	_ framework.BatchScorePlugin = (*ImageLocality)(nil)
)

// New builds the plugin.
func New(_ any, h framework.Handle) (framework.Plugin, error) {
	return &ImageLocality{handle: h}, nil
}

// Name returns the plugin's name.
func (pl *ImageLocality) Name() string { return Name }

// Score is already in 0..100; there is no normalization. The spread counts
// every node of the snapshot, not just the feasible ones.
func (pl *ImageLocality) Score(_ *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) (int64, *framework.Status) {
	total := len(pl.handle.SnapshotSharedLister().NodeInfos().List())
	sum := sumImageScores(nodeInfo, pod, total)
	return calculatePriority(sum, len(pod.Spec.InitContainers)+len(pod.Spec.Containers)), nil
}

// ScoreNodes is Score for every node. A node without images sums to 0,
// so its score is worked out once.
func (pl *ImageLocality) ScoreNodes(_ *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo, scores framework.NodeScoreList) *framework.Status {
	total := len(pl.handle.SnapshotSharedLister().NodeInfos().List())
	numContainers := len(pod.Spec.InitContainers) + len(pod.Spec.Containers)
	noImages := calculatePriority(0, numContainers)
	for i, ni := range nodes {
		if len(ni.ImageStates) == 0 {
			scores[i].Score = noImages
			continue
		}
		scores[i].Score = calculatePriority(sumImageScores(ni, pod, total), numContainers)
	}
	return nil
}

// ScoreExtensions returns nil: scores need no normalization.
func (pl *ImageLocality) ScoreExtensions() framework.ScoreExtensions { return nil }

// calculatePriority clamps the sum to [minThreshold, maxThreshold] and maps
// it linearly onto 0..100 with integer division.
func calculatePriority(sum int64, numContainers int) int64 {
	maxThreshold := maxContainerThreshold * int64(numContainers)
	if sum < minThreshold {
		sum = minThreshold
	} else if sum > maxThreshold {
		sum = maxThreshold
	}
	return framework.MaxNodeScore * (sum - minThreshold) / (maxThreshold - minThreshold)
}

// sumImageScores adds the scaled sizes of the pod's images present on the
// node, init containers included; an image used twice counts twice.
func sumImageScores(nodeInfo *framework.NodeInfo, pod *api.Pod, totalNumNodes int) int64 {
	var sum int64
	if len(nodeInfo.ImageStates) == 0 {
		return 0 // nothing to find: skip normalizing the names
	}
	var buf [128]byte
	for _, cs := range [][]api.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for i := range cs {
			if state, ok := lookupImage(nodeInfo.ImageStates, cs[i].Image, buf[:0]); ok {
				sum += scaledImageScore(state, totalNumNodes)
			}
		}
	}
	return sum
}

// lookupImage finds name's normalized form in states. This runs per node
// and container, so the ":latest" form is built in buf, where the map
// lookup on string(bytes) allocates nothing.
func lookupImage(states map[string]*framework.ImageStateSummary, name string, buf []byte) (*framework.ImageStateSummary, bool) {
	if hasTag(name) {
		state, ok := states[name]
		return state, ok
	}
	b := append(append(buf, name...), latestSuffix...)
	state, ok := states[string(b)]
	return state, ok
}

// scaledImageScore weights an image's size by the share of nodes holding it,
// computed in float64 and truncated, as upstream.
func scaledImageScore(state *framework.ImageStateSummary, totalNumNodes int) int64 {
	spread := float64(state.NumNodes) / float64(totalNumNodes)
	return int64(float64(state.Size) * spread)
}

// normalizedImageName appends ":latest" to an image without a tag, matching
// how nodes report image names.
func normalizedImageName(name string) string {
	if !hasTag(name) {
		name += latestSuffix
	}
	return name
}

const latestSuffix = ":latest"

// hasTag reports a ':' after the last '/' (a registry port is no tag).
func hasTag(name string) bool {
	return strings.LastIndex(name, ":") > strings.LastIndex(name, "/")
}

// SignPod: scores depend on the set of normalized image names of all
// containers (upstream ImageLocality.SignPod).
func (pl *ImageLocality) SignPod(pod *api.Pod) ([]framework.SignFragment, *framework.Status) {
	var names []string
	for _, cs := range [][]api.Container{pod.Spec.Containers, pod.Spec.InitContainers} {
		for _, c := range cs {
			if n := normalizedImageName(c.Image); !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	slices.Sort(names)
	return []framework.SignFragment{{Key: framework.ImageNamesSignerName, Value: names}}, nil
}
