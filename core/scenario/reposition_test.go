package scenario

import (
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// objectsKept are edits that change where the documents are and nothing
// they say: each example's scenario, moved into its edit's positions, must
// be exactly what loading the edited text from scratch gives.
var objectsKept = map[string]func(string) string{
	"a comment line at the top": func(s string) string { return "# a note\n" + s },
	"blank lines and a comment before the second document": func(s string) string {
		i := strings.Index(s[1:], "\n---") + 1
		if i == 0 {
			return s + "\n\n# the end\n"
		}
		return s[:i] + "\n\n\n# between\n" + s[i:]
	},
	"a comment line at the end": func(s string) string { return s + "# edit 1\n" },
	"an empty document at the top": func(s string) string {
		if strings.HasPrefix(s, "---") {
			return "---\n# nothing\n" + s
		}
		return "---\n# nothing\n---\n" + s
	},
}

func TestUnchangedRepositionsExactly(t *testing.T) {
	for name, text := range exampleTexts(t) {
		for what, edit := range objectsKept {
			c := &Cache{}
			prev, err := c.Load("s.yaml", []byte(text))
			if err != nil {
				continue // the invalid inputs of testdata
			}
			edited := edit(text)
			s, err := c.Load("s.yaml", []byte(edited))
			if err != nil {
				t.Fatalf("%s, %s: %v", name, what, err)
			}
			if c.Unchanged() != prev {
				t.Errorf("%s, %s: Unchanged is not the previous scenario", name, what)
				continue
			}
			if !Reposition(prev, s) {
				t.Errorf("%s, %s: Reposition refused scenarios of equal objects", name, what)
				continue
			}
			want, err := Load("s.yaml", []byte(edited))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, prev, cmp.Exporter(func(reflect.Type) bool { return true })); diff != "" {
				t.Errorf("%s, %s: the repositioned scenario differs from a fresh load (-want +got):\n%s", name, what, diff)
			}
		}
	}
}

// A real change, a change of order or file name, or a load in between that
// gave another scenario is not Unchanged; a load that failed in between is
// not remembered.
func TestUnchangedOnlyForEqualObjects(t *testing.T) {
	const a = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: \"4\"}}\n---\n" +
		"apiVersion: v1\nkind: Pod\nmetadata: {name: p1}\nspec:\n  containers: [{name: c, image: pause, resources: {requests: {cpu: 100m}}}]\n---\n" +
		"apiVersion: v1\nkind: Pod\nmetadata: {name: p2}\nspec:\n  containers: [{name: c, image: pause}]\n"
	swapped := a[strings.Index(a, "apiVersion: v1\nkind: Pod\nmetadata: {name: p2}"):] + "---\n" + a[:strings.Index(a, "apiVersion: v1\nkind: Pod\nmetadata: {name: p2}")-len("---\n")]
	cases := []struct {
		name         string
		file, second string
		between      string // loaded in between, "" for none
		same         bool
	}{
		{"restyled", "s.yaml", strings.Replace(a, "metadata: {name: p1}", "metadata:\n  name: \"p1\"", 1), "", true},
		{"a cpu request", "s.yaml", strings.Replace(a, "100m", "101m", 1), "", false},
		{"a string for a number", "s.yaml", strings.Replace(a, `cpu: "4"`, "cpu: 4", 1), "", false},
		{"documents swapped", "s.yaml", swapped, "", false},
		{"another file name", "t.yaml", a + "# note\n", "", false},
		{"after a failed load", "s.yaml", a + "# note\n", "kind: [", true},
		{"after another scenario", "s.yaml", a + "# note\n", strings.Replace(a, "p2", "p3", 1), false},
	}
	for _, tc := range cases {
		c := &Cache{}
		prev, err := c.Load("s.yaml", []byte(a))
		if err != nil {
			t.Fatal(err)
		}
		if tc.between != "" {
			c.Load("s.yaml", []byte(tc.between))
		}
		if _, err := c.Load(tc.file, []byte(tc.second)); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := c.Unchanged() == prev && prev != nil; got != tc.same {
			t.Errorf("%s: Unchanged is the previous scenario: %v, want %v", tc.name, got, tc.same)
		}
	}
}

