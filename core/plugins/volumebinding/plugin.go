// Package volumebinding is upstream's VolumeBinding plugin
// (pkg/scheduler/framework/plugins/volumebinding, v1.36): PreFilter sorts a
// pod's claims into bound, unbound with delayed binding and unbound
// immediate ones; Filter checks bound volumes' node affinity and finds a
// volume or a provisioner for each delayed claim on the node; Reserve and
// PreBind bind them on the chosen node. StorageCapacityScoring (alpha) and
// CSIStorageCapacity are off, so the plugin never scores.
package volumebinding

import (
	"errors"
	"fmt"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/plugins/names"
)

// Name is the plugin's name.
const Name = names.VolumeBinding

// Upstream keys its state by the bare plugin name.
const stateKey framework.StateKey = Name

// Reasons, as upstream words them (binder.go).
const (
	ErrReasonBindConflict   = "node(s) didn't find available persistent volumes to bind"
	ErrReasonNodeConflict   = "node(s) didn't match PersistentVolume's node affinity"
	ErrReasonNotEnoughSpace = "node(s) did not have enough free storage"
	ErrReasonPVNotExist     = "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)"
	// ReasonUnboundImmediate is PreFilter's reason for an Immediate claim the PV controller has not bound.
	ReasonUnboundImmediate = "pod has unbound immediate PersistentVolumeClaims"
)

// stateData is upstream's per-cycle state.
type stateData struct {
	allBound bool
	// podVolumesByNode holds the bindings Filter found per node.
	podVolumesByNode  map[string]*PodVolumes
	podVolumeClaims   *PodVolumeClaims
	hasStaticBindings bool
}

// Clone shares the state, as upstream's (Filter only adds to the map).
func (d *stateData) Clone() framework.StateData { return d }

// noClaims is the state of every pod without claims: nothing writes to it
// (Filter, Reserve and PreBind return at once for it), so one serves all
// and a cycle allocates none.
var noClaims = &stateData{allBound: true}

// VolumeBinding is the plugin.
type VolumeBinding struct {
	h    framework.Handle
	skip framework.SkipStatus // handed out for every Skip
}

var (
	_ framework.PreFilterPlugin = (*VolumeBinding)(nil)
	_ framework.FilterPlugin    = (*VolumeBinding)(nil)
	_ framework.PreScorePlugin  = (*VolumeBinding)(nil)
	_ framework.ScorePlugin     = (*VolumeBinding)(nil)
	_ framework.ReservePlugin   = (*VolumeBinding)(nil)
	_ framework.PreBindPlugin   = (*VolumeBinding)(nil)
)

// New builds the plugin; its args (the scoring shape) only matter with
// StorageCapacityScoring and are ignored.
func New(_ any, h framework.Handle) (framework.Plugin, error) {
	return &VolumeBinding{h: h}, nil
}

// Name returns the plugin's name.
func (pl *VolumeBinding) Name() string { return Name }

func (pl *VolumeBinding) storage() framework.StorageLister {
	if pl.h == nil || pl.h.Cluster() == nil {
		return (*framework.Storage)(nil)
	}
	return pl.h.Cluster().Storage()
}

// podHasPVCs is upstream's: whether the pod names a claim, and the first
// problem with one (missing, lost, being deleted).
func (pl *VolumeBinding) podHasPVCs(pod *api.Pod) (bool, error) {
	hasPVC := false
	for i := range pod.Spec.Volumes {
		src := pod.Spec.Volumes[i].PersistentVolumeClaim
		if src == nil {
			continue
		}
		hasPVC = true
		pvc := pl.storage().PersistentVolumeClaim(pod.Namespace, src.ClaimName)
		if pvc == nil {
			return hasPVC, NotFound(src.ClaimName)
		}
		if pvc.Status.Phase == api.ClaimLost {
			return hasPVC, fmt.Errorf("persistentvolumeclaim %q bound to non-existent persistentvolume %q", pvc.Name, pvc.Spec.VolumeName)
		}
		if pvc.DeletionTimestamp != nil {
			return hasPVC, fmt.Errorf("persistentvolumeclaim %q is being deleted", pvc.Name)
		}
	}
	return hasPVC, nil
}

// NotFound is the API server's NotFound error for a claim, as listers
// word it.
func NotFound(claim string) error {
	return fmt.Errorf("persistentvolumeclaim %q not found", claim)
}

