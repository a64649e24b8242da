package scenario

import (
	"errors"
	"strings"
	"testing"
)

// Common YAML mistakes are reported where the mistake is, with what to do:
// the parser's own message often points past it (the end of the line, the
// next line) and names its grammar instead.
func TestSyntaxMistakes(t *testing.T) {
	const pod = "apiVersion: v1\nkind: Pod\n"
	cases := []struct {
		name, src string
		line, col int
		msg, hint string // fragments of the message and the hint
	}{
		{"tab indentation", pod + "metadata:\n\tname: p\n", 4, 1, "a tab indents this line", "replace the tab with spaces"},
		{"unclosed bracket before a brace", pod + "metadata: {name: [critical, low}\n", 3, 18, "list opened with '[' here is never closed (the parser gave up at 3:32)", "add ']'"},
		{"unclosed bracket at the end", pod + "metadata:\n  name: p\nspec:\n  containers: [{name: c, image: x}\n", 6, 15, "list opened with '[' here is never closed", "add ']'"},
		{"flow mapping left open", pod + "metadata: {name: p\nspec: {}\n", 3, 11, "mapping opened with '{' here is never closed", "add '}'"},
		{"unclosed double quote", pod + "metadata:\n  name: \"p\n  labels: {}\n", 4, 9, `string that starts with " here is never closed`, `add the closing "`},
		{"unclosed single quote", pod + "metadata:\n  name: 'p\n", 4, 9, "string that starts with ' here is never closed", "add the closing '"},
		{"list item's key indented wrong", pod + "metadata:\n  name: p\nspec:\n  containers:\n  - name: c\n     image: x\n", 8, 6, "indented to column 6, deeper than the key above it (column 5)", "indent it to column 5"},
		{"key indented to no column", pod + "metadata:\n    name: p\n  labels: {}\n", 5, 3, "indented to column 3, which lines up with no key above it", "column 5 or 1"},
		{"duplicate key", pod + "metadata:\n  name: p\n  name: q\n", 5, 3, `the key "name" appears twice in this mapping (first at 4:3)`, "remove one of them"},
		{"no space after the colon", pod + "metadata:\n  name:p\n  labels: {}\n", 4, 3, `"name:p" has no space after ':'`, `write "name: p"`},
		{"unquoted ': ' in a value", pod + "metadata:\n  name: p\n  annotations:\n    note: a: b\n", 6, 12, "this value contains ': '", `quote the value: note: "a: b"`},
		{"stray dash", pod + "metadata:\n  name: p\n-\n", 5, 1, "a list item ('-') where this mapping expects 'key: value'", "or remove the '-'"},
		{"list item in a mapping", pod + "metadata:\n  name: p\n  - x\n", 5, 3, "a list item ('-') where this mapping expects 'key: value'", "put the list under a key of its own"},
		{"indented document separator", pod + "metadata:\n  name: p\n  ---\n", 5, 3, "'---' separates documents and must start at column 1", "move '---' to the start of the line"},
		{"non-string key", pod + "metadata:\n  name: p\n  labels:\n    [a]: b\n", 6, 5, `"[a]" is not a valid key`, "plain or quoted string"},
		{"undefined anchor", pod + "metadata: *meta\n", 3, 11, "unknown alias *meta", "define the anchor &meta"},
		{"a bracket inside a quoted string is not one", pod + "metadata: {name: \"a[b\", labels: [x}\n", 3, 33, "list opened with '[' here is never closed", "add ']'"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load("f.yaml", []byte(c.src))
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("want a positioned error, got %v", err)
			}
			d := list[0]
			if d.Line != c.line || d.Col != c.col {
				t.Errorf("at %d:%d, want %d:%d (%s)", d.Line, d.Col, c.line, c.col, d.Error())
			}
			if !strings.Contains(d.Msg, c.msg) || !strings.Contains(d.Hint, c.hint) {
				t.Errorf("got %q (%q), want it to contain %q (%q)", d.Msg, d.Hint, c.msg, c.hint)
			}
		})
	}
}
