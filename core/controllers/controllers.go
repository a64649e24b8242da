// Package controllers holds the parts of the Deployment, ReplicaSet and
// StatefulSet controllers (kube-controller-manager v1.36) that decide which
// pods exist: object naming, pods built from templates, and one sync step
// each as a pure function. The engine applies what they return.
package controllers

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"sort"
	"strconv"
	"time"

	"github.com/schedplay/schedplay/core/api"
)

// Labels the controllers set.
const (
	// DefaultDeploymentUniqueLabelKey is the label a Deployment adds to its
	// ReplicaSet's selector, template and pods.
	DefaultDeploymentUniqueLabelKey = "pod-template-hash"
	// StatefulSetPodNameLabel carries a StatefulSet pod's own name.
	StatefulSetPodNameLabel = "statefulset.kubernetes.io/pod-name"
	// PodIndexLabel carries a StatefulSet pod's ordinal (PodIndexLabel, GA).
	PodIndexLabel = "apps.kubernetes.io/pod-index"
	// ControllerRevisionHashLabel names the revision a StatefulSet pod was made from.
	ControllerRevisionHashLabel = "controller-revision-hash"
)

// Alphanums is apimachinery's alphabet for random and encoded names: no
// vowels (no words) and no characters that look alike.
const Alphanums = "bcdfghjklmnpqrstvwxz2456789"

// maxGeneratedNameLength leaves room for the 5 random characters in a
// 63-character name, as the API server's name generator does.
const (
	randomLength           = 5
	maxGeneratedNameLength = 63 - randomLength
)

// SafeEncodeString maps every character onto Alphanums (upstream's
// rand.SafeEncodeString), so hashes never spell words.
func SafeEncodeString(s string) string {
	r := []rune(s)
	out := make([]byte, len(r))
	for i, c := range r {
		out[i] = Alphanums[int(c)%len(Alphanums)]
	}
	return string(out)
}

// PodTemplateHash is the pod-template-hash of a template: fnv32a over the
// template, then the collision count, printed in decimal and encoded with
// SafeEncodeString. Upstream feeds the hasher a spew dump of the full
// v1.PodTemplateSpec; we feed it the JSON of our (smaller) template, so the
// shape of the value is upstream's but its digits differ.
func PodTemplateHash(t *api.PodTemplate, collisionCount *int32) string {
	h := fnv.New32a()
	b, err := json.Marshal(t)
	if err != nil {
		panic(fmt.Sprintf("encoding a pod template: %v", err)) // plain data always encodes
	}
	h.Write(b)
	if collisionCount != nil {
		buf := make([]byte, 8)
		binary.LittleEndian.PutUint32(buf, uint32(*collisionCount))
		h.Write(buf)
	}
	return SafeEncodeString(strconv.FormatUint(uint64(h.Sum32()), 10))
}

// GenerateName is the API server's generateName: the base cut to leave
// room for 5 random characters from Alphanums, drawn with intn.
func GenerateName(base string, intn func(int) int) string {
	if len(base) > maxGeneratedNameLength {
		base = base[:maxGeneratedNameLength]
	}
	b := []byte(base)
	for range randomLength {
		b = append(b, Alphanums[intn(len(Alphanums))])
	}
	return string(b)
}

func controllerRef(apiVersion, kind string, m *api.ObjectMeta) api.OwnerReference {
	yes := true
	return api.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: m.Name, UID: m.UID, Controller: &yes}
}

// Replicas is spec.replicas with the API default 1.
func Replicas(r *int32) int32 {
	if r == nil {
		return 1
	}
	return *r
}

func copyMap(m map[string]string, extra ...string) map[string]string {
	out := make(map[string]string, len(m)+len(extra)/2)
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i+1 < len(extra); i += 2 {
		out[extra[i]] = extra[i+1]
	}
	return out
}