// PreFilter checks that every immediate claim is bound; a pod without
// claims gets an empty state and skips.
func (pl *VolumeBinding) PreFilter(state *framework.CycleState, pod *api.Pod, _ []*framework.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	if hasPVC, err := pl.podHasPVCs(pod); err != nil {
		return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, err.Error())
	} else if !hasPVC {
		state.Write(stateKey, noClaims)
		return nil, pl.skip.Get()
	}
	claims, err := getPodVolumeClaims(pl.storage(), pod)
	if err != nil {
		return nil, framework.AsStatus(err)
	}
	if len(claims.unboundClaimsImmediate) > 0 {
		// The PV controller binds them; the pod waits for that.
		return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, ReasonUnboundImmediate)
	}
	state.Write(stateKey, &stateData{podVolumesByNode: map[string]*PodVolumes{}, podVolumeClaims: claims})
	return nil, nil
}

// PreFilterExtensions returns nil, as upstream.
func (pl *VolumeBinding) PreFilterExtensions() framework.PreFilterExtensions { return nil }

func getStateData(state *framework.CycleState) (*stateData, error) {
	c, err := state.Read(stateKey)
	if err != nil {
		return nil, err
	}
	s, ok := c.(*stateData)
	if !ok {
		return nil, errors.New("unable to convert state into stateData")
	}
	return s, nil
}

// Filter checks bound claims' volumes against the node and finds volumes
// or provisioning for the unbound ones.
func (pl *VolumeBinding) Filter(state *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	s, err := getStateData(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	if s.podVolumeClaims == nil {
		return nil // no claims: PreFilter skipped
	}
	node := nodeInfo.Node()
	podVolumes, reasons, err := findPodVolumes(pl.storage(), s.podVolumeClaims, node)
	if err != nil {
		return framework.AsStatus(err)
	}
	if len(reasons) > 0 {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, reasons...)
	}
	s.podVolumesByNode[node.Name] = podVolumes
	s.hasStaticBindings = s.hasStaticBindings || len(podVolumes.StaticBindings) > 0
	return nil
}

// Reserve remembers whether the pod's claims are all bound already
// (upstream AssumePodVolumes; the simulation needs no assume cache since
// PreBind runs before the next cycle).
func (pl *VolumeBinding) Reserve(state *framework.CycleState, pod *api.Pod, nodeName string) *framework.Status {
	s, err := getStateData(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	if s == noClaims {
		return nil
	}
	if _, ok := s.podVolumesByNode[nodeName]; ok {
		s.allBound = arePodVolumesBound(pl.storage(), pod)
	} else {
		s.allBound = true
	}
	return nil
}

// Unreserve has nothing to revert: nothing was assumed.
func (pl *VolumeBinding) Unreserve(*framework.CycleState, *api.Pod, string) {}

// PreBind makes the API updates for the node's bindings and provisioning
// and waits (here: at once) until the PV controller has bound every claim.
func (pl *VolumeBinding) PreBind(state *framework.CycleState, pod *api.Pod, nodeName string) *framework.Status {
	s, err := getStateData(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	if s.allBound {
		return pl.skip.Get()
	}
	podVolumes, ok := s.podVolumesByNode[nodeName]
	if !ok {
		return framework.AsStatus(fmt.Errorf("no pod volume found for node %q", nodeName))
	}
	b := pl.h.VolumeBinder()
	if b == nil {
		return framework.AsStatus(errors.New("binding volumes: no PV controller runs"))
	}
	if err := b.BindPodVolumes(pod, nodeName, podVolumes.StaticBindings, podVolumes.DynamicProvisions); err != nil {
		return framework.AsStatus(fmt.Errorf("binding volumes: %w", err))
	}
	if !arePodVolumesBound(pl.storage(), pod) {
		return framework.AsStatus(errors.New("binding volumes: timed out waiting for the condition"))
	}
	return nil
}

// SignPod: feasibility depends on the volume sources other than ConfigMaps
// and Secrets (upstream VolumeBinding.SignPod).
func (pl *VolumeBinding) SignPod(pod *api.Pod) ([]framework.SignFragment, *framework.Status) {
	return []framework.SignFragment{{Key: framework.VolumesSignerName, Value: framework.VolumesSigner(pod)}}, nil
}
