// Package volumezone is upstream's VolumeZone plugin (v1.36): a pod whose
// claims are bound to volumes labelled with a zone or region may only run
// on nodes in that zone or region. Unbound WaitForFirstConsumer claims are
// left to VolumeBinding.
package volumezone

import (
	"fmt"
	"strings"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/plugins/names"
)

// Name is the plugin's name.
const Name = names.VolumeZone

const preFilterStateKey framework.StateKey = "PreFilter" + Name

// ErrReasonConflict is upstream's reason.
const ErrReasonConflict = "node(s) had no available volume zone"

// topologyLabels are the labels upstream compares, beta ones first.
var topologyLabels = []string{api.LabelFailureDomainZone, api.LabelFailureDomainRegn, api.LabelTopologyZone, api.LabelTopologyRegion}

type pvTopology struct {
	pvName string
	key    string
	values map[string]bool
}

type stateData struct {
	podPVTopologies []pvTopology
}

// Clone shares the state: nothing changes it after PreFilter.
func (d *stateData) Clone() framework.StateData { return d }

// VolumeZone is the plugin.
type VolumeZone struct {
	h    framework.Handle
	skip framework.SkipStatus // handed out for every Skip
}

var (
	_ framework.PreFilterPlugin = (*VolumeZone)(nil)
	_ framework.FilterPlugin    = (*VolumeZone)(nil)
)

// New builds the plugin.
func New(_ any, h framework.Handle) (framework.Plugin, error) {
	return &VolumeZone{h: h}, nil
}

// Name returns the plugin's name.
func (pl *VolumeZone) Name() string { return Name }

func (pl *VolumeZone) storage() framework.StorageLister {
	if pl.h == nil || pl.h.Cluster() == nil {
		return (*framework.Storage)(nil)
	}
	return pl.h.Cluster().Storage()
}

// PreFilter collects the zones and regions of the pod's bound volumes;
// without any it skips.
func (pl *VolumeZone) PreFilter(state *framework.CycleState, pod *api.Pod, _ []*framework.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	tops, status := pl.getPVbyPod(pod)
	if !status.IsSuccess() {
		return nil, status
	}
	if len(tops) == 0 {
		return nil, pl.skip.Get()
	}
	state.Write(preFilterStateKey, &stateData{podPVTopologies: tops})
	return nil, nil
}

// getPVbyPod is upstream's: a missing claim, class or volume is
// UnschedulableAndUnresolvable with the API server's NotFound message.
func (pl *VolumeZone) getPVbyPod(pod *api.Pod) ([]pvTopology, *framework.Status) {
	var tops []pvTopology
	st := pl.storage()
	for i := range pod.Spec.Volumes {
		src := pod.Spec.Volumes[i].PersistentVolumeClaim
		if src == nil {
			continue
		}
		if src.ClaimName == "" {
			return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, "PersistentVolumeClaim had no name")
		}
		pvc := st.PersistentVolumeClaim(pod.Namespace, src.ClaimName)
		if pvc == nil {
			return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, fmt.Sprintf("persistentvolumeclaim %q not found", src.ClaimName))
		}
		pvName := pvc.Spec.VolumeName
		if pvName == "" {
			scName := pvc.ClassName()
			if scName == "" {
				return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, "PersistentVolumeClaim had no pv name and storageClass name")
			}
			class := st.StorageClass(scName)
			if class == nil {
				return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, fmt.Sprintf("storageclass.storage.k8s.io %q not found", scName))
			}
			if class.VolumeBindingMode == nil {
				return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, fmt.Sprintf("VolumeBindingMode not set for StorageClass %q", scName))
			}
			if *class.VolumeBindingMode == api.VolumeBindingWaitForFirstConsumer {
				continue // unbound volumes are VolumeBinding's
			}
			return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, "PersistentVolume had no name")
		}
		pv := st.PersistentVolume(pvName)
		if pv == nil {
			return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, fmt.Sprintf("persistentvolume %q not found", pvName))
		}
		tops = append(tops, pvTopologies(pv)...)
	}
	return tops, nil
}

// pvTopologies reads a volume's zone and region labels; a value may list
// several zones joined by "__" (upstream LabelZonesToSet).
func pvTopologies(pv *api.PersistentVolume) []pvTopology {
	var out []pvTopology
	for _, key := range topologyLabels {
		value, ok := pv.Labels[key]
		if !ok {
			continue
		}
		set := map[string]bool{}
		bad := false
		for _, z := range strings.Split(value, "__") {
			z = strings.TrimSpace(z)
			if z == "" {
				bad = true // upstream ignores a label it cannot parse
				break
			}
			set[z] = true
		}
		if !bad {
			out = append(out, pvTopology{pvName: pv.Name, key: key, values: set})
		}
	}
	return out
}

// PreFilterExtensions returns nil, as upstream.
func (pl *VolumeZone) PreFilterExtensions() framework.PreFilterExtensions { return nil }

func translateToGALabel(label string) string {
	switch label {
	case api.LabelFailureDomainRegn:
		return api.LabelTopologyRegion
	case api.LabelFailureDomainZone:
		return api.LabelTopologyZone
	}
	return label
}

// Filter rejects a node outside a bound volume's zone or region. A node
// without any zone or region label passes (single-zone clusters).
func (pl *VolumeZone) Filter(state *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	if len(pod.Spec.Volumes) == 0 {
		return nil
	}
	var tops []pvTopology
	if c, err := state.Read(preFilterStateKey); err == nil {
		tops = c.(*stateData).podPVTopologies
	} else {
		var status *framework.Status
		if tops, status = pl.getPVbyPod(pod); !status.IsSuccess() {
			return status
		}
	}
	node := nodeInfo.Node()
	constrained := false
	for _, l := range topologyLabels {
		if _, ok := node.Labels[l]; ok {
			constrained = true
			break
		}
	}
	if !constrained {
		return nil
	}
	for _, t := range tops {
		v, ok := node.Labels[t.key]
		if !ok {
			v, ok = node.Labels[translateToGALabel(t.key)]
		}
		if !ok || !t.values[v] {
			return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonConflict)
		}
	}
	return nil
}

// SignPod: feasibility depends on the volume sources other than ConfigMaps
// and Secrets (upstream VolumeZone.SignPod).
func (pl *VolumeZone) SignPod(pod *api.Pod) ([]framework.SignFragment, *framework.Status) {
	return []framework.SignFragment{{Key: framework.VolumesSignerName, Value: framework.VolumesSigner(pod)}}, nil
}
