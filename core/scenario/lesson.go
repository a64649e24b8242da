package scenario

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/schedplay/schedplay/core/api"
)

// Lesson documents turn a scenario into a guided lesson (docs/lessons.md):
//
//	apiVersion: schedplay.dev/v1alpha1
//	kind: Lesson
//	metadata: {name: preemption-basic}
//	spec:
//	  title: Preemption, the basic case
//	  summary: ...
//	  topic: Preemption
//	  captions:
//	  - {at: 0s, text: ...}
//	  - {on: {kind: Nominated, pod: default/critical}, text: ...}
//	  expect:
//	    pods: {default/critical: {phase: Running, node: node-b}}
//	    events: [{kind: Preempted, pod: default/low-b2}]
const LessonKind = "Lesson"

// Lesson is what a scenario teaches and how the playground tells it.
type Lesson struct {
	Name    string
	Title   string
	Summary string
	Topic   string
	// Captions in document order.
	Captions []Caption
	Expect   LessonExpect
	// Variants are the lesson's "Try" suggestions: small patches to the
	// scenario, each with the outcome it leads to (LoadVariant runs one).
	Variants []Variant
	// Questions ask the learner, before the answer plays, for a fact one
	// of the expectations names (docs/lessons.md).
	Questions []Question
	Pos       Pos
}

// Question asks the learner for the run's answer to the expectation Fact
// names: the engine finds the answer (engine.Simulation.Answer), never the
// lesson text.
type Question struct {
	ID   string
	Fact string
	// Ask is what the learner answers with (one of QuestionAsks).
	Ask  string
	Text string
	// Options are the choices offered for a time question ("30s").
	Options []time.Duration
	Pos     Pos
}

// QuestionAsks are the kinds of answer a question takes: a node (the
// event's node, or the cycle's nominated or selected node), the victims
// of a preemption (a set of pods), the pod of an event found by its kind
// and node, the time of an event (one of the options), or the nodes a
// cycle found feasible (a set of nodes).
var QuestionAsks = []string{"node", "victims", "pod", "time", "feasible"}

// Caption is a line shown at a moment of the timeline: at a time (At) or at
// the first trace event that matches On.
type Caption struct {
	At   *time.Duration
	On   *EventMatch
	Text string
	Pos  Pos
}

// EventMatch selects trace events: every field set must be equal (Reason is
// a substring). At, when set, pins the event's time.
type EventMatch struct {
	// ID names an expectation so that a question can ask for the run's
	// answer to it (the matched event's node, victims, time).
	ID                      string
	Kind, Pod, Node, Reason string
	At                      *time.Duration
	// Victims and Ties, when set, must equal the event's lists (as sets):
	// the pods a preemption evicts (Nominated), the nodes that shared the
	// top score (Scheduled; an empty list means the node won outright).
	Victims, Ties []string
	// Absent inverts an expectation: no event may match.
	Absent bool
	Pos    Pos
}

func (m EventMatch) String() string {
	s := m.Kind
	if m.Pod != "" {
		s += " " + m.Pod
	}
	if m.Node != "" {
		s += " @ " + m.Node
	}
	if m.Reason != "" {
		s += fmt.Sprintf(" (reason contains %q)", m.Reason)
	}
	if m.At != nil {
		s += " at " + m.At.String()
	}
	if m.Victims != nil {
		s += fmt.Sprintf(" victims %v", m.Victims)
	}
	if m.Ties != nil {
		s += fmt.Sprintf(" ties %v", m.Ties)
	}
	return s
}

// LessonExpect is the outcome the lesson teaches.
type LessonExpect struct {
	// Pods in document order.
	Pods    []PodExpect
	Events  []EventMatch
	Explain []ExplainExpect
}

// PodExpect is a pod's final state; empty fields are not checked.
type PodExpect struct {
	// Pod is "namespace/name".
	Pod           string
	Phase         string
	Node          string
	NominatedNode string
	// Reason is the final status reason (Evicted).
	Reason string
	// Priority and PreemptionPolicy are what Priority admission resolved
	// from the pod's class (or the globalDefault class, or 0).
	Priority         *int32
	PreemptionPolicy string
	Pos              Pos
}

