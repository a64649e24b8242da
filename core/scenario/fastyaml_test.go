package scenario

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplay/schedplay/internal/benchdata"
)

// dumpTrees writes everything a ynode tree holds, for comparing two.
func dumpTrees(trees []*ynode) string {
	var b strings.Builder
	var dump func(n *ynode, ind string)
	dump = func(n *ynode, ind string) {
		fmt.Fprintf(&b, "%s%v %d:%d size=%d", ind, n.kind, n.pos.Line, n.pos.Col, n.size)
		if n.kind == yScalar || n.text != "" || n.isStr {
			fmt.Fprintf(&b, " %q str=%v", n.text, n.isStr)
		}
		b.WriteString("\n")
		if len(n.keys) != len(n.kpos) || len(n.keys) != len(n.vals) {
			fmt.Fprintf(&b, "%s!! %d keys, %d kpos, %d vals\n", ind, len(n.keys), len(n.kpos), len(n.vals))
		}
		for i, k := range n.keys {
			fmt.Fprintf(&b, "%s key %q %d:%d\n", ind, k, n.kpos[i].Line, n.kpos[i].Col)
			if i < len(n.vals) {
				dump(n.vals[i], ind+"   ")
			}
		}
		for _, it := range n.items {
			dump(it, ind+" - ")
		}
	}
	for i, t := range trees {
		fmt.Fprintf(&b, "document %d\n", i)
		dump(t, "")
	}
	return b.String()
}

// checkFastPiece parses one document's text both ways: the fast path must
// decline it or give what goccy and treeBuilder give. It reports whether
// the fast path took it.
func checkFastPiece(t *testing.T, text []byte, offset int) bool {
	t.Helper()
	trees, ok := fastParse(text, "", offset, nil)
	if !ok {
		return false
	}
	pd, err := parsePieceGoccy(text, offset, DefaultLimits.Aliases)
	switch {
	case err != nil:
		t.Fatalf("fast path accepted what goccy rejects (%v):\n%s", err, text)
	case pd.berr != nil:
		t.Fatalf("fast path accepted what treeBuilder rejects (%v):\n%s", *pd.berr, text)
	case pd.aliased != 0:
		t.Fatalf("fast path accepted aliases:\n%s", text)
	}
	if got, want := dumpTrees(trees), dumpTrees(pd.trees); got != want {
		t.Fatalf("fast path tree differs from goccy's for %q\nfast:\n%s\ngoccy:\n%s", text, got, want)
	}
	return true
}

// checkFastFile checks each document of src as the loader cuts it, and
// the whole text as one piece; it returns how many documents the fast
// path took of how many.
func checkFastFile(t *testing.T, src []byte) (took, pieces int) {
	t.Helper()
	checkFastPiece(t, src, 0)
	ps, ok := splitDocuments(src, 0)
	if !ok {
		return 0, 0
	}
	for _, p := range ps {
		if checkFastPiece(t, p.text, p.line-1) {
			took++
		}
	}
	return took, len(ps)
}

// fastCorpus is the repository's YAML: the lessons, the test inputs and the
// fuzz corpora, each file's text.
func fastCorpus(t testing.TB) map[string][]byte {
	out := map[string][]byte{}
	for _, pat := range []string{
		"../../examples/*.yaml", "testdata/*.yaml", "testdata/fuzz/*/*",
		"../../core/engine/testdata/*.yaml", "../../conformance/testdata/*.yaml",
		"../../cmd/schedplay/testdata/*",
	} {
		files, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out[f] = b
		}
	}
	return out
}

