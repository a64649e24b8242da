package scenario

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/schedplay/schedplay/core/api"
)

// sample writes a YAML value holding every property the schema lists under
// s (nulls at the leaves, one item in lists), depth-limited against
// recursive types.
func sample(defs map[string]any, s map[string]any, indent string, depth int) string {
	if ref, ok := s["$ref"].(string); ok {
		return sample(defs, defs[strings.TrimPrefix(ref, "#/definitions/")].(map[string]any), indent, depth)
	}
	if all, ok := s["allOf"].([]any); ok && s["properties"] == nil && len(all) == 1 {
		return sample(defs, all[0].(map[string]any), indent, depth)
	}
	if depth > 12 {
		return "null"
	}
	if props, ok := s["properties"].(map[string]any); ok && s["x-schedplay"] == nil {
		if _, plugin := props["args"]; plugin {
			return "null" // typed by name: TestSchemaPluginArgs
		}
		keys := make([]string, 0, len(props))
		for k := range props {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&b, "\n%s%s: %s", indent, k, sample(defs, props[k].(map[string]any), indent+"  ", depth+1))
		}
		if b.Len() == 0 {
			return "{}"
		}
		return b.String()
	}
	if s["type"] == "array" {
		if items, ok := s["items"].(map[string]any); ok {
			v := sample(defs, items, indent+"  ", depth+1)
			if strings.HasPrefix(v, "\n") {
				return "\n" + indent + "- " + strings.TrimLeft(v, "\n ")
			}
			return "[" + v + "]"
		}
	}
	return "null"
}

func loadSchema(t *testing.T) (map[string]any, map[string]any) {
	t.Helper()
	b, err := json.Marshal(Schema(nil))
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s, s["definitions"].(map[string]any)
}

// Every field the schema lists loads: a document per kind with all of them
// gets no "unknown field" error, and one the schema does not list does.
func TestSchemaFieldsLoad(t *testing.T) {
	_, defs := loadSchema(t)
	for name, d := range defs {
		kind, ok := strings.CutPrefix(name, "kind.")
		if !ok || kind == "List" {
			continue
		}
		def := d.(map[string]any)
		av := def["properties"].(map[string]any)["apiVersion"].(map[string]any)["enum"].([]any)[0]
		body := sample(defs, def, "", 0)
		var lines []string
		for _, l := range strings.Split(strings.TrimPrefix(body, "\n"), "\n") {
			if !strings.HasPrefix(l, "apiVersion:") && !strings.HasPrefix(l, "kind:") {
				lines = append(lines, l)
			}
		}
		doc := fmt.Sprintf("apiVersion: %s\nkind: %s\n%s\n", av, kind, strings.Join(lines, "\n"))
		_, err := Load(kind+".yaml", []byte(doc))
		for _, d := range diagnosticsOf(err) {
			if strings.Contains(d.Msg, "unknown field") || strings.Contains(d.Msg, "unknown key") {
				t.Errorf("%s: a field the schema lists is refused: %v\n%s", kind, d, doc)
			}
		}
		bogus := doc + "bogusField: 1\n"
		_, err = Load(kind+".yaml", []byte(bogus))
		found := false
		for _, d := range diagnosticsOf(err) {
			found = found || strings.Contains(d.Msg, `"bogusField"`)
		}
		if !found {
			t.Errorf("%s: a field the schema does not list was not refused: %v", kind, err)
		}
	}
}

func quoted(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}

func diagnosticsOf(err error) ErrorList {
	list, _ := err.(ErrorList)
	return list
}

// Every enumerated value the schema offers passes validation, and another
// value is refused naming them.
func TestSchemaEnumsMatchValidation(t *testing.T) {
	pod := func(tol string) string {
		return "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: i}]\n  tolerations:\n  - " + tol + "\n"
	}
	effects := enumOf[api.TaintEffect]()
	if len(effects) == 0 {
		t.Fatal("no effects in the enums table")
	}
	for _, eff := range effects {
		if _, err := Load("p.yaml", []byte(pod("{key: k, operator: Exists, effect: "+eff+"}"))); err != nil {
			t.Errorf("effect %s refused: %v", eff, err)
		}
	}
	_, err := Load("p.yaml", []byte(pod("{key: k, operator: Exists, effect: Sometimes}")))
	if err == nil || !strings.Contains(err.Error(), quoted(effects)) {
		t.Errorf("a bad effect: %v; want the schema's values named", err)
	}
}

// The generated file in web/ is Schema with upstream's descriptions:
// without them, the two are the same.
func TestSchemaFileUpToDate(t *testing.T) {
	b, err := os.ReadFile("../../web/src/generated/scenario-schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var file any
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	want, _ := loadSchema(t)
	if !reflect.DeepEqual(stripDocs(file), stripDocs(any(want))) {
		t.Error("web/src/generated/scenario-schema.json does not match the loader: run go run ./scripts/schemagen")
	}
}

// stripDocs drops descriptions (upstream's text comes from the generator).
func stripDocs(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if k == "description" {
				continue
			}
			out[k] = stripDocs(e)
		}
		// A $ref wrapped only to carry a description is the $ref.
		if all, ok := out["allOf"].([]any); ok && len(out) == 1 && len(all) == 1 {
			if m, ok := all[0].(map[string]any); ok && m["$ref"] != nil {
				return m
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = stripDocs(e)
		}
		return out
	}
	return v
}