// ExplainExpect is what one scheduling cycle of Pod decided and why: the
// cycle that ends at or after the first event On matches (the pod's first
// cycle without On). Fields left out are not checked; lists are sets.
type ExplainExpect struct {
	ID  string
	Pod string
	On  *EventMatch
	// Selected are the nodes with the top total (several on a tie).
	Selected []string
	// Message is a substring of the FailedScheduling message.
	Message string
	// Nodes are filter verdicts by node name.
	Nodes []NodeExpect
	// Criterion is the preemption candidate-ordering rule that decided
	// (e.g. "lowest sum of victim priorities"); Candidates and Nominated
	// are the preemption dry run's nodes; Victims its victims by node.
	Criterion  string
	Candidates []string
	Nominated  []string
	Victims    map[string][]string
	Pos        Pos
}

// NodeExpect is one node's filter verdict in a cycle.
type NodeExpect struct {
	Name     string
	Feasible *bool
	// Plugin is the filter plugin that rejected the node.
	Plugin string
	// Reason is a substring of one of the plugin's reasons.
	Reason string
	// Scores are a feasible node's score plugins' normalized scores (0-100,
	// before the weight) by plugin; Raw what each plugin's Score returned
	// (before NormalizeScore), Weighted the normalized score times the
	// plugin's weight; Total is the weighted sum.
	Scores   map[string]int64
	Raw      map[string]int64
	Weighted map[string]int64
	Total    *int64
	Pos      Pos
}

// Lesson pod phases (the simulation's final phases).
var lessonPhases = []string{"Pending", "Running", "Failed", "Deleted"}

// lessonFields is a small schema helper: it reports unknown keys of n and
// returns the node of each known key.
func (l *loader) lessonFields(n *ynode, path string, known ...string) map[string]*ynode {
	out := map[string]*ynode{}
	for i, k := range n.keys {
		if !contains(known, k) {
			hint := "use one of " + strings.Join(known, ", ")
			if c := closest(k, known); c != "" {
				hint = fmt.Sprintf("did you mean %q?", c)
			}
			l.errorAt(n.kpos[i], LessonKind, joinPath(path, k), fmt.Sprintf("unknown field %q", k), hint)
			continue
		}
		out[k] = n.vals[i]
	}
	return out
}