func TestFastYAMLMatchesGoccyOnRepository(t *testing.T) {
	files := fastCorpus(t)
	if len(files) < 40 {
		t.Fatalf("only %d files found", len(files))
	}
	took, pieces, lessons := 0, 0, 0
	for name, b := range files {
		t.Run(filepath.Base(name), func(t *testing.T) {
			a, n := checkFastFile(t, b)
			if strings.HasPrefix(name, "../../examples/") {
				took += a
				pieces += n
				lessons++
			}
		})
	}
	t.Logf("fast path took %d of %d documents of %d lessons", took, pieces, lessons)
	// The lessons are the subset the fast path is for but for the Lesson
	// document (its block scalars): the others must be taken, or the fast
	// path has stopped paying.
	if took < pieces-lessons*3/2 {
		t.Errorf("fast path took only %d of %d documents of %d lessons", took, pieces, lessons)
	}
}

// blockCluster is the same cluster written in block style, as kubectl
// writes it.
func blockCluster(nodes, pods int) []byte {
	var b []byte
	for i := range nodes {
		b = fmt.Appendf(b, "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-%d\n  labels:\n    topology.kubernetes.io/zone: zone-%d\n    kubernetes.io/hostname: node-%d\nspec:\n  taints:\n  - key: dedicated\n    value: infra\n    effect: NoSchedule\nstatus:\n  allocatable:\n    cpu: \"16\"\n    memory: 64Gi\n    pods: '110'\n---\n", i, i%3, i)
	}
	for i := range pods {
		b = fmt.Appendf(b, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: pod-%d # the pod\n  namespace: default\n  labels:\n    app: app-%d\nspec:\n  priority: %d\n  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms:\n          - matchExpressions:\n              - key: topology.kubernetes.io/zone\n                operator: In\n                values: [zone-0, \"zone-1\"]\n  containers:\n    - name: c\n      image: registry.example/app:1.0\n      args: [\"--v=2\", '--x']\n      resources:\n        requests: {cpu: 100m, memory: 128Mi}\n        limits:\n          cpu: 0.5\n---\n", i, i%20, i%3)
	}
	return b
}

func TestFastYAMLMatchesGoccyOnGeneratedClusters(t *testing.T) {
	for name, src := range map[string][]byte{"flow": benchdata.Paste(20, 60, "pod-"), "block": blockCluster(20, 60)} {
		t.Run(name, func(t *testing.T) {
			took, pieces := checkFastFile(t, src)
			// Every document of these must be taken: they are what the
			// fast path is measured on.
			if took != pieces {
				t.Errorf("fast path took %d of %d documents", took, pieces)
			}
		})
	}
}

// fastSeeds are inputs near the edges of what the fast path takes.
var fastSeeds = []string{
	"", "# c\n", "a: 1\n", "a:\n", "a: ~\nb: null\nc: Null\nd: NULL\n", "a: [~, null, {b: ~}]\n",
	"a: yes\nb: 0x1F\nc: 1e3\nd: .5\ne: +1\nf: 0o17\ng: 1_000\nh: .inf\ni: -.Inf\nj: .NaN\nk: 012\nl: 09\nm: 0b101\nn: -0\n",
	"a: 1.0.0\nb: 2024-01-01\nc: 12:30\nd: -1.5e3\ne: 1e-3\nf: 0.\ng: _1\nh: +.5\ni: 0x_1\n",
	"a: true\nb: True\nc: TRUE\nd: false\ne: on\nf: tRue\n",
	"a:\n- x\n- y\nb: 1\n", "a:\n  - x\n  -   y\n", "- a\n- b\n", "a:\n- b: 1\n  c: 2\n- d: 3\n",
	"a:\n  - b:\n    - c\n  - d\n", "a:\n- - x\n", "a:\n-\n- x\n", "a:\n- # c\n  x\n",
	"a: 'it''s'\nb: \"q\\\"x\\\\y\\tz\\n\"\nc: \"\\x41\"\nd: \"\\u00e9\"\ne: 'a\\b'\n",
	"a: \"é\" \nb: [é, \"ü\", x]\nc: {é: 1}\n\"ké\": v\n",
	"img: nginx:1.25\nf: {image: nginx:1.25}\ng: [a:1]\nh: {a:1}\ni: {\"a\":1}\nj: [a: 1]\n",
	"a: x # c\nb: 'y' # c\nc: [1] # c\nd: x#y\ne: 'x'#y\n",
	"a: it's\nb: a,b\nc: a]b\nd: a#b\ne: a{b\nf: a}b\ng: a[b\n",
	"a: {}\nb: []\nc: { }\nd: [ ]\ne: {a: }\nf: [a, ]\ng: {a: 1, }\nh: [[], {}, [[a]]]\n",
	"a: {b: {c: {d: [1, 2, {e: f}]}}}\n", "a: {b: 1, b: 2}\n", "a: 1\na: 2\n",
	"  a: 1\n  b: 2\n", "a:\n  b: 1\n   c: 2\n", "a:\n  b: 1\n c: 2\n", "a: 1\n  b: 2\n", "a: b: c\n", "a: b:\n",
	"a:\n  # comment\n  b: 1\n  # another\nc:\n  - 1\n# between\n  - 2\n",
	"a: &x 1\nb: *x\n", "a: !!str 1\n", "a: |\n  x\n", "a: >\n  x\n", "? a\n: b\n", "%YAML 1.2\n---\na: 1\n",
	"--- {a: 1}\n", "--- # c\na: 1\n", "a: 1\n...\n", "a:\tb\n", "a: b\r\nc: d\r\n", "\ufeffa: 1\n",
	"a: multi\n  line\n", "a: \"multi\n  line\"\n", "a: [1,\n  2]\n", "<<: {a: 1}\n", "null: 1\n", "~: 1\n", "1: a\n2.5: b\ntrue: c\n",
	"a b: c\n", "a : b\n", "a:  b  \n", "a: -1\nb: -x\nc: - x\nd: --flag\ne: -\n", "a: ?x\nb: :x\nc: .x\nd: ~x\ne: =x\nf: <x\n",
	"a: %x\nb: @x\nc: `x\nd: x%\ne: x@y\nf: x!y\ng: x&y\nh: x*y\ni: x|y\nj: x>y\n",
	"\"a\": 1\n'b': 2\n\"c\" : 3\n\"d\":4\n", "a:\n    - x\n    - y\n  b: 1\n",
	"apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {app.kubernetes.io/name: web}}\nspec:\n  containers: [{name: c, image: pause, args: [\"a\", \"b\"], resources: {}}]\n",
}

func FuzzFastYAMLMatchesGoccy(f *testing.F) {
	for _, s := range fastSeeds {
		f.Add([]byte(s))
	}
	for _, b := range fastCorpus(f) {
		f.Add(b)
	}
	f.Add(benchdata.Paste(2, 3, "pod-"))
	f.Add(blockCluster(2, 3))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFastFile(t, data)
	})
}

