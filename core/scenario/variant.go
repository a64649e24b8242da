package scenario

import (
	"fmt"
	"strconv"
	"strings"
)

// Variant is a lesson's "Try" suggestion made runnable: a small patch to
// the scenario's documents and the outcome the patched scenario leads to.
//
//	variants:
//	- name: no-node4
//	  try: Delete node4 and node3 fits.
//	  patch:
//	  - {object: Node/node4, delete: true}
//	  - {object: Pod/pod2, set: {spec.nodeName: node1}}
//	  - add: {apiVersion: v1, kind: Pod, metadata: {name: extra}, spec: ...}
//	  expect: {pods: {mypod: {node: node3}}}
type Variant struct {
	Name string
	// Try is the suggestion as the learner reads it.
	Try    string
	Expect LessonExpect
	// Rejected, instead of Expect, says the patched scenario does not
	// load: it is a substring of the API server's message, which the
	// loader reports at the offending field's file:line:col.
	Rejected string
	Pos      Pos
}

func (l *loader) readVariants(n *ynode) []Variant {
	if n == nil || n.kind == yNull {
		return nil
	}
	if n.kind != ySeq {
		l.errorAt(n.pos, LessonKind, "spec.variants", "expected a list of variants {name, try, patch, expect}, got "+n.describe(), "")
		return nil
	}
	var out []Variant
	seen := map[string]Pos{}
	for i, it := range n.items {
		path := fmt.Sprintf("spec.variants[%d]", i)
		if it.kind != yMap {
			l.errorAt(it.pos, LessonKind, path, "expected {name, try, patch, expect}, got "+it.describe(), "")
			continue
		}
		f := l.lessonFields(it, path, lessonKeys["spec.variants[]"]...)
		v := Variant{Pos: it.pos}
		v.Name = l.lessonText(f, it, path, "name", true)
		v.Try = l.lessonText(f, it, path, "try", true)
		if p, dup := seen[v.Name]; dup && v.Name != "" {
			l.errorAt(it.pos, LessonKind, path+".name", fmt.Sprintf("variant %q is defined twice (first at line %d)", v.Name, p.Line), "rename one of them")
		}
		seen[v.Name] = it.pos
		if p := f["patch"]; p == nil || p.kind != ySeq || len(p.items) == 0 {
			l.errorAt(it.pos, LessonKind, path+".patch", "Required value: a variant changes the scenario", "add patch: [{object: Kind/name, set: {path: value}}]")
		} else {
			for j, op := range p.items {
				l.checkPatchOp(op, fmt.Sprintf("%s.patch[%d]", path, j))
			}
		}
		v.Rejected = l.lessonText(f, it, path, "rejected", false)
		e := f["expect"]
		switch {
		case v.Rejected != "" && e != nil:
			l.errorAt(e.pos, LessonKind, path+".expect", "a rejected variant never runs, so it has no outcome", "keep rejected: or expect:")
		case e != nil && e.kind != yNull:
			v.Expect = l.readExpect(e, path+".expect")
		case v.Rejected == "":
			l.errorAt(it.pos, LessonKind, path+".expect", "Required value: what the variant leads to", "add expect: {pods: ..., events: ...}, or rejected: with the message that refuses it")
		}
		out = append(out, v)
	}
	return out
}

// checkPatchOp reports a malformed patch operation; patchDocuments applies it.
func (l *loader) checkPatchOp(op *ynode, path string) (object string, f map[string]*ynode, ok bool) {
	if op.kind != yMap {
		l.errorAt(op.pos, LessonKind, path, "expected {object, set} or {object, delete: true} or {add: object}, got "+op.describe(), "")
		return "", nil, false
	}
	before := len(l.diags)
	f = l.lessonFields(op, path, "object", "set", "delete", "add")
	if a := f["add"]; a != nil {
		if len(f) != 1 {
			l.errorAt(op.pos, LessonKind, path, "add stands alone", "write {add: {apiVersion: ..., kind: ..., ...}}")
		} else if a.kind != yMap {
			l.errorAt(a.pos, LessonKind, path+".add", "expected an object, got "+a.describe(), "")
		}
		return "", f, len(l.diags) == before
	}
	object = l.lessonText(f, op, path, "object", true)
	set, del := f["set"], f["delete"]
	switch {
	case (set == nil) == (del == nil):
		l.errorAt(op.pos, LessonKind, path, "a patch of an object has set or delete: true", "")
	case set != nil && set.kind != yMap:
		l.errorAt(set.pos, LessonKind, path+".set", "expected a mapping of field path (spec.nodeName, metadata.labels.app, spec.containers[0].image) to value, got "+set.describe(), "")
	case del != nil && !l.lessonBool(del, path+".delete"):
		l.errorAt(del.pos, LessonKind, path+".delete", "delete: false changes nothing", "remove the operation or write delete: true")
	}
	return object, f, len(l.diags) == before
}

// LoadVariant loads the scenario with its lesson's variant applied: the
// patch changes the parsed documents before they are read, so positions in
// messages point at the file (the variant's lines for what it set).
func LoadVariant(filename string, data []byte, variant string) (*Scenario, error) {
	l := &loader{file: filename, src: data, lim: DefaultLimits, variant: variant}
	return l.finish(l.load())
}

