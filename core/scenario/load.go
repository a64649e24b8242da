package scenario

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
)

// kindInfo says how a kind is read.
type kindInfo struct {
	apiVersion string
	namespaced bool
	newObj     func() any
}

var kinds = map[string]kindInfo{
	"Node":                       {"v1", false, func() any { return &api.Node{} }},
	"Pod":                        {"v1", true, func() any { return &api.Pod{} }},
	"PriorityClass":              {"scheduling.k8s.io/v1", false, func() any { return &api.PriorityClass{} }},
	"PodDisruptionBudget":        {"policy/v1", true, func() any { return &api.PodDisruptionBudget{} }},
	"Namespace":                  {"v1", false, func() any { return &api.Namespace{} }},
	"Service":                    {"v1", true, func() any { return &api.Service{} }},
	"ReplicationController":      {"v1", true, func() any { return &api.ReplicationController{} }},
	"ReplicaSet":                 {"apps/v1", true, func() any { return &api.ReplicaSet{} }},
	"StatefulSet":                {"apps/v1", true, func() any { return &api.StatefulSet{} }},
	"Deployment":                 {"apps/v1", true, func() any { return &api.Deployment{} }},
	"PersistentVolume":           {"v1", false, func() any { return &api.PersistentVolume{} }},
	"PersistentVolumeClaim":      {"v1", true, func() any { return &api.PersistentVolumeClaim{} }},
	"StorageClass":               {"storage.k8s.io/v1", false, func() any { return &api.StorageClass{} }},
	"CSINode":                    {"storage.k8s.io/v1", false, func() any { return &api.CSINode{} }},
	"CSIDriver":                  {"storage.k8s.io/v1", false, func() any { return &api.CSIDriver{} }},
	"KubeSchedulerConfiguration": {"kubescheduler.config.k8s.io/v1", false, func() any { return &config.KubeSchedulerConfiguration{} }},
}

// object is one decoded manifest with what diagnostics need.
type object struct {
	kind  string
	key   string // Positions key
	label string // "Pod default/web"
	pos   Pos
	// paths are the positions of the fields decoded (path, see decoder),
	// nil for a Pod or Node a Cache keeps: decoding its tree again gives them.
	paths map[string]Pos
	// raw is the object's tree; nil for an object a Cache keeps, whose
	// document keeps its text instead (tree parses it again).
	raw *ynode
	at  treeAt
	// hostNet is the pod's spec.hostNetwork as written (true, not a
	// string), which admission reads: the decoder does not store it
	// (fields.go), and a kept object has no tree.
	hostNet bool
	val     any
	// checked, for an object a Cache keeps, is what validating it reported
	// (shared by the copies the Cache hands out).
	checked *checked
	// pristine is set when val is a pod a Cache shares as the last
	// scenario admitted it: the value as decoded, which admission skips.
	pristine any
}

// treeAt is where a kept object's tree is: the document, the index of its
// tree there and of the List item (-1: the tree is the object).
type treeAt struct {
	doc        *cachedDoc
	tree, item int32
}

// tree is the object's tree: raw, or its kept document's text parsed again
// (nil when it has neither).
func (o *object) tree() *ynode {
	if o.raw != nil || o.at.doc == nil {
		return o.raw
	}
	n := o.at.doc.reparse()[o.at.tree]
	if o.at.item >= 0 {
		n = n.get("items").items[o.at.item]
	}
	return n
}

// path is the position of the field at path p, when it was decoded.
func (o *object) path(p string) (Pos, bool) {
	if o.paths == nil {
		o.paths = decodedPaths(o)
	}
	pos, ok := o.paths[p]
	return pos, ok
}

// pathPos is path's position, the zero Pos when it was not decoded.
func (o *object) pathPos(p string) Pos {
	pos, _ := o.path(p)
	return pos
}

// decodedPaths decodes o's tree again for the positions of its fields
// (what the decoder reports is o's already).
func decodedPaths(o *object) map[string]Pos {
	n := o.tree()
	if n == nil {
		return nil
	}
	d := &decoder{l: &loader{lim: DefaultLimits}, object: o.label, pos: map[string]Pos{}}
	d.decode(n, valueOf(kinds[o.kind].newObj()), "", true)
	return d.pos
}

type loader struct {
	file  string
	src   []byte
	lim   Limits
	diags []Diagnostic
	objs  []*object
	// timeline and the objects its actions create (kept out of objs: they
	// do not exist at T0).
	timeline []*Action
	created  []*object
	lesson   *Lesson
	byVal    map[any]*object // objectOf's index, once all objects are read
	// variant, when set, names the lesson variant LoadVariant applies.
	variant string
	// budget counts nodes and pods as objects are read (limits.go).
	budget budget
	// yield, when set, hears the progress and may stop the load (step).
	yield     Yield
	cancelled bool
	// at is the step under way (done, total), which pause repeats.
	at [2]int
}

// Yield is a load's progress hook: it is called between documents and
// stages with the steps done of all steps (again with the same step every
// few hundred objects of a stage that handles them all), and returns false
// to stop the load (which then returns ErrCancelled). A caller that must
// stay responsive, like the browser build, gives way to other work in it.
type Yield func(done, total int) bool

