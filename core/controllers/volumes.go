package controllers

import (
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/labels"
)

// The parts of kube-controller-manager's PV controller
// (pkg/controller/volume/persistentvolume) and of an external CSI
// provisioner that a scheduling decision depends on:
//
//   - a new volume becomes Available; a volume whose claimRef names a claim
//     is bound to it, and so is a claim whose volumeName names a volume;
//   - an unbound Immediate claim is bound to the smallest matching
//     Available volume, else provisioned if its class has a provisioner;
//   - an unbound WaitForFirstConsumer claim waits for the scheduler: for a
//     volume the scheduler reserved (claimRef set in PreBind), or for the
//     volume.kubernetes.io/selected-node annotation, after which the
//     provisioner creates a volume in that node's topology.
//
// Not simulated: reclaiming (Delete/Recycle), expansion, snapshots and data
// sources, CSIStorageCapacity, provisioning failures and retries, and the
// time all this takes in a real cluster.

// VolumeChange is one thing the PV controller or the provisioner did.
type VolumeChange struct {
	Claim  string // namespace/name, when a claim changed
	Volume string // the volume's name, when one changed
	What   string // a sentence for the trace
}

// SyncVolumes runs the PV controller and the provisioner over st until
// nothing changes, in a fixed order (claims by key, then volumes by name).
// node looks a node up by name (for a selected node's topology labels).
func SyncVolumes(st *framework.Storage, node func(string) *api.Node, now time.Time) []VolumeChange {
	var out []VolumeChange
	// New volumes become Available first: only those are matched.
	for _, pv := range st.PersistentVolumes() {
		if c := syncVolume(st, pv); c != nil {
			out = append(out, *c)
		}
	}
	keys := make([]string, 0, len(st.Claims))
	for k := range st.Claims {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if c := syncClaim(st, st.Claims[k], node, now); c != nil {
			out = append(out, *c)
		}
	}
	for _, pv := range st.PersistentVolumes() {
		if c := syncVolume(st, pv); c != nil {
			out = append(out, *c)
		}
	}
	return out
}

func isFullyBound(c *api.PersistentVolumeClaim) bool {
	_, done := c.Annotations[api.AnnBindCompleted]
	return c.Spec.VolumeName != "" && done
}

func delayBinding(st *framework.Storage, c *api.PersistentVolumeClaim) bool {
	class := st.StorageClass(c.ClassName())
	return class != nil && class.VolumeBindingMode != nil && *class.VolumeBindingMode == api.VolumeBindingWaitForFirstConsumer
}

// syncClaim is syncUnboundClaim for one claim not fully bound yet.
func syncClaim(st *framework.Storage, c *api.PersistentVolumeClaim, node func(string) *api.Node, now time.Time) *VolumeChange {
	if isFullyBound(c) {
		return nil
	}
	if c.Spec.VolumeName != "" {
		pv := st.PersistentVolume(c.Spec.VolumeName)
		if pv == nil || (pv.Spec.ClaimRef != nil && !pv.BoundTo(c)) {
			return nil // waits for its volume; the claim stays Pending
		}
		return bind(st, pv, c, "the claim names the volume")
	}
	delay := delayBinding(st, c)
	// Prebound volumes bind even in WaitForFirstConsumer mode; other
	// volumes only with Immediate binding.
	var match *api.PersistentVolume
	for _, pv := range st.PersistentVolumes() {
		if pv.Spec.ClaimRef != nil && pv.BoundTo(c) {
			match = pv
			break
		}
	}
	if match == nil && !delay {
		match = bestMatch(st, c)
	}
	if match != nil {
		return bind(st, match, c, "a matching volume")
	}
	class := st.StorageClass(c.ClassName())
	if class == nil || class.Provisioner == "" || class.Provisioner == api.NotSupportedProvisioner {
		return nil
	}
	var selected *api.Node
	if delay {
		name, ok := c.Annotations[api.AnnSelectedNode]
		if !ok {
			return nil // the scheduler picks the node first
		}
		if selected = node(name); selected == nil {
			return nil
		}
	}
	pv := provision(st, c, class, selected, now)
	ch := bind(st, pv, st.PersistentVolumeClaim(c.Namespace, c.Name), "")
	where := "no topology"
	if selected != nil {
		where = "node " + selected.Name + "'s topology"
	}
	if pv.Spec.NodeAffinity != nil {
		where = describeAffinity(pv.Spec.NodeAffinity.Required) + " (" + where + ")"
	}
	ch.What = fmt.Sprintf("provisioner %s created PersistentVolume %s for claim %s in %s; the PV controller bound them", class.Provisioner, pv.Name, c.Key(), where)
	return ch
}

