// Package scenario loads a schedplay scenario file (multi-document Kubernetes YAML)
// with Kubernetes' own decoders, defaulting, validation and admission plugins, and
// applies the scenario semantics of docs/contract.md.
package scenario

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
	clientscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	"k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	"k8s.io/kubernetes/pkg/apis/policy"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	policyvalidation "k8s.io/kubernetes/pkg/apis/policy/validation"
	"k8s.io/kubernetes/pkg/apis/scheduling"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
	schedulingapiv1 "k8s.io/kubernetes/pkg/apis/scheduling/v1"
	schedulingvalidation "k8s.io/kubernetes/pkg/apis/scheduling/validation"
	_ "k8s.io/kubernetes/pkg/apis/storage/install"
	schedconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
	schedscheme "k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	schedvalidation "k8s.io/kubernetes/pkg/scheduler/apis/config/validation"
	"sigs.k8s.io/yaml"
)

// ExplainAnnotation may be set on any object of a scenario (normally the first
// document) to name the pending pod that `compare` explains: "namespace/name".
const ExplainAnnotation = "schedplay.dev/explain"

// TimelineAPIVersion is the apiVersion of schedplay's Timeline kind.
const TimelineAPIVersion = "schedplay.dev/v1alpha1"

// DefaultT0 is the scenario start time when the file carries no timestamp at all.
var DefaultT0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Scenario is a loaded, admitted scenario.
type Scenario struct {
	File            string
	Nodes           []*v1.Node
	Pods            []*v1.Pod // document order; bound and pending
	PriorityClasses []*schedulingv1.PriorityClass
	PDBs            []*policyv1.PodDisruptionBudget
	// Namespaces holds the declared namespaces and every other namespace an object of
	// the file uses (a real cluster has them all), each labelled with its name.
	Namespaces []*v1.Namespace
	// Objects the scheduler's listers (default spreading) and the disruption
	// computation (PDB scale) read; no controller runs for them.
	Services               []*v1.Service
	ReplicationControllers []*v1.ReplicationController
	ReplicaSets            []*appsv1.ReplicaSet
	StatefulSets           []*appsv1.StatefulSet
	Deployments            []*appsv1.Deployment
	// Storage objects; the harness's PV controller and provisioner
	// (internal/upstream/volumes.go) settle them.
	PersistentVolumes      []*v1.PersistentVolume
	PersistentVolumeClaims []*v1.PersistentVolumeClaim
	StorageClasses         []*storagev1.StorageClass
	CSINodes               []*storagev1.CSINode
	CSIDrivers             []*storagev1.CSIDriver
	// Config is the defaulted KubeSchedulerConfiguration (internal version).
	Config *schedconfig.KubeSchedulerConfiguration
	// T0 is the simulated "now": the latest creationTimestamp/startTime in the file.
	T0 time.Time
	// Timeline: the file has a schedplay Timeline document, whose actions the harness
	// does not perform.
	Timeline bool
	// Explain is the value of the schedplay.dev/explain annotation, if any.
	Explain string
}

// InputError is an error in the scenario file (exit non-zero, nothing on stdout).
type InputError struct {
	File string
	Line int // 0 when unknown
	Msg  string
}