// ErrCancelled is the error of a load its Yield stopped.
var ErrCancelled = errors.New("the load was cancelled")

// step reports progress to the yield hook; false once the load is stopped.
func (l *loader) step(done, total int) bool {
	l.at = [2]int{done, total}
	if l.yield != nil && !l.cancelled && !l.yield(done, total) {
		l.cancelled = true
	}
	return !l.cancelled
}

// pauseEvery is how many objects validation and admission handle between
// calls of the Yield (a few milliseconds in the browser).
const pauseEvery = 256

// pause calls the Yield again within the step under way after every
// pauseEvery objects (i counts them): validating and admitting thousands
// of pods is one step, which took some 400 ms in a browser.
func (l *loader) pause(i int) bool {
	if i%pauseEvery != pauseEvery-1 {
		return !l.cancelled
	}
	return l.step(l.at[0], l.at[1])
}

func (l *loader) add(d Diagnostic) {
	d.File = l.file
	l.diags = append(l.diags, d)
}

func (l *loader) errorAt(p Pos, obj, path, msg, hint string) {
	l.add(Diagnostic{Line: p.Line, Col: p.Col, Object: obj, Field: path, Msg: msg, Hint: hint, Severity: SeverityError})
}

func (l *loader) warnAt(p Pos, obj, path, msg, hint string) {
	l.add(Diagnostic{Line: p.Line, Col: p.Col, Object: obj, Field: path, Msg: msg, Hint: hint, Severity: SeverityWarning})
}

func (l *loader) hasErrors() bool {
	for _, d := range l.diags {
		if d.Severity == SeverityError {
			return true
		}
	}
	return false
}

func scalarAt(n *ynode, keys ...string) (string, *ynode) {
	for _, k := range keys {
		if n == nil || n.kind != yMap {
			return "", nil
		}
		n = n.get(k)
	}
	if n == nil || n.kind != yScalar {
		return "", n
	}
	return n.text, n
}

func (l *loader) load() *Scenario {
	if !l.precheck() {
		return nil
	}
	return l.loadChecked()
}

// precheck refuses input over the byte, depth or width limits before the
// YAML parser sees it.
func (l *loader) precheck() bool {
	return l.checkSize() && l.checkShape()
}

func (l *loader) loadChecked() *Scenario {
	docs := l.parseDocuments()
	if l.variant != "" && !l.hasErrors() {
		docs = l.patchDocuments(docs)
	}
	for i, doc := range docs {
		if l.budget.over {
			break
		}
		if !l.step(i, len(docs)+1) {
			return nil
		}
		l.readDocument(doc)
	}
	if l.hasErrors() || !l.step(len(docs), len(docs)+1) {
		return nil
	}
	return l.assemble()
}

func (l *loader) readDocument(doc *ynode) {
	if doc.kind == yNull {
		return
	}
	if doc.kind != yMap {
		l.errorAt(doc.pos, "", "", fmt.Sprintf("a document must be a Kubernetes object (a mapping), got %s", doc.describe()), "start the document with apiVersion: and kind:")
		return
	}
	kind, _ := scalarAt(doc, "kind")
	if items := doc.get("items"); items != nil && (kind == "List" || strings.HasSuffix(kind, "List")) {
		if items.kind == yNull {
			return
		}
		if items.kind != ySeq {
			l.errorAt(items.pos, "", "items", "expected a list of objects, got "+items.describe(), "")
			return
		}
		for _, it := range items.items {
			if l.budget.over {
				return
			}
			if it.kind != yMap {
				l.errorAt(it.pos, "", "items", "a List item must be a Kubernetes object (a mapping), got "+it.describe(), "")
				continue
			}
			l.readObject(it)
		}
		return
	}
	l.readObject(doc)
}

func (l *loader) readObject(n *ynode) {
	kind, kn := scalarAt(n, "kind")
	apiVersion, an := scalarAt(n, "apiVersion")
	if kn == nil || kind == "" {
		l.errorAt(n.pos, "", "kind", "missing kind", "add kind: Pod, Node, PriorityClass, PodDisruptionBudget, ... to the object")
		return
	}
	if kind == TimelineKind {
		l.readTimeline(n, apiVersion, an)
		return
	}
	if kind == LessonKind {
		l.readLesson(n, apiVersion, an)
		return
	}
	info, ok := kinds[kind]
	if !ok {
		l.warnAt(kn.pos, "", "kind", fmt.Sprintf("kind %s is not simulated; the object is ignored", kind), "")
		return
	}
	if an == nil || apiVersion == "" {
		l.errorAt(n.pos, "", "apiVersion", "missing apiVersion", "add apiVersion: "+info.apiVersion)
		return
	}
	if apiVersion != info.apiVersion {
		l.errorAt(an.pos, "", "apiVersion", fmt.Sprintf("no kind %s in version %q", kind, apiVersion), "use apiVersion: "+info.apiVersion)
		return
	}
	name, _ := scalarAt(n, "metadata", "name")
	ns := ""
	if info.namespaced {
		ns, _ = scalarAt(n, "metadata", "namespace")
		if ns == "" {
			ns = "default"
		}
	}
	o := &object{kind: kind, pos: n.pos, raw: n, hostNet: hostNetwork(n), val: info.newObj()}
	switch {
	case kind == "KubeSchedulerConfiguration":
		o.key, o.label = kind, kind
	case info.namespaced:
		o.key, o.label = kind+"/"+ns+"/"+name, kind+" "+ns+"/"+name
	default:
		o.key, o.label = kind+"/"+name, kind+" "+name
	}
	d := &decoder{l: l, object: o.label, pos: map[string]Pos{}}
	d.decode(n, valueOf(o.val), "", true)
	o.paths = d.pos
	l.objs = append(l.objs, o)
	l.countObject(o)
}