func joinPath(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// lessonText reads a required or optional string field.
func (l *loader) lessonText(f map[string]*ynode, parent *ynode, path, key string, required bool) string {
	v := f[key]
	if v == nil || v.kind == yNull {
		if required {
			l.errorAt(parent.pos, LessonKind, joinPath(path, key), "Required value: "+key, "")
		}
		return ""
	}
	if v.kind != yScalar {
		l.errorAt(v.pos, LessonKind, joinPath(path, key), "expected text, got "+v.describe(), "")
		return ""
	}
	if required && strings.TrimSpace(v.text) == "" {
		l.errorAt(v.pos, LessonKind, joinPath(path, key), "Required value: "+key+" is empty", "")
	}
	return v.text
}

// readLesson reads a Lesson document into l.lesson.
// lessonKeys are the fields of a Lesson's mappings by path ("[]": an item
// of the list): what the reader accepts and the editor's schema offers.
var lessonKeys = map[string][]string{
	"":                 {"apiVersion", "kind", "metadata", "spec"},
	"metadata":         {"name"},
	"spec":             {"title", "summary", "topic", "captions", "expect", "variants", "questions"},
	"spec.captions[]":  {"at", "on", "text"},
	"spec.expect":      {"pods", "events", "explain"},
	"spec.variants[]":  {"name", "try", "patch", "expect", "rejected"},
	"spec.questions[]": {"id", "fact", "ask", "text", "options"},
}

func (l *loader) readLesson(n *ynode, apiVersion string, an *ynode) {
	if !l.ownAPIVersion(n, LessonKind, apiVersion, an) {
		return
	}
	if l.lesson != nil {
		l.errorAt(n.pos, LessonKind, "", fmt.Sprintf("a scenario may hold one Lesson; another starts at line %d", l.lesson.Pos.Line), "merge the two lessons")
		return
	}
	les := &Lesson{Pos: n.pos}
	top := l.lessonFields(n, "", lessonKeys[""]...)
	if md := top["metadata"]; md == nil || md.kind != yMap {
		l.errorAt(n.pos, LessonKind, "metadata.name", "Required value: name", "name the lesson after its file")
	} else {
		mf := l.lessonFields(md, "metadata", lessonKeys["metadata"]...)
		les.Name = l.lessonText(mf, md, "metadata", "name", true)
	}
	spec := top["spec"]
	if spec == nil || spec.kind != yMap {
		l.errorAt(n.pos, LessonKind, "spec", "Required value: spec holds title, summary, topic, captions and expect", "")
		return
	}
	sf := l.lessonFields(spec, "spec", lessonKeys["spec"]...)
	les.Title = l.lessonText(sf, spec, "spec", "title", true)
	les.Summary = l.lessonText(sf, spec, "spec", "summary", true)
	les.Topic = l.lessonText(sf, spec, "spec", "topic", true)
	if c := sf["captions"]; c != nil && c.kind != yNull {
		if c.kind != ySeq {
			l.errorAt(c.pos, LessonKind, "spec.captions", "expected a list of captions, got "+c.describe(), "")
		} else {
			for i, it := range c.items {
				if cp, ok := l.readCaption(it, fmt.Sprintf("spec.captions[%d]", i)); ok {
					les.Captions = append(les.Captions, cp)
				}
			}
		}
	}
	if e := sf["expect"]; e != nil && e.kind != yNull {
		les.Expect = l.readExpect(e, "spec.expect")
	}
	les.Variants = l.readVariants(sf["variants"])
	les.Questions = l.readQuestions(sf["questions"], les.Expect)
	l.lesson = les
}

// readQuestions reads spec.questions; each names an expectation of exp by
// its id.
func (l *loader) readQuestions(n *ynode, exp LessonExpect) []Question {
	if n == nil || n.kind == yNull {
		return nil
	}
	if n.kind != ySeq {
		l.errorAt(n.pos, LessonKind, "spec.questions", "expected a list of questions, got "+n.describe(), "")
		return nil
	}
	ids := map[string]bool{}
	for _, m := range exp.Events {
		if m.ID != "" {
			ids[m.ID] = true
		}
	}
	for _, x := range exp.Explain {
		if x.ID != "" {
			ids[x.ID] = true
		}
	}
	var out []Question
	seen := map[string]bool{}
	for i, it := range n.items {
		path := fmt.Sprintf("spec.questions[%d]", i)
		if it.kind != yMap {
			l.errorAt(it.pos, LessonKind, path, "a question must be a mapping, got "+it.describe(), `write {id: where, fact: nominated, ask: node, text: "..."}`)
			continue
		}
		before := len(l.diags)
		f := l.lessonFields(it, path, lessonKeys["spec.questions[]"]...)
		q := Question{Pos: it.pos}
		q.ID = l.lessonText(f, it, path, "id", true)
		q.Fact = l.lessonText(f, it, path, "fact", true)
		q.Ask = l.lessonText(f, it, path, "ask", true)
		q.Text = l.lessonText(f, it, path, "text", true)
		if q.ID != "" && seen[q.ID] {
			l.errorAt(f["id"].pos, LessonKind, path+".id", fmt.Sprintf("another question is named %q", q.ID), "give each question its own id")
		}
		seen[q.ID] = true
		if q.Fact != "" && !ids[q.Fact] {
			l.errorAt(f["fact"].pos, LessonKind, path+".fact", fmt.Sprintf("no expectation has id %q", q.Fact), "add id: to the spec.expect event or explain entry the question asks about")
		}
		if q.Ask != "" && !contains(QuestionAsks, q.Ask) {
			l.errorAt(f["ask"].pos, LessonKind, path+".ask", fmt.Sprintf("unknown answer kind %q", q.Ask), "use one of "+strings.Join(QuestionAsks, ", "))
		}
		if o := f["options"]; o != nil {
			if o.kind != ySeq {
				l.errorAt(o.pos, LessonKind, path+".options", "expected a list of times, got "+o.describe(), `write [10s, 30s, 40s]`)
			} else {
				for _, x := range o.items {
					d, ok := parseAt(x)
					if !ok {
						l.errorAt(x.pos, LessonKind, path+".options", fmt.Sprintf("invalid time %s", x.describe()), `write a duration from the start such as "30s"`)
						continue
					}
					q.Options = append(q.Options, d)
				}
			}
		}
		if q.Ask == "time" && len(q.Options) < 2 && f["options"] == nil {
			l.errorAt(it.pos, LessonKind, path+".options", "a time question needs options", "list two or more times the learner picks from")
		}
		if len(l.diags) == before {
			out = append(out, q)
		}
	}
	return out
}

func (l *loader) readCaption(n *ynode, path string) (Caption, bool) {
	c := Caption{Pos: n.pos}
	if n.kind != yMap {
		l.errorAt(n.pos, LessonKind, path, "a caption must be a mapping, got "+n.describe(), `write {at: 0s, text: "..."} or {on: {kind: Nominated, pod: default/x}, text: "..."}`)
		return c, false
	}
	f := l.lessonFields(n, path, lessonKeys["spec.captions[]"]...)
	c.Text = l.lessonText(f, n, path, "text", true)
	if at := f["at"]; at != nil {
		d, ok := parseAt(at)
		if !ok {
			l.errorAt(at.pos, LessonKind, path+".at", fmt.Sprintf("invalid time %s", at.describe()), `write a duration from the start such as "30s", "1m30s" or a number of seconds`)
			return c, false
		}
		c.At = &d
	}
	if on := f["on"]; on != nil {
		m, ok := l.readEventMatch(on, path+".on", false)
		if !ok {
			return c, false
		}
		c.On = &m
	}
	switch {
	case c.At == nil && c.On == nil:
		l.errorAt(n.pos, LessonKind, path, "the caption has no moment", "add at: (a time) or on: (a trace event)")
		return c, false
	case c.At != nil && c.On != nil:
		l.errorAt(f["on"].pos, LessonKind, path+".on", "a caption has one moment; this one already has at", "keep at or on")
		return c, false
	}
	return c, c.Text != ""
}

// readEventMatch reads {kind, pod, node, reason} (and at, absent in expectations).
func (l *loader) readEventMatch(n *ynode, path string, expectation bool) (EventMatch, bool) {
	m := EventMatch{Pos: n.pos}
	if n.kind != yMap {
		l.errorAt(n.pos, LessonKind, path, "expected an event match {kind, pod, node}, got "+n.describe(), "")
		return m, false
	}
	known := []string{"kind", "pod", "node", "reason"}
	if expectation {
		known = append(known, "at", "absent", "victims", "ties", "id")
	}
	before := len(l.diags)
	f := l.lessonFields(n, path, known...)
	m.Kind = l.lessonText(f, n, path, "kind", true)
	m.Pod = podKey(l.lessonText(f, n, path, "pod", false))
	m.Node = l.lessonText(f, n, path, "node", false)
	m.Reason = l.lessonText(f, n, path, "reason", false)
	if at := f["at"]; at != nil {
		d, ok := parseAt(at)
		if !ok {
			l.errorAt(at.pos, LessonKind, path+".at", fmt.Sprintf("invalid time %s", at.describe()), `write a duration from the start such as "30s"`)
		}
		m.At = &d
	}
	if a := f["absent"]; a != nil {
		m.Absent = l.lessonBool(a, path+".absent")
	}
	m.ID = l.lessonText(f, n, path, "id", false)
	m.Victims = l.lessonList(f["victims"], path+".victims", podKey)
	m.Ties = l.lessonList(f["ties"], path+".ties", nil)
	return m, len(l.diags) == before
}

// lessonInt reads a whole number (nil after reporting anything else).
func (l *loader) lessonInt(n *ynode, path string) *int64 {
	if n.kind == yScalar && !n.isStr {
		if v, err := strconv.ParseInt(n.text, 10, 64); err == nil {
			return &v
		}
	}
	l.errorAt(n.pos, LessonKind, path, "expected a whole number, got "+n.describe(), "")
	return nil
}

// lessonScores reads {plugin: score} (nil when n is absent); what says
// which score it is (normalized, raw, weighted).
func (l *loader) lessonScores(n *ynode, path, what string) map[string]int64 {
	if n == nil {
		return nil
	}
	if n.kind != yMap {
		l.errorAt(n.pos, LessonKind, path, "expected a mapping of score plugin to its "+what+" score, got "+n.describe(), "write {PodTopologySpread: 100}")
		return nil
	}
	out := map[string]int64{}
	for i, k := range n.keys {
		if v := l.lessonInt(n.vals[i], path+"."+k); v != nil {
			out[k] = *v
		}
	}
	return out
}

func (l *loader) lessonBool(n *ynode, path string) bool {
	if n.kind != yScalar || (n.text != "true" && n.text != "false") {
		l.errorAt(n.pos, LessonKind, path, "expected true or false, got "+n.describe(), "")
	}
	return n.text == "true"
}

// lessonList reads a list of names (nil when n is absent, empty for []),
// each passed through norm when set.
func (l *loader) lessonList(n *ynode, path string, norm func(string) string) []string {
	if n == nil {
		return nil
	}
	if n.kind != ySeq {
		l.errorAt(n.pos, LessonKind, path, "expected a list of names, got "+n.describe(), "write [a, b] (or [] for none)")
		return nil
	}
	out := []string{}
	for _, it := range n.items {
		if it.kind != yScalar {
			l.errorAt(it.pos, LessonKind, path, "expected a name, got "+it.describe(), "")
			continue
		}
		if norm != nil {
			out = append(out, norm(it.text))
		} else {
			out = append(out, it.text)
		}
	}
	return out
}

// podKey defaults a bare pod name to the default namespace.
func podKey(s string) string {
	if s != "" && !strings.Contains(s, "/") {
		return "default/" + s
	}
	return s
}

func (l *loader) readExpect(n *ynode, path string) LessonExpect {
	var e LessonExpect
	if n.kind != yMap {
		l.errorAt(n.pos, LessonKind, path, "expected {pods, events, explain}, got "+n.describe(), "")
		return e
	}
	f := l.lessonFields(n, path, lessonKeys["spec.expect"]...)
	if pods := f["pods"]; pods != nil && pods.kind != yNull {
		if pods.kind != yMap {
			l.errorAt(pods.pos, LessonKind, path+".pods", "expected a mapping of pod (namespace/name) to its final state, got "+pods.describe(), "")
		} else {
			for i, k := range pods.keys {
				if pe, ok := l.readPodExpect(pods.vals[i], path+".pods["+k+"]", k); ok {
					e.Pods = append(e.Pods, pe)
				}
			}
		}
	}
	if evs := f["events"]; evs != nil && evs.kind != yNull {
		if evs.kind != ySeq {
			l.errorAt(evs.pos, LessonKind, path+".events", "expected a list of event matches, got "+evs.describe(), "")
		} else {
			for i, it := range evs.items {
				if m, ok := l.readEventMatch(it, fmt.Sprintf("%s.events[%d]", path, i), true); ok {
					e.Events = append(e.Events, m)
				}
			}
		}
	}
	if ex := f["explain"]; ex != nil && ex.kind != yNull {
		if ex.kind != ySeq {
			l.errorAt(ex.pos, LessonKind, path+".explain", "expected a list of cycles {pod, on, selected, ...}, got "+ex.describe(), "")
		} else {
			for i, it := range ex.items {
				if x, ok := l.readExplainExpect(it, fmt.Sprintf("%s.explain[%d]", path, i)); ok {
					e.Explain = append(e.Explain, x)
				}
			}
		}
	}
	return e
}

func (l *loader) readExplainExpect(n *ynode, path string) (ExplainExpect, bool) {
	x := ExplainExpect{Pos: n.pos}
	if n.kind != yMap {
		l.errorAt(n.pos, LessonKind, path, "expected {pod, on, selected, nodes, criterion, ...}, got "+n.describe(), "")
		return x, false
	}
	before := len(l.diags)
	f := l.lessonFields(n, path, "id", "pod", "on", "selected", "message", "nodes", "criterion", "candidates", "nominated", "victims")
	x.ID = l.lessonText(f, n, path, "id", false)
	x.Pod = podKey(l.lessonText(f, n, path, "pod", true))
	if on := f["on"]; on != nil {
		if m, ok := l.readEventMatch(on, path+".on", false); ok {
			x.On = &m
		}
	}
	x.Selected = l.lessonList(f["selected"], path+".selected", nil)
	x.Message = l.lessonText(f, n, path, "message", false)
	x.Criterion = l.lessonText(f, n, path, "criterion", false)
	x.Candidates = l.lessonList(f["candidates"], path+".candidates", nil)
	x.Nominated = l.lessonList(f["nominated"], path+".nominated", nil)
	if v := f["victims"]; v != nil {
		if v.kind != yMap {
			l.errorAt(v.pos, LessonKind, path+".victims", "expected a mapping of node to its victims, got "+v.describe(), "")
		} else {
			x.Victims = map[string][]string{}
			for i, k := range v.keys {
				x.Victims[k] = l.lessonList(v.vals[i], path+".victims."+k, podKey)
			}
		}
	}
	if ns := f["nodes"]; ns != nil {
		if ns.kind != yMap {
			l.errorAt(ns.pos, LessonKind, path+".nodes", "expected a mapping of node to its verdict {feasible, plugin, reason}, got "+ns.describe(), "")
		} else {
			for i, k := range ns.keys {
				vn, np := ns.vals[i], path+".nodes."+k
				ne := NodeExpect{Name: k, Pos: vn.pos}
				if vn.kind != yMap {
					l.errorAt(vn.pos, LessonKind, np, "expected {feasible, plugin, reason}, got "+vn.describe(), "")
					continue
				}
				nf := l.lessonFields(vn, np, "feasible", "plugin", "reason", "scores", "raw", "weighted", "total")
				if fe := nf["feasible"]; fe != nil {
					b := l.lessonBool(fe, np+".feasible")
					ne.Feasible = &b
				}
				ne.Plugin = l.lessonText(nf, vn, np, "plugin", false)
				ne.Reason = l.lessonText(nf, vn, np, "reason", false)
				ne.Scores = l.lessonScores(nf["scores"], np+".scores", "normalized")
				ne.Raw = l.lessonScores(nf["raw"], np+".raw", "raw")
				ne.Weighted = l.lessonScores(nf["weighted"], np+".weighted", "weighted")
				if t := nf["total"]; t != nil {
					ne.Total = l.lessonInt(t, np+".total")
				}
				x.Nodes = append(x.Nodes, ne)
			}
		}
	}
	return x, len(l.diags) == before
}

func (l *loader) readPodExpect(n *ynode, path, key string) (PodExpect, bool) {
	pe := PodExpect{Pod: podKey(key), Pos: n.pos}
	if n.kind != yMap {
		l.errorAt(n.pos, LessonKind, path, "expected {phase, node, nominatedNode}, got "+n.describe(), "")
		return pe, false
	}
	before := len(l.diags)
	f := l.lessonFields(n, path, "phase", "node", "nominatedNode", "reason", "priority", "preemptionPolicy")
	pe.Reason = l.lessonText(f, n, path, "reason", false)
	if p := f["priority"]; p != nil {
		if v := l.lessonInt(p, path+".priority"); v != nil {
			if *v < math.MinInt32 || *v > math.MaxInt32 {
				l.errorAt(p.pos, LessonKind, path+".priority", fmt.Sprintf("priority %d is not a 32-bit integer", *v), "")
			} else {
				pe.Priority = ptr(int32(*v))
			}
		}
	}
	pe.PreemptionPolicy = l.lessonText(f, n, path, "preemptionPolicy", false)
	if pe.PreemptionPolicy != "" {
		if !contains(enumOf[api.PreemptionPolicy](), pe.PreemptionPolicy) {
			l.errorAt(f["preemptionPolicy"].pos, LessonKind, path+".preemptionPolicy", fmt.Sprintf("unknown preemptionPolicy %q", pe.PreemptionPolicy), "use one of "+strings.Join(enumOf[api.PreemptionPolicy](), ", "))
		}
	}
	pe.Phase = l.lessonText(f, n, path, "phase", false)
	if pe.Phase != "" && !contains(lessonPhases, pe.Phase) {
		l.errorAt(f["phase"].pos, LessonKind, path+".phase", fmt.Sprintf("unknown phase %q", pe.Phase), "use one of "+strings.Join(lessonPhases, ", "))
	}
	pe.Node = l.lessonText(f, n, path, "node", false)
	pe.NominatedNode = l.lessonText(f, n, path, "nominatedNode", false)
	return pe, len(l.diags) == before
}