func (e *InputError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

type document struct {
	line int // 1-based line of the first line of the document
	data []byte
}

var docSep = regexp.MustCompile(`^---(\s.*)?$`)

// splitDocuments splits a multi-document YAML stream the way
// k8s.io/apimachinery/pkg/util/yaml.YAMLReader does ("---" at line start),
// remembering each document's first line.
func splitDocuments(data []byte) []document {
	lines := strings.SplitAfter(string(data), "\n")
	var docs []document
	cur := document{line: 1}
	var buf strings.Builder
	for i, l := range lines {
		if docSep.MatchString(strings.TrimRight(l, "\r\n")) {
			cur.data = []byte(buf.String())
			docs = append(docs, cur)
			buf.Reset()
			cur = document{line: i + 2}
			continue
		}
		buf.WriteString(l)
	}
	cur.data = []byte(buf.String())
	docs = append(docs, cur)
	return docs
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

var (
	strictCodecs = serializer.NewCodecFactory(clientscheme.Scheme, serializer.EnableStrict)
)

type rawObject struct {
	line int
	json []byte
	meta metav1.TypeMeta
}

// Load reads and admits a scenario file.
func Load(path string) (*Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &InputError{File: path, Msg: err.Error()}
	}
	return Parse(path, data)
}

// Parse admits a scenario given its content.
func Parse(path string, data []byte) (*Scenario, error) {
	var raws []rawObject
	for _, d := range splitDocuments(data) {
		js, err := yaml.YAMLToJSON(d.data)
		if err != nil {
			line := d.line
			if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
				n, _ := strconv.Atoi(m[1])
				line = d.line + n - 1
			}
			return nil, &InputError{File: path, Line: line, Msg: err.Error()}
		}
		js = bytes.TrimSpace(js)
		if len(js) == 0 || string(js) == "null" {
			continue
		}
		if js[0] != '{' {
			return nil, &InputError{File: path, Line: d.line, Msg: "document is not a YAML mapping"}
		}
		var tm metav1.TypeMeta
		if err := json.Unmarshal(js, &tm); err != nil {
			return nil, &InputError{File: path, Line: d.line, Msg: err.Error()}
		}
		if tm.Kind == "List" || strings.HasSuffix(tm.Kind, "List") && tm.APIVersion == "v1" {
			var l struct {
				Items []json.RawMessage `json:"items"`
			}
			if err := json.Unmarshal(js, &l); err != nil {
				return nil, &InputError{File: path, Line: d.line, Msg: err.Error()}
			}
			for _, it := range l.Items {
				var itm metav1.TypeMeta
				if err := json.Unmarshal(it, &itm); err != nil {
					return nil, &InputError{File: path, Line: d.line, Msg: err.Error()}
				}
				raws = append(raws, rawObject{line: d.line, json: it, meta: itm})
			}
			continue
		}
		raws = append(raws, rawObject{line: d.line, json: js, meta: tm})
	}

	sc := &Scenario{File: path}
	type podAt struct {
		pod  *v1.Pod
		line int
	}
	var pods []podAt
	var pcs []*schedulingv1.PriorityClass
	pcLine := map[string]int{}
	seen := map[string]int{}
	for _, r := range raws {
		if r.meta.APIVersion == "" || r.meta.Kind == "" {
			return nil, &InputError{File: path, Line: r.line, Msg: "object has no apiVersion or kind"}
		}
		if r.meta.APIVersion == TimelineAPIVersion && r.meta.Kind == "Timeline" {
			// schedplay's own kind (actions over simulated time): explain (t=0) is
			// unaffected; simulate's final state is compared only when it agrees anyway.
			sc.Timeline = true
			continue
		}
		if r.meta.APIVersion == TimelineAPIVersion && r.meta.Kind == "Lesson" {
			continue // schedplay's teaching text for the playground: no cluster object
		}
		if strings.HasPrefix(r.meta.APIVersion, "kubescheduler.config.k8s.io/") {
			if sc.Config != nil {
				return nil, &InputError{File: path, Line: r.line, Msg: "more than one KubeSchedulerConfiguration"}
			}
			obj, _, err := schedscheme.Codecs.UniversalDecoder().Decode(r.json, nil, nil)
			if err != nil {
				return nil, &InputError{File: path, Line: r.line, Msg: err.Error()}
			}
			cfg, ok := obj.(*schedconfig.KubeSchedulerConfiguration)
			if !ok {
				return nil, &InputError{File: path, Line: r.line, Msg: fmt.Sprintf("unsupported kind %s", r.meta.Kind)}
			}
			if err := schedvalidation.ValidateKubeSchedulerConfiguration(cfg); err != nil {
				return nil, &InputError{File: path, Line: r.line, Msg: err.Error()}
			}
			sc.Config = cfg
			continue
		}
		obj, gvk, err := strictCodecs.UniversalDeserializer().Decode(r.json, nil, nil)
		if err != nil {
			return nil, &InputError{File: path, Line: r.line, Msg: err.Error()}
		}
		// Default the versioned object as the API server would.
		legacyscheme.Scheme.Default(obj)
		acc, _ := obj.(metav1.Object)
		if acc != nil {
			if v, ok := acc.GetAnnotations()[ExplainAnnotation]; ok && sc.Explain == "" {
				sc.Explain = v
			}
		}
		key := func(ns string) string { return gvk.Kind + "/" + ns + "/" + acc.GetName() }
		switch o := obj.(type) {
		case *v1.Node:
			if o.Name == "" {
				return nil, &InputError{File: path, Line: r.line, Msg: "Node has no metadata.name"}
			}
			o.Namespace = ""
			if errs := validateNode(o); len(errs) > 0 {
				return nil, &InputError{File: path, Line: r.line, Msg: fmt.Sprintf("Node %q is invalid: %v", o.Name, errs.ToAggregate())}
			}
			if l, dup := seen[key("")]; dup {
				return nil, &InputError{File: path, Line: r.line, Msg: fmt.Sprintf("Node %q already defined at line %d", o.Name, l)}
			}
			seen[key("")] = r.line
			if o.UID == "" {
				o.UID = types.UID("node-" + o.Name)
			}
			sc.Nodes = append(sc.Nodes, o)
		case *v1.Pod:
			if o.Namespace == "" {
				o.Namespace = metav1.NamespaceDefault
			}
			if l, dup := seen[key(o.Namespace)]; dup {
				return nil, &InputError{File: path, Line: r.line, Msg: fmt.Sprintf("Pod %s/%s already defined at line %d", o.Namespace, o.Name, l)}
			}
			seen[key(o.Namespace)] = r.line
			if o.UID == "" {
				o.UID = types.UID("pod-" + o.Namespace + "-" + o.Name)
			}
			pods = append(pods, podAt{o, r.line})
		case *schedulingv1.PriorityClass:
			o.Namespace = ""
			if l, dup := seen[key("")]; dup {
				return nil, &InputError{File: path, Line: r.line, Msg: fmt.Sprintf("PriorityClass %q already defined at line %d", o.Name, l)}
			}
			seen[key("")] = r.line
			if errs := validatePriorityClass(o); len(errs) > 0 {
				return nil, &InputError{File: path, Line: r.line, Msg: fmt.Sprintf("PriorityClass %q is invalid: %v", o.Name, errs.ToAggregate())}
			}
			if o.UID == "" {
				o.UID = types.UID("pc-" + o.Name)
			}
			pcs = append(pcs, o)
			pcLine[o.Name] = r.line
		case *policyv1.PodDisruptionBudget:
			if o.Namespace == "" {
				o.Namespace = metav1.NamespaceDefault
			}
			if l, dup := seen[key(o.Namespace)]; dup {
				return nil, &InputError{File: path, Line: r.line, Msg: fmt.Sprintf("PodDisruptionBudget %s/%s already defined at line %d", o.Namespace, o.Name, l)}
			}
			seen[key(o.Namespace)] = r.line
			if errs := validatePDB(o); len(errs) > 0 {
				return nil, &InputError{File: path, Line: r.line, Msg: fmt.Sprintf("PodDisruptionBudget %s/%s is invalid: %v", o.Namespace, o.Name, errs.ToAggregate())}
			}
			if o.UID == "" {
				o.UID = types.UID("pdb-" + o.Namespace + "-" + o.Name)
			}
			sc.PDBs = append(sc.PDBs, o)
		case *v1.Namespace:
			o.Namespace = ""
			if o.Name == "" {
				return nil, &InputError{File: path, Line: r.line, Msg: "Namespace has no metadata.name"}
			}
			if l, dup := seen[key("")]; dup {
				return nil, &InputError{File: path, Line: r.line, Msg: fmt.Sprintf("Namespace %q already defined at line %d", o.Name, l)}
			}
			seen[key("")] = r.line
			if o.UID == "" {
				o.UID = types.UID("ns-" + o.Name)
			}
			sc.Namespaces = append(sc.Namespaces, o)
		case *v1.Service, *v1.ReplicationController, *appsv1.ReplicaSet, *appsv1.StatefulSet, *appsv1.Deployment:
			if acc.GetName() == "" {
				return nil, &InputError{File: path, Line: r.line, Msg: gvk.Kind + " has no metadata.name"}
			}
			if acc.GetNamespace() == "" {
				acc.SetNamespace(metav1.NamespaceDefault)
			}
			if l, dup := seen[key(acc.GetNamespace())]; dup {
				return nil, &InputError{File: path, Line: r.line, Msg: fmt.Sprintf("%s %s/%s already defined at line %d", gvk.Kind, acc.GetNamespace(), acc.GetName(), l)}
			}
			seen[key(acc.GetNamespace())] = r.line
			if acc.GetUID() == "" {
				acc.SetUID(types.UID(workloadUIDPrefix[gvk.Kind] + acc.GetNamespace() + "-" + acc.GetName()))
			}
			sc.addWorkload(o)
		case *v1.PersistentVolume, *v1.PersistentVolumeClaim, *storagev1.StorageClass, *storagev1.CSINode, *storagev1.CSIDriver:
			if acc.GetName() == "" {
				return nil, &InputError{File: path, Line: r.line, Msg: gvk.Kind + " has no metadata.name"}
			}
			ns := acc.GetNamespace()
			if _, claim := o.(*v1.PersistentVolumeClaim); claim && ns == "" {
				ns = metav1.NamespaceDefault
			}
			if l, dup := seen[key(ns)]; dup {
				return nil, &InputError{File: path, Line: r.line, Msg: fmt.Sprintf("%s %s already defined at line %d", gvk.Kind, acc.GetName(), l)}
			}
			seen[key(ns)] = r.line
			_, errs, err := sc.addStorage(obj)
			if err != nil {
				return nil, &InputError{File: path, Line: r.line, Msg: err.Error()}
			}
			if len(errs) > 0 {
				return nil, &InputError{File: path, Line: r.line, Msg: storageError(gvk.Kind, acc, errs)}
			}
		default:
			return nil, &InputError{File: path, Line: r.line, Msg: fmt.Sprintf("unsupported kind %s (supported: Node, Pod, PriorityClass, PodDisruptionBudget, Namespace, Service, ReplicationController, ReplicaSet, StatefulSet, Deployment, KubeSchedulerConfiguration, List)", gvk.Kind)}
		}
	}

	// Scheduler configuration: default as kube-scheduler does when none is given.
	if sc.Config == nil {
		cfg, err := DefaultConfig()
		if err != nil {
			return nil, err
		}
		sc.Config = cfg
	}

	// T0: the latest timestamp in the file.
	t0 := time.Time{}
	bump := func(t *metav1.Time) {
		if t != nil && !t.IsZero() && t.After(t0) {
			t0 = t.Time
		}
	}
	for _, n := range sc.Nodes {
		bump(&n.CreationTimestamp)
	}
	for _, p := range pods {
		bump(&p.pod.CreationTimestamp)
		bump(p.pod.Status.StartTime)
	}
	for _, pc := range pcs {
		bump(&pc.CreationTimestamp)
	}
	for _, pdb := range sc.PDBs {
		bump(&pdb.CreationTimestamp)
	}
	for _, ns := range sc.Namespaces {
		bump(&ns.CreationTimestamp)
	}
	for _, o := range append(sc.workloads(), sc.storageObjects()...) {
		ts := o.(metav1.Object).GetCreationTimestamp()
		bump(&ts)
	}
	if t0.IsZero() {
		t0 = DefaultT0
	}
	sc.T0 = t0

	// Storage objects exist at T0 unless the file says when they were created.
	for _, o := range sc.storageObjects() {
		acc := o.(metav1.Object)
		if ts := acc.GetCreationTimestamp(); ts.IsZero() {
			acc.SetCreationTimestamp(metav1.NewTime(t0))
		}
	}
	sc.admitClaims()

	// Built-in system priority classes exist in every cluster.
	for _, spc := range schedulingapiv1.SystemPriorityClasses() {
		if l, ok := pcLine[spc.Name]; ok {
			return nil, &InputError{File: path, Line: l, Msg: fmt.Sprintf("PriorityClass %q is a built-in system class and cannot be redefined", spc.Name)}
		}
		c := spc.DeepCopy()
		c.UID = types.UID("pc-" + c.Name)
		legacyscheme.Scheme.Default(c)
		sc.PriorityClasses = append(sc.PriorityClasses, c)
	}

	adm, err := newAdmitter(sc.Nodes)
	if err != nil {
		return nil, err
	}
	defer adm.stop()
	for _, pc := range sc.PriorityClasses {
		adm.addPriorityClass(pc)
	}
	for _, pc := range pcs {
		if err := adm.validatePriorityClass(pc); err != nil {
			return nil, &InputError{File: path, Line: pcLine[pc.Name], Msg: err.Error()}
		}
		adm.addPriorityClass(pc)
		sc.PriorityClasses = append(sc.PriorityClasses, pc)
	}

	nodeByName := map[string]*v1.Node{}
	for _, n := range sc.Nodes {
		nodeByName[n.Name] = n
	}
	for _, pa := range pods {
		p := pa.pod
		if p.CreationTimestamp.IsZero() {
			p.CreationTimestamp = metav1.NewTime(t0)
		}
		admitted, err := adm.admitPod(context.Background(), p)
		if err != nil {
			return nil, &InputError{File: path, Line: pa.line, Msg: fmt.Sprintf("Pod %s/%s: %v", p.Namespace, p.Name, err)}
		}
		if errs := validatePod(admitted); len(errs) > 0 {
			return nil, &InputError{File: path, Line: pa.line, Msg: fmt.Sprintf("Pod %s/%s is invalid: %v", p.Namespace, p.Name, errs.ToAggregate())}
		}
		if admitted.Spec.NodeName != "" {
			if _, ok := nodeByName[admitted.Spec.NodeName]; !ok {
				return nil, &InputError{File: path, Line: pa.line, Msg: fmt.Sprintf("Pod %s/%s is bound to unknown node %q", p.Namespace, p.Name, admitted.Spec.NodeName)}
			}
			markRunning(admitted)
		}
		sc.Pods = append(sc.Pods, admitted)
	}

	sc.addImplicitNamespaces()
	ComputePDBStatus(sc.PDBs, sc.Pods, sc.ScaleLookup())
	return sc, nil
}

