package nodevolumelimits

import (
	"fmt"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
)

// randomVolumeIDPrefix stands for upstream's random prefix of the handle
// given to a claim not bound yet: it only has to differ from real handles.
const randomVolumeIDPrefix = "schedplay-unbound"

// Filter counts the pod's new CSI volumes per driver against the node's
// CSINode limits, after the volumes of the pods already there.
func (pl *CSILimits) Filter(_ *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	if len(pod.Spec.Volumes) == 0 {
		return nil
	}
	node := nodeInfo.Node()
	st := pl.storage()
	csiNode := st.CSINode(node.Name)
	newVolumes := map[string]string{}
	if err := pl.filterAttachableVolumes(st, pod, true, newVolumes); err != nil {
		// The claim is missing: the pod cannot run until it is created.
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, err.Error())
	}
	if len(newVolumes) == 0 {
		return nil
	}
	limits := getVolumeLimits(csiNode)
	if len(limits) == 0 {
		return nil
	}
	attached := map[string]string{}
	for _, pi := range nodeInfo.Pods {
		_ = pl.filterAttachableVolumes(st, pi.Pod, false, attached) // existing pods never fail
	}
	attachedCount := map[string]int{}
	for unique, driver := range attached {
		delete(newVolumes, unique) // a volume shared with a pod there is attached once
		attachedCount[driver]++
	}
	newCount := map[string]int{}
	for _, driver := range newVolumes {
		newCount[driver]++
	}
	for driver, count := range newCount {
		if max, ok := limits[driver]; ok && attachedCount[driver]+count > int(max) {
			return framework.NewStatus(framework.Unschedulable, ErrReasonMaxVolumeCountExceeded)
		}
	}
	return nil
}

// filterAttachableVolumes adds the pod's CSI volumes to result, as
// "driver/handle" → driver. A new pod's missing claim is an error; an
// existing pod's is skipped.
func (pl *CSILimits) filterAttachableVolumes(st framework.StorageLister, pod *api.Pod, newPod bool, result map[string]string) error {
	for i := range pod.Spec.Volumes {
		src := pod.Spec.Volumes[i].PersistentVolumeClaim
		if src == nil {
			continue
		}
		if src.ClaimName == "" {
			return fmt.Errorf("PersistentVolumeClaim had no name")
		}
		pvc := st.PersistentVolumeClaim(pod.Namespace, src.ClaimName)
		if pvc == nil {
			if newPod {
				return fmt.Errorf("looking up PVC %s/%s: persistentvolumeclaim %q not found", pod.Namespace, src.ClaimName, src.ClaimName)
			}
			continue
		}
		driver, handle := getCSIDriverInfo(st, pvc)
		if driver == "" || handle == "" {
			continue
		}
		result[driver+"/"+handle] = driver
	}
	return nil
}

// getCSIDriverInfo: the bound volume's CSI driver and handle; for a claim
// without a volume, its class's provisioner and a handle made from the
// claim's name.
func getCSIDriverInfo(st framework.StorageLister, pvc *api.PersistentVolumeClaim) (string, string) {
	if pvc.Spec.VolumeName != "" {
		if pv := st.PersistentVolume(pvc.Spec.VolumeName); pv != nil {
			if pv.Spec.CSI == nil {
				return "", "" // in-tree volumes are not migrated here
			}
			return pv.Spec.CSI.Driver, pv.Spec.CSI.VolumeHandle
		}
	}
	name := pvc.ClassName()
	if name == "" {
		return "", ""
	}
	class := st.StorageClass(name)
	if class == nil {
		return "", ""
	}
	return class.Provisioner, fmt.Sprintf("%s-%s/%s", randomVolumeIDPrefix, pvc.Namespace, pvc.Name)
}

// getVolumeLimits reads allocatable.count per driver of the CSINode.
func getVolumeLimits(n *api.CSINode) map[string]int64 {
	out := map[string]int64{}
	if n == nil {
		return out
	}
	for _, d := range n.Spec.Drivers {
		if d.Allocatable != nil && d.Allocatable.Count != nil {
			out[d.Name] = int64(*d.Allocatable.Count)
		}
	}
	return out
}