// patchDocuments applies the variant named l.variant to docs.
func (l *loader) patchDocuments(docs []*ynode) []*ynode {
	var ops *ynode
	var lessonAt Pos
	for _, d := range docs {
		if k, _ := scalarAt(d, "kind"); k != LessonKind {
			continue
		}
		lessonAt = d.pos
		if vs := d.get("spec"); vs != nil && vs.kind == yMap {
			if list := vs.get("variants"); list != nil && list.kind == ySeq {
				for _, v := range list.items {
					if name, _ := scalarAt(v, "name"); name == l.variant {
						ops = v.get("patch")
					}
				}
			}
		}
	}
	if ops == nil || ops.kind != ySeq {
		l.errorAt(lessonAt, LessonKind, "spec.variants", fmt.Sprintf("no variant named %q", l.variant), "name one of the lesson's spec.variants")
		return docs
	}
	for i, op := range ops.items {
		path := fmt.Sprintf("variant %s: patch[%d]", l.variant, i)
		object, f, ok := l.checkPatchOp(op, path)
		if !ok {
			continue
		}
		if a := f["add"]; a != nil {
			docs = insertBeforeOwnKinds(docs, a)
			continue
		}
		at := findDocument(docs, object)
		if at < 0 {
			l.errorAt(f["object"].pos, LessonKind, path+".object", fmt.Sprintf("no object %s in the scenario", object), "write Kind/name or Kind/namespace/name of an object in the file")
			continue
		}
		if f["delete"] != nil {
			docs = append(docs[:at:at], docs[at+1:]...)
			continue
		}
		set := f["set"]
		for j, k := range set.keys {
			if err := setPath(docs[at], k, set.vals[j]); err != nil {
				l.errorAt(set.kpos[j], LessonKind, path+".set", err.Error(), "")
			}
		}
	}
	return docs
}

// insertBeforeOwnKinds adds a document before the first schedplay.dev one,
// so that an added pending pod queues after the file's own pods.
func insertBeforeOwnKinds(docs []*ynode, doc *ynode) []*ynode {
	for i, d := range docs {
		if k, _ := scalarAt(d, "kind"); k == LessonKind || k == TimelineKind {
			return append(docs[:i:i], append([]*ynode{doc}, docs[i:]...)...)
		}
	}
	return append(docs, doc)
}

// findDocument finds Kind/name, Kind/namespace/name, or a lone Kind
// (Timeline, KubeSchedulerConfiguration).
func findDocument(docs []*ynode, object string) int {
	parts := strings.Split(object, "/")
	kind, ns, name := parts[0], "", ""
	switch len(parts) {
	case 2:
		name = parts[1]
	case 3:
		ns, name = parts[1], parts[2]
	}
	for i, d := range docs {
		if k, _ := scalarAt(d, "kind"); k != kind {
			continue
		}
		n, _ := scalarAt(d, "metadata", "name")
		dns, _ := scalarAt(d, "metadata", "namespace")
		if dns == "" {
			dns = "default"
		}
		if len(parts) == 1 || (n == name && (ns == "" || ns == dns)) {
			return i
		}
	}
	return -1
}

// setPath sets a dotted path (keys, and [i] for list items; i may be the
// list's length to append) under doc to v, creating missing mappings.
func setPath(doc *ynode, path string, v *ynode) error {
	n := doc
	segs := strings.Split(path, ".")
	for si, seg := range segs {
		key, idx := seg, []int(nil)
		if b := strings.IndexByte(seg, '['); b >= 0 {
			key = seg[:b]
			for _, part := range strings.Split(strings.TrimSuffix(seg[b+1:], "]"), "][") {
				i, err := strconv.Atoi(part)
				if err != nil || i < 0 {
					return fmt.Errorf("%s: %q is not a list index", path, part)
				}
				idx = append(idx, i)
			}
		}
		last := si == len(segs)-1
		if key != "" {
			if n.kind == yNull {
				n.kind = yMap
			}
			if n.kind != yMap {
				return fmt.Errorf("%s: %s is %s, not a mapping", path, key, n.describe())
			}
			child := n.get(key)
			if child == nil {
				child = &ynode{kind: yNull, pos: v.pos}
				n.keys, n.kpos, n.vals = append(n.keys, key), append(n.kpos, v.pos), append(n.vals, child)
			}
			if last && idx == nil {
				*child = *v
				return nil
			}
			n = child
		}
		for ii, i := range idx {
			if n.kind == yNull {
				n.kind = ySeq
			}
			if n.kind != ySeq || i > len(n.items) {
				return fmt.Errorf("%s: no item [%d] in %s", path, i, n.describe())
			}
			if i == len(n.items) {
				n.items = append(n.items, &ynode{kind: yNull, pos: v.pos})
			}
			if last && ii == len(idx)-1 {
				*n.items[i] = *v
				return nil
			}
			n = n.items[i]
		}
	}
	return nil
}