// ReplicaSetFor builds the ReplicaSet a Deployment creates for its current
// template: named <deployment>-<pod-template-hash>, the hash added to its
// selector, template labels and labels, owned by the Deployment.
func ReplicaSetFor(d *api.Deployment, now time.Time) *api.ReplicaSet {
	hash := PodTemplateHash(&d.Spec.Template, nil)
	tmpl := d.Spec.Template
	tmpl.Labels = copyMap(d.Spec.Template.Labels, DefaultDeploymentUniqueLabelKey, hash)
	var sel *api.LabelSelector
	if d.Spec.Selector != nil {
		s := *d.Spec.Selector
		s.MatchLabels = copyMap(d.Spec.Selector.MatchLabels, DefaultDeploymentUniqueLabelKey, hash)
		sel = &s
	}
	name := d.Name + "-" + hash
	created := now
	replicas := Replicas(d.Spec.Replicas)
	return &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{
			Name: name, Namespace: d.Namespace, UID: "rs-" + d.Namespace + "-" + name,
			Labels:            copyMap(d.Spec.Template.Labels, DefaultDeploymentUniqueLabelKey, hash),
			CreationTimestamp: &created,
			OwnerReferences:   []api.OwnerReference{controllerRef("apps/v1", "Deployment", &d.ObjectMeta)},
		},
		Spec: api.WorkloadSpec{Replicas: &replicas, Selector: sel, Template: tmpl},
	}
}

// podFromTemplate is upstream's GetPodFromTemplate: the template's labels,
// annotations and spec, in the parent's namespace, owned by the parent.
func podFromTemplate(t *api.PodTemplate, namespace, name string, owner api.OwnerReference, now time.Time) *api.Pod {
	created := now
	p := &api.Pod{
		ObjectMeta: api.ObjectMeta{
			Name: name, Namespace: namespace, UID: "pod-" + namespace + "-" + name,
			Labels: copyMap(t.Labels), CreationTimestamp: &created,
			OwnerReferences: []api.OwnerReference{owner},
		},
		Spec: deepCopySpec(t.Spec),
	}
	if len(t.Annotations) > 0 {
		p.Annotations = copyMap(t.Annotations)
	}
	p.Status.Phase = api.PodPending
	return p
}

// deepCopySpec copies a pod spec through JSON, so pods never share slices
// or maps with their template or each other.
func deepCopySpec(s api.PodSpec) api.PodSpec {
	b, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("copying a pod spec: %v", err))
	}
	var out api.PodSpec
	if err := json.Unmarshal(b, &out); err != nil {
		panic(fmt.Sprintf("copying a pod spec: %v", err))
	}
	return out
}

// Owns reports whether pod's controller reference points at the object m.
func Owns(m *api.ObjectMeta, pod *api.Pod) bool {
	ref := pod.ControllerRef()
	return ref != nil && ref.UID == m.UID && ref.Name == m.Name
}

// IsActive is upstream's controller.IsPodActive: not finished and not being deleted.
func IsActive(p *api.Pod) bool {
	return p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed && p.DeletionTimestamp == nil
}

// SyncReplicaSet is one ReplicaSet sync (manageReplicas): with fewer active
// pods than replicas it creates the difference, named by generateName;
// with more it deletes the surplus, the pods ranked as upstream's
// getPodsToDelete does. Pods being deleted do not count as active, so a
// victim's replacement is created as soon as its deletion starts. exists
// reports a name already taken (the API server would reject it and the
// controller would try again).
func SyncReplicaSet(rs *api.ReplicaSet, owned []*api.Pod, intn func(int) int, exists func(string) bool, now time.Time) (create, remove []*api.Pod) {
	var active []*api.Pod
	for _, p := range owned {
		if IsActive(p) {
			active = append(active, p)
		}
	}
	diff := int(Replicas(rs.Spec.Replicas)) - len(active)
	owner := controllerRef("apps/v1", "ReplicaSet", &rs.ObjectMeta)
	taken := map[string]bool{}
	for ; diff > 0; diff-- {
		name := GenerateName(rs.Name+"-", intn)
		for exists(rs.Namespace+"/"+name) || taken[name] {
			name = GenerateName(rs.Name+"-", intn)
		}
		taken[name] = true
		create = append(create, podFromTemplate(&rs.Spec.Template, rs.Namespace, name, owner, now))
	}
	if diff < 0 {
		remove = podsToDelete(active, -diff)
	}
	return create, remove
}