// movesNothing are edits of comments and blank space that leave every
// value where it was; movesSomething are edits that do not (Same must
// leave them to a load).
var (
	movesNothing = map[string]func(string) string{
		"a comment line at the end": func(s string) string { return s + "# edit 1\n" },
		"two comment lines at the end": func(s string) string {
			return s + "# edit 1\n\n# edit 2\n"
		},
		"a comment line written on": func(s string) string {
			if !strings.HasPrefix(s, "#") {
				return s + "# edit 1\n"
			}
			i := strings.IndexByte(s, '\n')
			return s[:i] + ", and more" + s[i:]
		},
	}
	movesSomething = map[string]func(string) string{
		"a comment line at the top": func(s string) string { return "# a note\n" + s },
		"a document at the end": func(s string) string {
			return s + "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: added}\n"
		},
		"an empty document at the top": objectsKept["an empty document at the top"],
		"a value moved":                func(s string) string { return strings.Replace(s, "apiVersion: ", "apiVersion:  ", 1) },
	}
)

// Same answers, without a load, only for a text whose load would give the
// last scenario again, positions and all: for every example, a fresh Load
// of the edited text is exactly that scenario. Edits that move or change
// a value are left to a load.
func TestSameIsWhatALoadGives(t *testing.T) {
	for name, text := range exampleTexts(t) {
		if !strings.HasSuffix(text, "\n") {
			t.Fatalf("%s: no newline at the end", name)
		}
		for what, edit := range movesNothing {
			c := &Cache{}
			prev, err := c.Load("s.yaml", []byte(text))
			if err != nil {
				continue // the invalid inputs of testdata
			}
			edited := edit(text)
			got := c.Same("s.yaml", []byte(edited))
			if got != prev {
				t.Errorf("%s, %s: Same is %p, want the last scenario %p", name, what, got, prev)
				continue
			}
			if c.Unchanged() != prev {
				t.Errorf("%s, %s: Unchanged is not the last scenario after Same", name, what)
			}
			want, err := Load("s.yaml", []byte(edited))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got, cmp.Exporter(func(reflect.Type) bool { return true })); diff != "" {
				t.Errorf("%s, %s: the kept scenario differs from a fresh load (-want +got):\n%s", name, what, diff)
			}
			// The next load goes on from the documents Same kept.
			again := edit(edited)
			if _, err := c.Load("s.yaml", []byte(again)); err != nil {
				t.Fatalf("%s, %s: loading after Same: %v", name, what, err)
			}
			if c.Unchanged() != prev {
				t.Errorf("%s, %s: a load after Same is not Unchanged", name, what)
			}
		}
		for what, edit := range movesSomething {
			c := &Cache{}
			if _, err := c.Load("s.yaml", []byte(text)); err != nil {
				continue
			}
			if got := c.Same("s.yaml", []byte(edit(text))); got != nil {
				t.Errorf("%s, %s: Same kept the last scenario", name, what)
			}
		}
		c := &Cache{}
		if _, err := c.Load("s.yaml", []byte(text)); err == nil {
			if got := c.Same("t.yaml", []byte(text)); got != nil {
				t.Errorf("%s: Same kept the scenario of another file", name)
			}
		}
	}
}

// After a load that failed, Same compares with the last load that gave a
// scenario; after a load that gave another scenario, with that one.
func TestSameComparesWithTheLastScenario(t *testing.T) {
	const a = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: \"4\"}}\n---\n" +
		"apiVersion: v1\nkind: Pod\nmetadata: {name: p1}\nspec:\n  containers: [{name: c, image: pause, resources: {requests: {cpu: 100m}}}]\n"
	b := strings.Replace(a, "100m", "200m", 1)
	c := &Cache{}
	first, err := c.Load("s.yaml", []byte(a))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Load("s.yaml", []byte("kind: [")); err == nil {
		t.Fatal("a broken text loaded")
	}
	if got := c.Same("s.yaml", []byte(a+"# back\n")); got != first {
		t.Errorf("after a failed load: Same is %p, want the first scenario %p", got, first)
	}
	second, err := c.Load("s.yaml", []byte(b))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Same("s.yaml", []byte(a+"# back\n")); got != nil {
		t.Errorf("Same kept the first scenario after another one loaded")
	}
	if got := c.Same("s.yaml", []byte(b+"# note\n")); got != second {
		t.Errorf("Same is %p, want the second scenario %p", got, second)
	}
}