// bestMatch is the PV controller's findBestMatchForClaim without a node:
// the smallest Available volume of the claim's class, size, mode,
// selector and access modes.
func bestMatch(st *framework.Storage, c *api.PersistentVolumeClaim) *api.PersistentVolume {
	var best *api.PersistentVolume
	want := c.Spec.Resources.Requests[api.ResourceStorage].Value()
	for _, pv := range st.PersistentVolumes() {
		if pv.Spec.ClaimRef != nil || pv.Status.Phase != api.VolumeAvailable || pv.DeletionTimestamp != nil {
			continue
		}
		if pv.Spec.StorageClassName != c.ClassName() || api.ModeOf(pv.Spec.VolumeMode) != api.ModeOf(c.Spec.VolumeMode) {
			continue
		}
		size := pv.Spec.Capacity[api.ResourceStorage].Value()
		if size < want || !pv.OffersAccessModes(c) || !selects(c, pv) {
			continue
		}
		if best == nil || best.Spec.Capacity[api.ResourceStorage].Value() > size {
			best = pv
		}
	}
	return best
}

func selects(c *api.PersistentVolumeClaim, pv *api.PersistentVolume) bool {
	if c.Spec.Selector == nil {
		return true
	}
	sel, err := labels.LabelSelectorAsSelector(c.Spec.Selector)
	return err == nil && sel.Matches(pv.Labels)
}

// bind is the PV controller's bind: the volume's claimRef and phase, the
// claim's volumeName, annotations and status.
func bind(st *framework.Storage, pv *api.PersistentVolume, c *api.PersistentVolumeClaim, why string) *VolumeChange {
	nv := *pv
	nv.Annotations = copyMap(pv.Annotations)
	if pv.Spec.ClaimRef == nil || pv.Spec.ClaimRef.UID == "" {
		ref := api.ObjectReference{Kind: "PersistentVolumeClaim", APIVersion: "v1", Namespace: c.Namespace, Name: c.Name, UID: c.UID}
		nv.Spec.ClaimRef = &ref
		if pv.Spec.ClaimRef == nil {
			nv.Annotations = copyMap(nv.Annotations, api.AnnBoundByController, "yes")
		}
	}
	nv.Status.Phase = api.VolumeBound
	st.PutVolume(&nv)
	nc := *c
	nc.Annotations = copyMap(c.Annotations, api.AnnBindCompleted, "yes")
	if c.Spec.VolumeName == "" {
		nc.Annotations[api.AnnBoundByController] = "yes"
	}
	nc.Spec.VolumeName = pv.Name
	nc.Status.Phase = api.ClaimBound
	nc.Status.AccessModes = append([]api.PersistentVolumeAccessMode(nil), pv.Spec.AccessModes...)
	nc.Status.Capacity = api.ResourceList{api.ResourceStorage: pv.Spec.Capacity[api.ResourceStorage]}
	st.PutClaim(&nc)
	return &VolumeChange{Claim: c.Key(), Volume: pv.Name,
		What: fmt.Sprintf("the PV controller bound claim %s to PersistentVolume %s (%s)", c.Key(), pv.Name, why)}
}

// provision is what an external CSI provisioner creates: a volume named
// pvc-<claim UID>, sized as requested, pinned to the selected node's
// topology (the keys its CSINode registers for the driver, else the keys
// of the class's allowedTopologies), or for Immediate binding to the first
// allowed topology.
func provision(st *framework.Storage, c *api.PersistentVolumeClaim, class *api.StorageClass, selected *api.Node, now time.Time) *api.PersistentVolume {
	created := now
	pv := &api.PersistentVolume{
		ObjectMeta: api.ObjectMeta{
			Name: "pvc-" + c.UID, UID: "pv-pvc-" + c.UID, CreationTimestamp: &created,
			Annotations: map[string]string{api.AnnDynamicallyProvisioned: class.Provisioner},
		},
		Spec: api.PersistentVolumeSpec{
			Capacity:                      api.ResourceList{api.ResourceStorage: c.Spec.Resources.Requests[api.ResourceStorage]},
			AccessModes:                   append([]api.PersistentVolumeAccessMode(nil), c.Spec.AccessModes...),
			ClaimRef:                      &api.ObjectReference{Kind: "PersistentVolumeClaim", APIVersion: "v1", Namespace: c.Namespace, Name: c.Name, UID: c.UID},
			PersistentVolumeReclaimPolicy: "Delete",
			StorageClassName:              class.Name,
			VolumeMode:                    c.Spec.VolumeMode,
			CSI:                           &api.CSIPersistentVolumeSource{Driver: class.Provisioner, VolumeHandle: "pvc-" + c.UID},
		},
		Status: api.PersistentVolumeStatus{Phase: api.VolumePending},
	}
	if class.ReclaimPolicy != nil {
		pv.Spec.PersistentVolumeReclaimPolicy = *class.ReclaimPolicy
	}
	var reqs []api.NodeSelectorRequirement
	switch {
	case selected != nil:
		for _, k := range topologyKeys(st, class, selected.Name) {
			if v, ok := selected.Labels[k]; ok {
				reqs = append(reqs, api.NodeSelectorRequirement{Key: k, Operator: api.NodeSelectorOpIn, Values: []string{v}})
			}
		}
	case len(class.AllowedTopologies) > 0:
		for _, e := range class.AllowedTopologies[0].MatchLabelExpressions {
			reqs = append(reqs, api.NodeSelectorRequirement{Key: e.Key, Operator: api.NodeSelectorOpIn, Values: []string{e.Values[0]}})
		}
	}
	if len(reqs) > 0 {
		pv.Spec.NodeAffinity = &api.VolumeNodeAffinity{Required: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: reqs}}}}
	}
	st.PutVolume(pv)
	c2 := *c
	c2.Annotations = copyMap(c.Annotations, api.AnnStorageProvisioner, class.Provisioner)
	st.PutClaim(&c2)
	return pv
}

