package scenario

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// loadResult is what a load gives, in a form cmp can compare.
type loadResult struct {
	S     *Scenario
	Err   string
	Diags ErrorList
}

func diffLoads(t *testing.T, c *Cache, name string, src string) {
	t.Helper()
	diffLoadsWith(t, "Cache.Load", c.Load, name, name, src)
}

// overCache loads each text as an edit of the last it gave a scenario
// for, as the playground does (LoadOver: Same, then a load that takes
// Same's split).
type overCache struct {
	c    Cache
	last *Scenario
}

func (o *overCache) load(name string, src []byte) (*Scenario, error) {
	s, _, err := o.c.LoadOver(o.last, name, src, nil)
	if s != nil {
		o.last = s
	}
	return s, err
}

// diffLoadsOver is diffLoads through o, of one file (Same answers only
// for the file of the last load).
func diffLoadsOver(t *testing.T, o *overCache, name string, src string) {
	t.Helper()
	diffLoadsWith(t, "Cache.LoadOver", o.load, name, "s.yaml", src)
}

func diffLoadsWith(t *testing.T, how string, load func(string, []byte) (*Scenario, error), name, file, src string) {
	t.Helper()
	ws, werr := Load(file, []byte(src))
	gs, gerr := load(file, []byte(src))
	want, got := loadResult{S: ws}, loadResult{S: gs}
	if werr != nil {
		want.Err = werr.Error()
		want.Diags, _ = werr.(ErrorList)
	}
	if gerr != nil {
		got.Err = gerr.Error()
		got.Diags, _ = gerr.(ErrorList)
	}
	if diff := cmp.Diff(want, got, cmp.Exporter(func(reflect.Type) bool { return true })); diff != "" {
		t.Errorf("%s: %s differs from Load (-want +got):\n%s", name, how, diff)
	}
}

func exampleTexts(t *testing.T) map[string]string {
	t.Helper()
	files, _ := filepath.Glob("../../examples/*.yaml")
	more, _ := filepath.Glob("testdata/*.yaml")
	files = append(files, more...)
	if len(files) < 10 {
		t.Fatalf("found only %d example files", len(files))
	}
	out := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = string(data)
	}
	return out
}

// The cache must give exactly what Load gives, on a first load, on the same
// text again, and through edits: lines deleted (breaking documents),
// inserted (moving the documents below), changed and appended.
func TestCacheLoadMatchesLoad(t *testing.T) {
	for name, src := range exampleTexts(t) {
		t.Run(name, func(t *testing.T) {
			c, o := &Cache{}, &overCache{}
			both := func(name, src string) {
				t.Helper()
				diffLoads(t, c, name, src)
				diffLoadsOver(t, o, name, src)
			}
			both(name, src)
			both(name, src)
			c.Prepare()
			o.c.Prepare()
			both(name, src)
			lines := strings.SplitAfter(src, "\n")
			step := max(1, len(lines)/25)
			for i := 0; i < len(lines); i += step {
				edited := strings.Join(lines[:i], "") + strings.Join(lines[i+1:], "")
				both(fmt.Sprintf("%s without line %d", name, i+1), edited)
				inserted := strings.Join(lines[:i], "") + "# a comment\n" + strings.Join(lines[i:], "")
				both(fmt.Sprintf("%s with a line before %d", name, i+1), inserted)
				changed := strings.Join(lines[:i], "") + strings.Replace(lines[i], ":", ": x", 1) + strings.Join(lines[i+1:], "")
				if i%2 == 0 {
					c.Prepare()
					o.c.Prepare()
				}
				both(fmt.Sprintf("%s with line %d changed", name, i+1), changed)
			}
			both(name+" with a pod appended", src+"\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: appended}\nspec:\n  containers: [{name: c, image: pause}]\n")
			both(name+" twice", src+"\n---\n"+src)
			both(name, src)
			both(name+" with a comment at the end", src+"\n# the end\n")
		})
	}
}