// workloadUIDPrefix gives the UIDs schedplay gives objects without one, so that
// ownerReferences written against them match in both.
var workloadUIDPrefix = map[string]string{"Service": "svc-", "ReplicationController": "rc-",
	"ReplicaSet": "rs-", "StatefulSet": "sts-", "Deployment": "deploy-"}

func (sc *Scenario) addWorkload(o runtime.Object) {
	switch w := o.(type) {
	case *v1.Service:
		sc.Services = append(sc.Services, w)
	case *v1.ReplicationController:
		sc.ReplicationControllers = append(sc.ReplicationControllers, w)
	case *appsv1.ReplicaSet:
		sc.ReplicaSets = append(sc.ReplicaSets, w)
	case *appsv1.StatefulSet:
		sc.StatefulSets = append(sc.StatefulSets, w)
	case *appsv1.Deployment:
		sc.Deployments = append(sc.Deployments, w)
	}
}

// addImplicitNamespaces creates, as a real cluster has them, the namespaces that
// namespaced objects use without declaring them ("default" always exists), defaulted
// like a created Namespace (the kubernetes.io/metadata.name label).
func (sc *Scenario) addImplicitNamespaces() {
	have := map[string]bool{}
	for _, ns := range sc.Namespaces {
		have[ns.Name] = true
	}
	var used []string
	use := func(ns string) {
		if ns != "" && !have[ns] {
			have[ns] = true
			used = append(used, ns)
		}
	}
	use(metav1.NamespaceDefault)
	for _, p := range sc.Pods {
		use(p.Namespace)
	}
	for _, pdb := range sc.PDBs {
		use(pdb.Namespace)
	}
	for _, o := range sc.workloads() {
		use(o.(metav1.Object).GetNamespace())
	}
	sort.Strings(used)
	for _, name := range used {
		ns := &v1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, UID: types.UID("ns-" + name)}}
		legacyscheme.Scheme.Default(ns)
		sc.Namespaces = append(sc.Namespaces, ns)
	}
}