func TestFastYAMLSeeds(t *testing.T) {
	for _, s := range fastSeeds {
		checkFastFile(t, []byte(s))
	}
}

// randomYAML writes a random document of the kinds of YAML manifests hold,
// with the spacing, comments and scalars the fast path must get exactly
// right or decline.
func randomYAML(r *rand.Rand) []byte {
	scalars := []string{
		"x", "web-1", "nginx:1.25", "registry.k8s.io/pause:3.9", "100m", "1Gi", "0.5", "16", "-1", "+1", ".5", "1e3",
		"0x1F", "0o17", "012", "09", "1_000", "true", "False", "yes", "on", "null", "~", "Null", ".inf", "-.Inf", ".NaN",
		"2024-01-01T00:00:00Z", "a b", "a  b", "it's", "a,b", "a#b", "a]b", "é", "ü x", "-", "--flag=1", "a:b", "x:", "a: b",
		"'q'", "'it''s'", "\"d\"", "\"a\\tb\"", "\"\\x41\"", "\"é\"", "''", "\"\"", "\"a\\\"b\"", "'a\\b'", "\"a # b\"", "?x", ":x",
		"&a x", "*a", "!!str 1", "|", ">", "%x", "@x", "`x", "!x", "<<", "0", "-0", "0.", "1.0.0", "12:30", "_1",
	}
	keys := []string{"a", "name", "app.kubernetes.io/name", "kubernetes.io/hostname", "x-y", "a_b", "1", "2.5", "true",
		"null", "\"q\"", "'s'", "\"k x\"", "a b", "<<", "é", "-a", ".a", "a."}
	// Most scalars and keys are ones the fast path takes, so that most
	// documents test what it builds rather than that it declines.
	scalar := func() string {
		if r.IntN(6) == 0 {
			return scalars[r.IntN(len(scalars))]
		}
		return scalars[r.IntN(36)]
	}
	key := func() string {
		if r.IntN(8) == 0 {
			return keys[r.IntN(len(keys))]
		}
		return keys[r.IntN(9)]
	}
	sp := func() string { return []string{"", " ", "  "}[r.IntN(3)] }
	comment := func() string {
		switch r.IntN(8) {
		case 0:
			return " # c"
		case 1:
			return "  #c"
		case 2:
			return "#c"
		case 3:
			return " "
		case 4:
			return "  "
		}
		return ""
	}
	var flow func(depth int) string
	flow = func(depth int) string {
		if depth > 2 || r.IntN(3) > 0 {
			return scalar()
		}
		n := r.IntN(4)
		var parts []string
		for range n {
			if r.IntN(2) == 0 {
				parts = append(parts, key()+":"+sp()+flow(depth+1))
			} else {
				parts = append(parts, flow(depth+1))
			}
		}
		open, close := "[", "]"
		if r.IntN(2) == 0 {
			open, close = "{", "}"
		}
		return open + sp() + strings.Join(parts, ","+sp()) + sp() + close
	}
	var b strings.Builder
	var block func(indent int, depth int, inSeq bool)
	block = func(indent, depth int, inSeq bool) {
		pad := strings.Repeat(" ", indent)
		n := 1 + r.IntN(4)
		seq := depth > 0 && r.IntN(3) == 0
		for i := range n {
			if r.IntN(10) == 0 {
				b.WriteString(strings.Repeat(" ", r.IntN(indent+3)) + "# note\n")
			}
			if r.IntN(15) == 0 {
				b.WriteString(strings.Repeat(" ", r.IntN(3)) + "\n")
			}
			lead := pad
			if inSeq && i == 0 {
				lead = ""
			}
			if seq {
				b.WriteString(lead + "-" + []string{" ", "  ", " "}[r.IntN(3)])
				switch r.IntN(3) {
				case 0:
					b.WriteString(flow(0) + comment() + "\n")
				default:
					block(indent+2, depth+1, true)
				}
				continue
			}
			b.WriteString(lead + key() + ":")
			switch {
			case depth < 4 && r.IntN(3) == 0:
				b.WriteString(comment() + "\n")
				next := indent + 2
				if r.IntN(3) == 0 {
					next = indent
				}
				if next == indent {
					b.WriteString(pad + "- " + flow(0) + "\n")
				} else {
					block(next, depth+1, false)
				}
			case r.IntN(8) == 0:
				b.WriteString(comment() + "\n")
			default:
				b.WriteString(" " + sp() + flow(0) + comment() + "\n")
			}
		}
	}
	block(0, 0, false)
	s := b.String()
	if r.IntN(4) == 0 {
		s = strings.TrimSuffix(s, "\n")
	}
	return []byte(s)
}