// Streams whose documents cannot be cut at "---" lines alone go through
// the whole stream's parse, with the same results and errors.
func TestCacheLoadSpecialStreams(t *testing.T) {
	pod := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: pause}]\n"
	node := "apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus: {allocatable: {cpu: \"1\"}}\n"
	for _, tc := range []struct{ name, src string }{
		{"directive", "%YAML 1.2\n---\n" + pod},
		{"end marker", pod + "...\n---\n" + node},
		{"marker with content", "--- " + "{apiVersion: v1, kind: Node, metadata: {name: n}}\n---\n" + pod},
		{"CRLF", strings.ReplaceAll(pod+"---\n"+node, "\n", "\r\n")},
		{"leading marker", "---\n" + pod + "---\n" + node},
		// goccy loses the document after an empty one; so must the cache.
		{"empty document", "---\n" + pod + "---\n---\n" + node},
		{"comment document", pod + "---\n# nothing\n---\n" + node + "---\n"},
		{"syntax error in the second document", pod + "---\nkind: [\n"},
		{"unknown alias in the first document", "a: *nope\n---\n" + pod + "---\nkind: [\n"},
		{"alias across documents", "x: &a {name: n}\n---\napiVersion: v1\nkind: Node\nmetadata: *a\n"},
		{"quoted scalar over a marker", "apiVersion: v1\nkind: Pod\nmetadata: {name: \"p\n---\nq\"}\n"},
		{"block scalar before a marker", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ns\n  annotations:\n    a: |\n      text\n---\n" + pod},
		{"duplicate documents", pod + "---\n" + pod},
		{"timeline and lesson", pod + "---\napiVersion: schedplay.dev/v1\nkind: Timeline\nspec: []\n---\napiVersion: schedplay.dev/v1\nkind: Lesson\nmetadata: {name: l}\n"},
		// The shape check: over a limit in one document, and a flow or a
		// quote open over a marker (the stream's scan goes on into the
		// next document, so the documents' own scans do not decide).
		{"too deep", pod + "---\na: " + strings.Repeat("[", 120) + strings.Repeat("]", 120) + "\n---\n" + node},
		{"too deep in blocks", pod + "---\n" + deepBlocks(110) + "---\n" + node},
		{"too wide", pod + "---\n" + wideMap(10_001) + "---\n" + node},
		{"flow open over a marker", "a: [1,\n---\n" + strings.Repeat("[", 99) + strings.Repeat("]", 99) + "]\n---\n" + node},
		{"flow open over a marker, deep after", "a: [1,\n---\nb: " + strings.Repeat("[", 99) + strings.Repeat("]", 99) + "]\n---\n" + pod},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, o := &Cache{}, &overCache{}
			for _, src := range []string{tc.src, tc.src, "# moved down\n" + tc.src, tc.src + "# at the end\n"} {
				diffLoads(t, c, "s.yaml", src)
				diffLoadsOver(t, o, "s.yaml", src)
			}
		})
	}
}

// deepBlocks is a block mapping n levels deep.
func deepBlocks(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%sk%d:\n", strings.Repeat(" ", i), i)
	}
	fmt.Fprintf(&b, "%sv: 1\n", strings.Repeat(" ", n))
	return b.String()
}

// wideMap is a mapping of n keys.
func wideMap(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "k%d: %d\n", i, i)
	}
	return b.String()
}

// Admission and the engine change the objects a load hands out; the next
// load of the same text must not see those changes, whether its objects
// were copied ahead (Prepare) or not.
func TestCacheLoadHandsOutFreshObjects(t *testing.T) {
	for _, prepare := range []bool{false, true} {
		t.Run(fmt.Sprintf("prepare=%v", prepare), func(t *testing.T) { testFreshObjects(t, prepare) })
	}
}

func testFreshObjects(t *testing.T, prepare bool) {
	src := exampleTexts(t)["preemption-basic.yaml"]
	c := &Cache{}
	if prepare {
		if _, err := c.Load("s.yaml", []byte(src)); err != nil {
			t.Fatal(err)
		}
		c.Prepare()
	}
	s1, err := c.Load("s.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if prepare {
		c.Prepare()
	}
	// (The pods of documents of Pods only are shared, as admitted, with
	// the next load: TestCacheSharesAdmittedPods.)
	for _, n := range s1.Nodes {
		n.Labels["changed"] = "yes"
		n.Status.Allocatable["cpu"] = n.Status.Allocatable["memory"]
	}
	diffLoads(t, c, "s.yaml", src)
	reused := 0
	for _, cd := range c.docs {
		if cd.read && len(cd.objs) > 0 {
			reused++
		}
	}
	if reused < len(s1.Pods)+len(s1.Nodes) {
		t.Errorf("the cache holds %d decoded documents, want at least the %d pods and nodes", reused, len(s1.Pods)+len(s1.Nodes))
	}
}