// HasWorkloads reports whether the scenario has ReplicationControllers, ReplicaSets,
// StatefulSets or Deployments (objects schedplay's simulate runs controllers for).
func (sc *Scenario) HasWorkloads() bool {
	return len(sc.ReplicationControllers)+len(sc.ReplicaSets)+len(sc.StatefulSets)+len(sc.Deployments) > 0
}

// workloads returns the Services, ReplicationControllers, ReplicaSets, StatefulSets
// and Deployments of the scenario.
func (sc *Scenario) workloads() []runtime.Object {
	var out []runtime.Object
	for _, o := range sc.Services {
		out = append(out, o)
	}
	for _, o := range sc.ReplicationControllers {
		out = append(out, o)
	}
	for _, o := range sc.ReplicaSets {
		out = append(out, o)
	}
	for _, o := range sc.StatefulSets {
		out = append(out, o)
	}
	for _, o := range sc.Deployments {
		out = append(out, o)
	}
	return out
}

// Objects returns every object of the scenario that exists before scheduling starts,
// except pods: namespaces, priority classes, nodes, PDBs and workloads.
func (sc *Scenario) Objects() []runtime.Object {
	var objs []runtime.Object
	for _, ns := range sc.Namespaces {
		objs = append(objs, ns.DeepCopy())
	}
	for _, pc := range sc.PriorityClasses {
		objs = append(objs, pc.DeepCopy())
	}
	for _, n := range sc.Nodes {
		objs = append(objs, n.DeepCopy())
	}
	for _, pdb := range sc.PDBs {
		objs = append(objs, pdb.DeepCopy())
	}
	for _, o := range sc.workloads() {
		objs = append(objs, o.DeepCopyObject())
	}
	for _, o := range sc.storageObjects() {
		objs = append(objs, o.DeepCopyObject())
	}
	return objs
}