func TestFastYAMLMatchesGoccyOnRandomDocuments(t *testing.T) {
	seed := uint64(1)
	if s := os.Getenv("FASTSEED"); s != "" {
		fmt.Sscan(s, &seed)
	}
	r := rand.New(rand.NewPCG(seed, 2))
	took := 0
	const n = 20000
	for range n {
		if checkFastPiece(t, randomYAML(r), r.IntN(3)) {
			took++
		}
	}
	t.Logf("fast path took %d of %d random documents", took, n)
	if took < n/10 {
		t.Errorf("fast path took only %d of %d random documents: the test no longer tests it", took, n)
	}
}

// Wide mappings look duplicates up in a set: one found past the first
// keys must still leave the text to goccy, which reports it.
func TestFastYAMLWideMappings(t *testing.T) {
	var block, flow []string
	for i := range 100 {
		block = append(block, fmt.Sprintf("k%d: %d", i, i))
		flow = append(flow, fmt.Sprintf("k%d: %d", i, i))
	}
	for _, tc := range []struct {
		text string
		take bool
	}{
		{strings.Join(block, "\n") + "\n", true},
		{"a: {" + strings.Join(flow, ", ") + "}\n", true},
		{strings.Join(block, "\n") + "\nk70: x\n", false},
		{"a: {" + strings.Join(flow, ", ") + ", k70: x}\n", false},
	} {
		if took := checkFastPiece(t, []byte(tc.text), 0); took != tc.take {
			t.Errorf("fast path took %v, want %v: %.60q", took, tc.take, tc.text)
		}
	}
}