// Validation results are kept with an unchanged document's objects and
// reported again, in order, with the load's file name, next to objects
// validated afresh; duplicates and cross-object checks still run on the
// whole scenario.
func TestCacheLoadKeepsValidation(t *testing.T) {
	pod := func(name, extra string) string {
		return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + extra + "}\nspec:\n  containers: [{name: c, image: pause}]\n"
	}
	bad := "apiVersion: v1\nkind: Node\nmetadata: {name: Bad_Node, labels: {\"-x\": y}}\nstatus: {allocatable: {cpu: \"-1\"}}\n"
	warn := "apiVersion: v1\nkind: Pod\nmetadata: {name: w, namespace: other}\nspec:\n  containers: [{name: c, image: pause, resources: {requests: {cpu: 1, memory: -1}}}]\n"
	valid := pod("a", "") + "---\n" + pod("b", ", namespace: ns") + "---\napiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus: {allocatable: {cpu: \"1\"}}\n"
	steps := []struct{ name, file, src string }{
		{"valid", "s.yaml", valid},
		{"valid again", "s.yaml", valid},
		{"valid under another name", "t.yaml", valid},
		{"a duplicate appended", "s.yaml", valid + "---\n" + pod("a", "")},
		{"invalid objects added", "s.yaml", bad + "---\n" + valid + "---\n" + warn},
		{"invalid objects again", "s.yaml", bad + "---\n" + valid + "---\n" + warn},
		{"invalid objects under another name", "u.yaml", bad + "---\n" + valid + "---\n" + warn},
		{"one fixed", "s.yaml", valid + "---\n" + warn},
		{"bad back, valid moved", "s.yaml", bad + "---\n# moved\n" + valid},
		{"bad twice", "s.yaml", bad + "---\n" + bad + "---\n" + valid},
		{"valid", "s.yaml", valid},
	}
	c := &Cache{}
	for i, st := range steps {
		diffLoads(t, c, st.file, st.src)
		if i%3 == 1 {
			c.Prepare()
		}
	}
	kept := 0
	for _, cd := range c.docs {
		for _, o := range cd.objs {
			if o.checked != nil && o.checked.done {
				kept++
			}
		}
	}
	if kept != 3 {
		t.Errorf("the cache holds %d validated objects, want the 3 of the last text", kept)
	}
}