// assemble validates the decoded objects together, admits them and builds the Scenario.
func (l *loader) assemble() *Scenario {
	s := &Scenario{Positions: make(map[string]Pos, len(l.objs))}
	seen := make(map[string]*object, len(l.objs))
	var cfgObj *object
	for i, o := range l.objs {
		if !l.pause(i) {
			return nil
		}
		if o.kind == "KubeSchedulerConfiguration" {
			if cfgObj != nil {
				l.errorAt(o.pos, o.label, "", fmt.Sprintf("a scenario may hold one KubeSchedulerConfiguration; another starts at line %d", cfgObj.pos.Line), "merge the two configurations")
				continue
			}
			cfgObj = o
			continue
		}
		v := &validator{l: l, o: o}
		meta := objectMeta(o.val)
		if meta.Name == "" {
			v.err("metadata.name", "Required value: name is required", "give the object a metadata.name")
		}
		if first, dup := seen[o.key]; dup {
			v.err("metadata.name", fmt.Sprintf("%s is defined twice (first at line %d)", o.label, first.pos.Line), "rename or remove one of them")
			continue
		}
		seen[o.key] = o
		s.Positions[o.key] = o.pos
		v.check()
	}
	if cfgObj != nil {
		s.Positions[cfgObj.key] = cfgObj.pos
		s.Config = cfgObj.val.(*config.KubeSchedulerConfiguration)
		(&validator{l: l, o: cfgObj}).validateConfig(s.Config)
	} else {
		s.Config = &config.KubeSchedulerConfiguration{}
	}
	config.SetDefaults(s.Config)
	if l.hasErrors() {
		return nil
	}
	// Each object goes to the Scenario list of its type, in document order.
	for _, o := range l.objs {
		s.place(o.val)
	}
	l.admit(s)
	l.assembleTimeline(s)
	s.Lesson = l.lesson
	if l.hasErrors() {
		return nil
	}
	return s
}

// place appends a decoded object to the list of its type (a type switch:
// the reflective walk over the fields was a good part of assembling in the
// browser). TestPlaceEveryKind checks it against the fields.
func (s *Scenario) place(v any) {
	switch x := v.(type) {
	case *api.Node:
		s.Nodes = append(s.Nodes, x)
	case *api.Pod:
		s.Pods = append(s.Pods, x)
	case *api.PriorityClass:
		s.PriorityClasses = append(s.PriorityClasses, x)
	case *api.PodDisruptionBudget:
		s.PDBs = append(s.PDBs, x)
	case *api.Namespace:
		s.Namespaces = append(s.Namespaces, x)
	case *api.Service:
		s.Services = append(s.Services, x)
	case *api.ReplicationController:
		s.ReplicationControllers = append(s.ReplicationControllers, x)
	case *api.ReplicaSet:
		s.ReplicaSets = append(s.ReplicaSets, x)
	case *api.StatefulSet:
		s.StatefulSets = append(s.StatefulSets, x)
	case *api.Deployment:
		s.Deployments = append(s.Deployments, x)
	case *api.PersistentVolume:
		s.PersistentVolumes = append(s.PersistentVolumes, x)
	case *api.PersistentVolumeClaim:
		s.PersistentVolumeClaims = append(s.PersistentVolumeClaims, x)
	case *api.StorageClass:
		s.StorageClasses = append(s.StorageClasses, x)
	case *api.CSINode:
		s.CSINodes = append(s.CSINodes, x)
	case *api.CSIDriver:
		s.CSIDrivers = append(s.CSIDrivers, x)
	}
}

// objectOf finds the object record of a decoded value (indexed on first
// use: admission asks once per pod).
func (l *loader) objectOf(v any) *object {
	if l.byVal == nil {
		l.byVal = make(map[any]*object, len(l.objs))
		for _, o := range l.objs {
			if _, dup := l.byVal[o.val]; !dup {
				l.byVal[o.val] = o
			}
		}
	}
	return l.byVal[v]
}

// objectMeta returns the ObjectMeta every scenario kind embeds.
func objectMeta(v any) *api.ObjectMeta {
	if o, ok := v.(interface{ Meta() *api.ObjectMeta }); ok {
		return o.Meta()
	}
	return &api.ObjectMeta{}
}

func sortedKeys[K ~string, V any](m map[K]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, string(k))
	}
	sort.Strings(keys)
	return keys
}
