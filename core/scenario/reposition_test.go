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