func TestSplitDocuments(t *testing.T) {
	got, ok := splitDocuments([]byte("a: 1\n---\nb: 2\n\n---\r\nc: 3"), 0)
	if !ok {
		t.Fatal("split refused a plain stream")
	}
	var texts []string
	var lines []int
	for _, p := range got {
		texts = append(texts, string(p.text))
		lines = append(lines, p.line)
	}
	if diff := cmp.Diff([]string{"a: 1\n", "b: 2\n\n", "c: 3"}, texts); diff != "" {
		t.Errorf("texts (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{1, 3, 6}, lines); diff != "" {
		t.Errorf("first lines (-want +got):\n%s", diff)
	}
	// A marker line with more on it starts the next piece; empty and
	// comment-only pieces stay (they are what goccy's whole-stream parse
	// loses documents after).
	got, ok = splitDocuments([]byte("a: 1\n---\n# empty\n---\n--- # note\nb: 2\n---\t{c: 3}"), 0)
	if !ok {
		t.Fatal("split refused a stream with an empty document and marker lines with comments")
	}
	texts, lines = nil, nil
	for _, p := range got {
		texts = append(texts, string(p.text))
		lines = append(lines, p.line)
	}
	if diff := cmp.Diff([]string{"a: 1\n", "# empty\n", "", "--- # note\nb: 2\n", "---\t{c: 3}"}, texts); diff != "" {
		t.Errorf("texts (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{1, 3, 5, 5, 7}, lines); diff != "" {
		t.Errorf("first lines (-want +got):\n%s", diff)
	}
	for _, src := range []string{"%YAML 1.2\n---\na: 1\n", "a: 1\n...\n", "a: 1\n---x\n"} {
		if _, ok := splitDocuments([]byte(src), 0); ok {
			t.Errorf("split %q, want the whole stream's parse", src)
		}
	}
}

func FuzzCacheLoad(f *testing.F) {
	for _, src := range exampleTexts(&testing.T{}) {
		f.Add([]byte(src))
	}
	for _, s := range []string{"", "---\n---\n", "kind: [", "a: &x [*x]", "a: 1\n---\n\n---\nb: 2\n", "x: &a {b: 1}\n---\ny: {<<: *a}\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, o := &Cache{}, &overCache{}
		for _, src := range []string{string(data), string(data), "# moved\n" + string(data), string(data) + "\n# end\n"} {
			diffLoads(t, c, "fuzz.yaml", src)
			diffLoadsOver(t, o, "fuzz.yaml", src)
		}
	})
}

// benchScenario is the playground bench's 50 nodes / 300 pods scenario
// (web/bench/figures.mjs).
func benchScenario() string {
	var b strings.Builder
	b.WriteString("apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: low}\nvalue: 100\n")
	for i := range 50 {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Node\nmetadata: {name: node-%d, labels: {topology.kubernetes.io/zone: zone-%d, kubernetes.io/hostname: node-%d}}\nstatus: {allocatable: {cpu: \"16\", memory: 64Gi, pods: \"110\"}}\n", i, i%3, i)
	}
	for i := range 300 {
		where := fmt.Sprintf("nodeName: node-%d", i%50)
		if i >= 270 {
			where = "schedulerName: default-scheduler"
		}
		pc := "low"
		if i%7 == 0 {
			pc = "high"
		}
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Pod\nmetadata: {name: pod-%d, labels: {app: app-%d}}\nspec:\n  %s\n  priorityClassName: %s\n  containers: [{name: c, image: pause, resources: {requests: {cpu: 100m, memory: 128Mi}}}]\n", i, i%20, where, pc)
	}
	return b.String()
}

// An edit that appends a pod: Load reads everything again, the cache only
// the new document.
func BenchmarkEditLoad(b *testing.B) {
	text := benchScenario()
	edited := func(i int) []byte {
		return fmt.Appendf([]byte(text), "---\napiVersion: v1\nkind: Pod\nmetadata: {name: x%d}\nspec:\n  containers: [{name: c, image: pause}]\n", i)
	}
	b.Run("Load", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if _, err := Load("s.yaml", edited(i)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Cache", func(b *testing.B) {
		c := &Cache{}
		if _, err := c.Load("s.yaml", []byte(text)); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if _, err := c.Load("s.yaml", edited(i)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// place puts every kind's object into exactly the Scenario lists of its
// type (what the reflective walk over the fields did), and objectMeta finds
// its ObjectMeta.
func TestPlaceEveryKind(t *testing.T) {
	for kind, info := range kinds {
		t.Run(kind, func(t *testing.T) {
			v := info.newObj()
			s := &Scenario{}
			s.place(v)
			want, got := 0, 0
			sv := reflect.ValueOf(s).Elem()
			for i := 0; i < sv.NumField(); i++ {
				f := sv.Field(i)
				if f.Kind() != reflect.Slice || f.Type().Elem() != reflect.TypeOf(v) {
					continue
				}
				want++
				if f.Len() == 1 && f.Index(0).Interface() == v {
					got++
				}
			}
			if kind == "KubeSchedulerConfiguration" {
				want = 0 // Config is not a list
			}
			if got != want {
				t.Errorf("placed in %d of the %d lists of its type", got, want)
			}
			// objectMeta finds the field reflection finds.
			if f := reflect.ValueOf(v).Elem().FieldByName("ObjectMeta"); f.IsValid() {
				if m := objectMeta(v); m != f.Addr().Interface() {
					t.Errorf("objectMeta gave %p, want the ObjectMeta field at %p", m, f.Addr().Interface())
				}
			}
		})
	}
}

// A load its Yield stops at any step returns ErrCancelled and leaves the
// Cache consistent: the next load, of the same text or of an edit, gives
// exactly what Load gives. Yield hears every step, in order, to the last.
func TestCacheLoadYieldingCancels(t *testing.T) {
	for _, name := range []string{"preemption-basic.yaml", "cordon-and-drain.yaml"} {
		src, ok := exampleTexts(t)[name]
		if !ok {
			t.Fatalf("no example %s", name)
		}
		edited := strings.Replace(src, "\n---\n", "\n---\n# edited\n", 1)
		var seen [][2]int
		c := &Cache{}
		if _, err := c.LoadYielding(name, []byte(src), func(done, total int) bool {
			seen = append(seen, [2]int{done, total})
			return true
		}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(seen) < 3 {
			t.Fatalf("%s: yield heard %d steps", name, len(seen))
		}
		for i, s := range seen {
			if s[0] != i || s[1] != len(seen) {
				t.Fatalf("%s: step %d was %d of %d, want %d of %d", name, i, s[0], s[1], i, len(seen))
			}
		}
		for stop := range seen {
			for _, text := range []string{src, edited} {
				c := &Cache{}
				diffLoads(t, c, name, src)
				calls := 0
				s, err := c.LoadYielding(name, []byte(text), func(done, total int) bool {
					calls++
					return done < stop
				})
				if s != nil || !errors.Is(err, ErrCancelled) {
					t.Fatalf("%s stopped at step %d: got %v, %v; want ErrCancelled", name, stop, s != nil, err)
				}
				if calls != stop+1 {
					t.Fatalf("%s stopped at step %d: yield called %d times after it said stop", name, stop, calls-stop-1)
				}
				diffLoads(t, c, name+" after a cancelled load", text)
				diffLoads(t, c, name+" edited after a cancelled load", edited)
			}
		}
	}
}

// Prepare in parts copies one document per part and stops when asked to;
// the next call goes on where it stopped, and a load after any part gives
// what Load gives.
func TestCachePrepareInParts(t *testing.T) {
	src := exampleTexts(t)["preemption-basic.yaml"]
	c := &Cache{}
	diffLoads(t, c, "s.yaml", src)
	spares := func() (read, spare int) {
		for _, cd := range c.docs {
			if cd.read && (cd.admitted == nil || cd.admGen != c.adm.gen) { // not shared
				read++
			}
			if cd.spare != nil {
				spare++
			}
		}
		return read, spare
	}
	kept, _ := spares()
	if kept < 3 {
		t.Fatalf("the cache holds %d decoded documents, want at least 3", kept)
	}
	no := func() bool { return false }
	if c.PrepareYielding(no) {
		t.Fatal("the first part said done with more documents to copy")
	}
	if _, n := spares(); n != 1 {
		t.Errorf("after one part %d documents have copies, want 1", n)
	}
	diffLoads(t, c, "s.yaml", src) // one copied ahead, the others not: all handed out
	parts := 0
	for !c.PrepareYielding(no) {
		parts++
	}
	if parts != kept-1 {
		t.Errorf("Prepare stopped %d times, want once per document after the first (%d)", parts, kept-1)
	}
	if _, n := spares(); n != kept {
		t.Errorf("%d documents have copies made ahead, want all %d", n, kept)
	}
	diffLoads(t, c, "s.yaml", src)
}

// Validating and admitting a large scenario's objects pauses within its
// last step; a load stopped at any of those pauses returns ErrCancelled,
// and the next load gives exactly what Load gives.
func TestLoadYieldingPausesWithinAssembling(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus: {allocatable: {cpu: \"100\", pods: \"1000\"}}\n")
	for i := range 2*pauseEvery + 10 {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p%d}\nspec:\n  containers: [{name: c, image: pause, resources: {requests: {cpu: 10m}}}]\n", i)
	}
	src := b.String()
	last := 0
	c := &Cache{}
	if _, err := c.LoadYielding("s.yaml", []byte(src), func(done, total int) bool {
		if done == total-1 {
			last++
		}
		return true
	}); err != nil {
		t.Fatal(err)
	}
	// The step itself, then twice in validation and twice in admission.
	if last != 5 {
		t.Fatalf("the last step paused %d times, want 5", last)
	}
	for stop := 1; stop < last; stop++ {
		n := 0
		s, err := c.LoadYielding("s.yaml", []byte(src), func(done, total int) bool {
			if done == total-1 {
				n++
			}
			return n <= stop
		})
		if s != nil || !errors.Is(err, ErrCancelled) {
			t.Fatalf("stopped at pause %d of the last step: got %v, %v; want ErrCancelled", stop, s != nil, err)
		}
		diffLoads(t, c, "s.yaml", src)
	}
}

// podPieces are the indexes of the documents of text (split at "\n---\n")
// that hold a Pod.
func podPieces(pieces []string) []int {
	var out []int
	for i, p := range pieces {
		if strings.HasPrefix(p, "kind: Pod\n") || strings.Contains(p, "\nkind: Pod\n") {
			out = append(out, i)
		}
	}
	return out
}

// sharingEdits are edits of a scenario's text and whether the pods of the
// documents they leave alone may be shared as admitted (their admission
// reads the same nodes, PriorityClasses and T0) or not.
var sharingEdits = []struct {
	name  string
	share bool
	edit  func(string) string
}{
	{"one pod renamed", true, func(s string) string {
		pieces := strings.Split(s, "\n---\n")
		if ps := podPieces(pieces); len(ps) > 0 {
			p := pieces[ps[len(ps)-1]]
			i := strings.Index(p, "name: ") + len("name: ")
			pieces[ps[len(ps)-1]] = p[:i] + "renamed-" + p[i:]
		}
		return strings.Join(pieces, "\n---\n")
	}},
	{"a pod removed", true, func(s string) string {
		pieces := strings.Split(s, "\n---\n")
		// The last: a document that moves is read again (its positions),
		// and its pods are admitted afresh.
		if ps := podPieces(pieces); len(ps) > 0 {
			pieces = slices.Delete(pieces, ps[len(ps)-1], ps[len(ps)-1]+1)
		}
		return strings.Join(pieces, "\n---\n")
	}},
	{"a pod added", true, func(s string) string {
		return s + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: added}\nspec:\n  containers: [{name: c, image: pause, resources: {requests: {cpu: 10m}}}]\n"
	}},
	{"a PriorityClass added, the default", false, func(s string) string {
		return s + "---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: added-default}\nvalue: 7\nglobalDefault: true\n"
	}},
	{"a node added", false, func(s string) string {
		return s + "---\napiVersion: v1\nkind: Node\nmetadata: {name: added-node}\nstatus: {allocatable: {cpu: \"4\", pods: \"10\"}}\n"
	}},
	{"a scheduler configuration added", false, func(s string) string {
		return s + "---\napiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\npercentageOfNodesToScore: 50\n"
	}},
	{"a pod created later, T0 moved", false, func(s string) string {
		return s + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: late, creationTimestamp: \"2031-05-01T00:00:00Z\"}\nspec:\n  containers: [{name: c, image: pause}]\n"
	}},
}

// The pods of documents of Pods only are handed out as the last scenario
// admitted them when their admission reads what it read then, and copied
// afresh otherwise: either way a load through the Cache is exactly what
// Load gives, for every example under every edit (with and without the
// copies made ahead), the previous scenario stays what it was, and the
// pods are shared only when they may be.
func TestCacheSharesAdmittedPods(t *testing.T) {
	for name, text := range exampleTexts(t) {
		for _, e := range sharingEdits {
			for _, prepare := range []bool{false, true} {
				c := &Cache{}
				prev, err := c.Load("s.yaml", []byte(text))
				if err != nil {
					continue // the invalid inputs of testdata
				}
				if prepare {
					c.Prepare()
				}
				edited := e.edit(text)
				got, gerr := c.Load("s.yaml", []byte(edited))
				want, werr := Load("s.yaml", []byte(edited))
				if fmt.Sprint(gerr) != fmt.Sprint(werr) {
					t.Fatalf("%s, %s: error %v, want %v", name, e.name, gerr, werr)
				}
				if diff := cmp.Diff(want, got, cmp.Exporter(func(reflect.Type) bool { return true })); diff != "" {
					t.Fatalf("%s, %s: Cache.Load differs from Load (-want +got):\n%s", name, e.name, diff)
				}
				fresh, _ := Load("s.yaml", []byte(text))
				if diff := cmp.Diff(fresh, prev, cmp.Exporter(func(reflect.Type) bool { return true })); diff != "" {
					t.Fatalf("%s, %s: the load changed the previous scenario (-want +got):\n%s", name, e.name, diff)
				}
				if got == nil {
					continue
				}
				shared := 0
				for _, p := range got.Pods {
					if slices.Contains(prev.Pods, p) {
						shared++
					}
				}
				switch {
				case !e.share && shared > 0:
					t.Errorf("%s, %s: %d pods shared after a change their admission reads", name, e.name, shared)
				case e.share && shared == 0 && len(prev.Pods) > 1 && got.T0.Equal(prev.T0):
					t.Errorf("%s, %s: no pod shared of %d", name, e.name, len(prev.Pods))
				}
				// And back: the same text again gives what Load gives.
				diffLoads(t, c, "s.yaml", text)
			}
		}
	}
}

// A kept Pod's field positions are not kept (decoding its tree again gives
// them): an error admission reports at a field of a kept pod, readmitted
// after another document changed, is where Load puts it.
func TestCacheKeptPodsErrorAtTheirFields(t *testing.T) {
	node := func(cpu string) string {
		return "apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus: {allocatable: {cpu: \"" + cpu + "\"}}\n"
	}
	pods := "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  containers: [{name: c, image: pause}]\n---\n" +
		"apiVersion: v1\nkind: Pod\nmetadata: {name: b}\nspec:\n  containers: [{name: c, image: pause}]\n  nodeName: gone\n"
	c := &Cache{}
	for _, cpu := range []string{"1", "2", "3"} {
		src := node(cpu) + "---\n" + pods
		diffLoads(t, c, "s.yaml", src)
		_, err := c.Load("s.yaml", []byte(src))
		var list ErrorList
		if !errors.As(err, &list) || len(list) != 1 || list[0].Field != "spec.nodeName" || list[0].Line != 17 || list[0].Col != 13 {
			t.Fatalf("cpu %s: got %v, want the unknown node at spec.nodeName, 17:13", cpu, err)
		}
	}
}

// A document the Cache has read keeps its text, not its tree: what a later
// load reads of the tree comes from the text parsed again, and must be
// what Load reads. A kept pod readmitted after the node changed keeps its
// hostNetwork (its ports are host ports); an error at a field of a pod
// kept in a List, or in a document with an anchor (goccy's parse), is
// where Load puts it; and a pod restyled is compared with the tree of its
// text before (Unchanged), a pod changed is not.
func TestCacheKeptDocumentsReadFromTheirText(t *testing.T) {
	node := func(cpu string) string {
		return "apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus: {allocatable: {cpu: \"" + cpu + "\"}}\n---\n"
	}
	hostNet := "apiVersion: v1\nkind: Pod\nmetadata: {name: h}\nspec:\n  hostNetwork: true\n  containers: [{name: c, image: pause, ports: [{containerPort: 80}]}]\n"
	list := "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: a}\n  spec:\n    containers: [{name: c, image: pause}]\n" +
		"- apiVersion: v1\n  kind: Pod\n  metadata: {name: b}\n  spec:\n    containers: [{name: c, image: pause}]\n    nodeName: gone\n"
	anchored := "apiVersion: v1\nkind: Pod\nmetadata: {name: x, labels: &l {app: x}}\nspec:\n  containers: [{name: c, image: pause}]\n  nodeSelector: *l\n  nodeName: gone2\n"
	for _, tc := range []struct {
		name, docs string
		line, col  int // of the error at spec.nodeName; 0: none
	}{
		{"hostNetwork", hostNet, 0, 0},
		{"a List", list, 19, 15},
		{"an anchor", anchored, 12, 13},
	} {
		for _, prepare := range []bool{false, true} {
			c := &Cache{}
			for _, cpu := range []string{"1", "2", "3"} {
				src := node(cpu) + tc.docs
				diffLoads(t, c, "s.yaml", src)
				if prepare {
					c.Prepare()
				}
				s, err := c.Load("s.yaml", []byte(src))
				if tc.line == 0 {
					if err != nil {
						t.Fatalf("%s, cpu %s: %v", tc.name, cpu, err)
					}
					if hp := s.Pods[0].Spec.Containers[0].Ports[0].HostPort; hp != 80 {
						t.Errorf("%s, cpu %s: hostPort %d, want 80 (hostNetwork)", tc.name, cpu, hp)
					}
					continue
				}
				var list ErrorList
				if !errors.As(err, &list) || len(list) != 1 || list[0].Field != "spec.nodeName" || list[0].Line != tc.line || list[0].Col != tc.col {
					t.Errorf("%s, cpu %s: got %v, want the unknown node at spec.nodeName, %d:%d", tc.name, cpu, err, tc.line, tc.col)
				}
			}
		}
	}
	pod := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: pause, resources: {requests: {cpu: 100m}}}]\n"
	for _, tc := range []struct {
		name, edited string
		same         bool
	}{
		{"restyled", strings.Replace(pod, "metadata: {name: p}", "metadata:\n  name: \"p\"", 1), true},
		{"changed", strings.Replace(pod, "100m", "101m", 1), false},
	} {
		c := &Cache{}
		prev, err := c.Load("s.yaml", []byte(node("1")+pod))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Load("s.yaml", []byte(node("1")+tc.edited)); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := c.Unchanged() == prev; got != tc.same {
			t.Errorf("%s: Unchanged is the previous scenario: %v, want %v", tc.name, got, tc.same)
		}
	}
}