// markRunning gives a bound pod the status a running pod has: phase Running, a start time
// (status.startTime, else creationTimestamp) and Ready=True unless the file says otherwise
// or the pod has finished.
func markRunning(p *v1.Pod) {
	if p.Status.Phase == "" || p.Status.Phase == v1.PodPending {
		p.Status.Phase = v1.PodRunning
	}
	if p.Status.StartTime == nil {
		t := p.CreationTimestamp
		p.Status.StartTime = &t
	}
	if p.Status.Phase == v1.PodSucceeded || p.Status.Phase == v1.PodFailed {
		// The kubelet marks a finished pod not ready (reason PodCompleted).
		return
	}
	hasReady := false
	for _, c := range p.Status.Conditions {
		if c.Type == v1.PodReady {
			hasReady = true
		}
	}
	if !hasReady {
		p.Status.Conditions = append(p.Status.Conditions, v1.PodCondition{Type: v1.PodReady, Status: v1.ConditionTrue})
	}
}

// DefaultConfig returns the KubeSchedulerConfiguration kube-scheduler uses without a config file.
func DefaultConfig() (*schedconfig.KubeSchedulerConfiguration, error) {
	obj, _, err := schedscheme.Codecs.UniversalDecoder().Decode([]byte(`{"apiVersion":"kubescheduler.config.k8s.io/v1","kind":"KubeSchedulerConfiguration"}`), nil, nil)
	if err != nil {
		return nil, err
	}
	return obj.(*schedconfig.KubeSchedulerConfiguration), nil
}