// BenchmarkParsePaste parses the documents of web/bench's 500-node /
// 2,000-pod paste with the fast path and with goccy alone.
func BenchmarkParsePaste(b *testing.B) {
	pieces, _ := splitDocuments(benchdata.Paste(500, 2000, "pod-"), 0)
	for _, bc := range []struct {
		name  string
		parse func([]byte, int) (parsedDoc, error)
	}{
		{"fast", func(text []byte, offset int) (parsedDoc, error) {
			return parsePiece(text, "", offset, DefaultLimits.Aliases, nil)
		}},
		{"goccy", func(text []byte, offset int) (parsedDoc, error) {
			return parsePieceGoccy(text, offset, DefaultLimits.Aliases)
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, p := range pieces {
					if _, err := bc.parse(p.text, p.line-1); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// TestPlainScalarColumn: a plain scalar is placed where its text starts,
// whatever spaces trail it (goccy alone puts one that ends its line that
// many columns right), by the fast path and by goccy's alike.
func TestPlainScalarColumn(t *testing.T) {
	tests := []struct {
		src  string
		want Pos
	}{
		{"cpu: lots\n", Pos{1, 6}},
		{"cpu: lots   \nx: 1\n", Pos{1, 6}},
		{"cpu:    lots \t \n", Pos{1, 9}},
		{"cpu: lots   # note\n", Pos{1, 6}},
		{"cpu: lots   ", Pos{1, 6}},
		{"cpu: 1.5   \n", Pos{1, 6}},
		{"cpu: a b   \n", Pos{1, 6}},
		{"é: ü x  \ncpu: 1\n", Pos{1, 4}}, // columns count characters
		{"cpu: \"lots\"   \n", Pos{1, 6}},
		{"cpu: lots  \r\nx: 1\r\n", Pos{1, 6}},
		{"cpu: lots  \n  more  \n", Pos{1, 6}}, // folded onto two lines
	}
	for _, tc := range tests {
		fast, ok := fastParse([]byte(tc.src), "", 0, nil)
		pd, err := parsePieceGoccy([]byte(tc.src), 0, DefaultLimits.Aliases)
		if err != nil || pd.berr != nil {
			t.Fatalf("%q: goccy: %v %v", tc.src, err, pd.berr)
		}
		paths := map[string][]*ynode{"goccy": pd.trees}
		if ok {
			paths["fast"] = fast
		}
		for name, trees := range paths {
			root := trees[0]
			n := root.vals[0]
			if n.pos != tc.want {
				t.Errorf("%q (%s): value at %d:%d, want %d:%d", tc.src, name, n.pos.Line, n.pos.Col, tc.want.Line, tc.want.Col)
			}
		}
	}
}