// topologyKeys are the keys the driver registered on the node's CSINode,
// else those of the class's allowedTopologies.
func topologyKeys(st *framework.Storage, class *api.StorageClass, node string) []string {
	if n := st.CSINode(node); n != nil {
		for _, d := range n.Spec.Drivers {
			if d.Name == class.Provisioner && len(d.TopologyKeys) > 0 {
				return d.TopologyKeys
			}
		}
	}
	var keys []string
	seen := map[string]bool{}
	for _, t := range class.AllowedTopologies {
		for _, e := range t.MatchLabelExpressions {
			if !seen[e.Key] {
				seen[e.Key] = true
				keys = append(keys, e.Key)
			}
		}
	}
	return keys
}

func describeAffinity(ns *api.NodeSelector) string {
	if ns == nil || len(ns.NodeSelectorTerms) == 0 {
		return "no topology"
	}
	s := ""
	for i, r := range ns.NodeSelectorTerms[0].MatchExpressions {
		if i > 0 {
			s += ", "
		}
		s += r.Key + "=" + fmt.Sprint(r.Values)
	}
	return s
}

// syncVolume settles a volume's phase: Available when free, Bound when
// its claim is bound to it, Released when its claim is gone.
func syncVolume(st *framework.Storage, pv *api.PersistentVolume) *VolumeChange {
	want := pv.Status.Phase
	switch r := pv.Spec.ClaimRef; {
	case r == nil:
		want = api.VolumeAvailable
	default:
		c := st.PersistentVolumeClaim(r.Namespace, r.Name)
		switch {
		case c != nil && (r.UID == "" || r.UID == c.UID) && c.Spec.VolumeName == pv.Name:
			want = api.VolumeBound
		case c == nil && r.UID != "" && pv.Status.Phase == api.VolumeBound:
			want = api.VolumeReleased
		case c == nil || c.Spec.VolumeName != pv.Name:
			if pv.Status.Phase != api.VolumeReleased {
				want = api.VolumeAvailable // reserved for a claim not bound yet
			}
		}
	}
	if want == pv.Status.Phase {
		return nil
	}
	nv := *pv
	nv.Status.Phase = want
	st.PutVolume(&nv)
	return &VolumeChange{Volume: pv.Name, What: "PersistentVolume " + pv.Name + " is " + want}
}

// StatefulSetClaims are the claims ordinal's pod uses, built from the
// set's volumeClaimTemplates as the StatefulSet controller's
// getPersistentVolumeClaims does: <template>-<set>-<ordinal>, labelled with
// the template's labels and the set's matchLabels.
func StatefulSetClaims(sts *api.StatefulSet, ordinal int, now time.Time) []*api.PersistentVolumeClaim {
	var out []*api.PersistentVolumeClaim
	for i := range sts.Spec.VolumeClaimTemplates {
		t := &sts.Spec.VolumeClaimTemplates[i]
		name := ClaimName(sts, t.Name, ordinal)
		created := now
		c := &api.PersistentVolumeClaim{
			ObjectMeta: api.ObjectMeta{
				Name: name, Namespace: sts.Namespace, UID: "pvc-" + sts.Namespace + "-" + name,
				Labels: copyMap(t.Labels), CreationTimestamp: &created,
			},
		}
		if len(t.Annotations) > 0 {
			c.Annotations = copyMap(t.Annotations)
		}
		if sts.Spec.Selector != nil {
			for k, v := range sts.Spec.Selector.MatchLabels {
				c.Labels = copyMap(c.Labels, k, v)
			}
		}
		spec := t.Spec
		spec.AccessModes = append([]api.PersistentVolumeAccessMode(nil), t.Spec.AccessModes...)
		c.Spec = spec
		out = append(out, c)
	}
	return out
}

// ClaimName is getPersistentVolumeClaimName: <template>-<set>-<ordinal>.
func ClaimName(sts *api.StatefulSet, template string, ordinal int) string {
	return template + "-" + sts.Name + "-" + strconv.Itoa(ordinal)
}

// statefulSetVolumes is updateStorage: each template becomes a pod volume
// of the template's name (replacing one of that name) bound to its claim.
func statefulSetVolumes(sts *api.StatefulSet, p *api.Pod, ordinal int) {
	for i := range sts.Spec.VolumeClaimTemplates {
		t := &sts.Spec.VolumeClaimTemplates[i]
		v := api.Volume{Name: t.Name, PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: ClaimName(sts, t.Name, ordinal)}}
		replaced := false
		for j := range p.Spec.Volumes {
			if p.Spec.Volumes[j].Name == t.Name {
				p.Spec.Volumes[j] = v
				replaced = true
			}
		}
		if !replaced {
			p.Spec.Volumes = append(p.Spec.Volumes, v)
		}
	}
}