// podsToDelete ranks active pods for a scale-down as upstream's
// ActivePodsWithRanks: unassigned before assigned, pending before running,
// not ready before ready, more pods of the set on the same node first,
// newer before older; the name breaks remaining ties.
func podsToDelete(active []*api.Pod, n int) []*api.Pod {
	perNode := map[string]int{}
	for _, p := range active {
		if p.Spec.NodeName != "" {
			perNode[p.Spec.NodeName]++
		}
	}
	ranked := append([]*api.Pod(nil), active...)
	sort.SliceStable(ranked, func(i, j int) bool {
		a, b := ranked[i], ranked[j]
		if (a.Spec.NodeName == "") != (b.Spec.NodeName == "") {
			return a.Spec.NodeName == ""
		}
		if ra, rb := a.Status.Phase == api.PodRunning, b.Status.Phase == api.PodRunning; ra != rb {
			return !ra
		}
		if ca, cb := perNode[a.Spec.NodeName], perNode[b.Spec.NodeName]; a.Spec.NodeName != "" && ca != cb {
			return ca > cb
		}
		if ta, tb := a.CreationTimestamp, b.CreationTimestamp; ta != nil && tb != nil && !ta.Equal(*tb) {
			return ta.After(*tb)
		}
		return a.Name < b.Name
	})
	return ranked[:n]
}

// StatefulSetPod builds ordinal i of a StatefulSet: named <set>-<i>, with
// the pod-name, pod-index and revision labels and the set's hostname.
func StatefulSetPod(sts *api.StatefulSet, ordinal int, now time.Time) *api.Pod {
	name := sts.Name + "-" + strconv.Itoa(ordinal)
	revision := sts.Name + "-" + PodTemplateHash(&sts.Spec.Template, nil)
	p := podFromTemplate(&sts.Spec.Template, sts.Namespace, name, controllerRef("apps/v1", "StatefulSet", &sts.ObjectMeta), now)
	p.Labels = copyMap(p.Labels, StatefulSetPodNameLabel, name, PodIndexLabel, strconv.Itoa(ordinal), ControllerRevisionHashLabel, revision)
	statefulSetVolumes(sts, p, ordinal)
	return p
}

// Ordinal parses the ordinal of a StatefulSet pod name (-1 when it is not one).
func Ordinal(sts *api.StatefulSet, pod *api.Pod) int {
	prefix := sts.Name + "-"
	if len(pod.Name) <= len(prefix) || pod.Name[:len(prefix)] != prefix {
		return -1
	}
	i, err := strconv.Atoi(pod.Name[len(prefix):])
	if err != nil || i < 0 || strconv.Itoa(i) != pod.Name[len(prefix):] {
		return -1
	}
	return i
}

// runningAndReady is a StatefulSet's isRunningAndReady.
func runningAndReady(p *api.Pod) bool {
	if p.Status.Phase != api.PodRunning {
		return false
	}
	for _, c := range p.Status.Conditions {
		if c.Type == api.PodReady {
			return c.Status == api.ConditionTrue
		}
	}
	return true // a running pod in a scenario carries no kubelet conditions
}

// SyncStatefulSet is one OrderedReady StatefulSet sync: ordinals below
// replicas are created in order, the next only once every lower one is
// Running and Ready; a pod being deleted blocks the set until it is gone
// (its replacement takes the same name); surplus ordinals go highest
// first, one at a time.
func SyncStatefulSet(sts *api.StatefulSet, owned []*api.Pod, now time.Time) (create, remove []*api.Pod, waitingFor string) {
	replicas := int(Replicas(sts.Spec.Replicas))
	byOrdinal := map[int]*api.Pod{}
	for _, p := range owned {
		if i := Ordinal(sts, p); i >= 0 && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
			byOrdinal[i] = p
		}
	}
	for i := 0; i < replicas; i++ {
		p, ok := byOrdinal[i]
		if !ok {
			return []*api.Pod{StatefulSetPod(sts, i, now)}, nil, ""
		}
		if p.DeletionTimestamp != nil {
			return nil, nil, fmt.Sprintf("%s is terminating", p.Name)
		}
		if !runningAndReady(p) {
			return nil, nil, fmt.Sprintf("%s is not Running and Ready", p.Name)
		}
	}
	highest := -1
	for i, p := range byOrdinal {
		if i < replicas {
			continue
		}
		if p.DeletionTimestamp != nil {
			return nil, nil, fmt.Sprintf("%s is terminating", p.Name)
		}
		highest = max(highest, i)
	}
	if highest >= 0 {
		return nil, []*api.Pod{byOrdinal[highest]}, ""
	}
	return nil, nil, ""
}