func toInternal(in runtime.Object, out runtime.Object) error {
	return legacyscheme.Scheme.Convert(in, out, nil)
}

func validateNode(n *v1.Node) field.ErrorList {
	var in core.Node
	if err := toInternal(n, &in); err != nil {
		return field.ErrorList{field.InternalError(nil, err)}
	}
	return corevalidation.ValidateNode(&in)
}

func validatePod(p *v1.Pod) field.ErrorList {
	var in core.Pod
	if err := toInternal(p, &in); err != nil {
		return field.ErrorList{field.InternalError(nil, err)}
	}
	opts := podutil.GetValidationOptionsFromPodSpecAndMeta(&in.Spec, nil, &in.ObjectMeta, nil)
	return corevalidation.ValidatePodCreate(&in, opts)
}

func validatePriorityClass(pc *schedulingv1.PriorityClass) field.ErrorList {
	var in scheduling.PriorityClass
	if err := toInternal(pc, &in); err != nil {
		return field.ErrorList{field.InternalError(nil, err)}
	}
	return schedulingvalidation.ValidatePriorityClass(&in)
}

func validatePDB(pdb *policyv1.PodDisruptionBudget) field.ErrorList {
	var in policy.PodDisruptionBudget
	if err := toInternal(pdb, &in); err != nil {
		return field.ErrorList{field.InternalError(nil, err)}
	}
	return policyvalidation.ValidatePodDisruptionBudget(&in, policyvalidation.PodDisruptionBudgetValidationOptions{AllowInvalidLabelValueInSelector: false})
}

// SortedPodKeys returns "ns/name" of every pod sorted by namespace then name.
func (sc *Scenario) SortedPodKeys() []string {
	var keys []string
	for _, p := range sc.Pods {
		keys = append(keys, p.Namespace+"/"+p.Name)
	}
	sort.Strings(keys)
	return keys
}

// Pod finds a pod by "ns/name" (or "name" in namespace default).
func (sc *Scenario) Pod(key string) *v1.Pod {
	ns, name := metav1.NamespaceDefault, key
	if i := strings.Index(key, "/"); i >= 0 {
		ns, name = key[:i], key[i+1:]
	}
	for _, p := range sc.Pods {
		if p.Namespace == ns && p.Name == name {
			return p
		}
	}
	return nil
}
