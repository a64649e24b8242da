package scenario

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
)

// Docs gives a field's description (upstream's OpenAPI text) by the Go
// type that holds it and the field's YAML name; "" when there is none.
type Docs func(t reflect.Type, field string) string

// Schema is the JSON Schema (draft-07) of what Load accepts, built from
// the loader's own tables: the kinds it reads (kinds, with each kind's Go
// type walked as the decoder walks it: fieldName, extraFields, the quantity,
// int-or-string, time and plugin-args types), the enumerated values the
// validator accepts (enums), the plugins and their typed args (newArgs,
// upstreamPlugins), and the Timeline and Lesson fields (timelineKeys,
// actionKinds, lessonKeys). A kind added to those tables appears here with
// no other change. The editor's completion and hover read it
// (web/src/generated/scenario-schema.json; go run ./scripts/schemagen
// writes it with upstream's descriptions).
func Schema(docs Docs) map[string]any {
	g := &schemaGen{docs: docs, defs: map[string]any{}}
	var kindNames []string
	for k := range kinds {
		kindNames = append(kindNames, k)
	}
	kindNames = append(kindNames, TimelineKind, LessonKind, "List")
	sort.Strings(kindNames)
	var cases []any
	var apiVersions []string
	for _, k := range kindNames {
		var s map[string]any
		switch k {
		case TimelineKind:
			s = g.timeline()
		case LessonKind:
			s = g.lesson()
		case "List":
			s = map[string]any{"type": "object", "properties": map[string]any{
				"items":    map[string]any{"type": "array", "description": "The objects of the list; each is read as a document of its own.", "items": map[string]any{"$ref": "#/definitions/object"}},
				"metadata": map[string]any{"type": "object", "description": "Ignored by schedplay."},
			}}
			s["properties"].(map[string]any)["apiVersion"] = map[string]any{"enum": []any{"v1"}}
		default:
			info := kinds[k]
			s = g.object(reflect.TypeOf(info.newObj()).Elem(), true)
		}
		av := apiVersionOf(k)
		props := s["properties"].(map[string]any)
		props["apiVersion"] = map[string]any{"enum": []any{av}, "description": fmt.Sprintf("The API version of a %s: %s.", k, av)}
		props["kind"] = map[string]any{"const": k, "description": kindDescription(k)}
		s["required"] = []any{"apiVersion", "kind"}
		g.defs["kind."+k] = s
		cases = append(cases, map[string]any{
			"if":   map[string]any{"properties": map[string]any{"kind": map[string]any{"const": k}}, "required": []any{"kind"}},
			"then": map[string]any{"$ref": "#/definitions/kind." + k},
		})
		if !slices.Contains(apiVersions, av) {
			apiVersions = append(apiVersions, av)
		}
	}
	sort.Strings(apiVersions)
	kindEnum := make([]any, len(kindNames))
	for i, k := range kindNames {
		kindEnum[i] = k
	}
	g.defs["object"] = map[string]any{
		"type": "object",
		"properties": map[string]any{
			"apiVersion": map[string]any{"enum": toAny(apiVersions), "description": "The object's API version (each kind has one: Pod v1, Deployment apps/v1, ...)."},
			"kind":       map[string]any{"enum": kindEnum, "description": "The kind of object. schedplay reads these kinds; others are ignored with a warning."},
		},
		"required": []any{"apiVersion", "kind"},
		"allOf":    cases,
	}
	return map[string]any{
		"$schema":     "http://json-schema.org/draft-07/schema#",
		"title":       "schedplay scenario document",
		"description": "One document of a schedplay scenario: a Kubernetes object schedplay reads.",
		"$ref":        "#/definitions/object",
		"definitions": g.defs,
	}
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

func apiVersionOf(kind string) string {
	switch kind {
	case TimelineKind, LessonKind:
		return TimelineAPIVersion
	case "List":
		return "v1"
	}
	return kinds[kind].apiVersion
}

func kindDescription(kind string) string {
	switch kind {
	case TimelineKind:
		return "A schedplay Timeline: actions over simulated time (cordon, delete, scale, addNode, pressure, ...)."
	case LessonKind:
		return "A schedplay Lesson: the playground's captions and the outcome the lesson expects."
	case "List":
		return "A list of objects, as kubectl get -o yaml writes it."
	}
	return "A " + kind + "."
}

type schemaGen struct {
	docs Docs
	defs map[string]any
}

func (g *schemaGen) doc(t reflect.Type, field string) string {
	if g.docs == nil {
		return ""
	}
	return g.docs(t, field)
}

// defName is a struct type's definitions key: its name, with its package
// when two packages share a name.
func defName(t reflect.Type) string {
	pkg := t.PkgPath()[strings.LastIndex(t.PkgPath(), "/")+1:]
	return pkg + "." + t.Name()
}

// object is a struct's schema as decodeStruct reads it: its fields by
// fieldName, its extraFields (skipped, or warned about) and nothing else.
func (g *schemaGen) object(t reflect.Type, top bool) map[string]any {
	props := map[string]any{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := fieldName(f)
		if top && (name == "apiVersion" || name == "kind") {
			continue
		}
		s := g.of(f.Type)
		if d := g.doc(t, name); d != "" {
			s = withDescription(s, d)
		}
		props[name] = s
	}
	for name, note := range extraFields[t] {
		if _, ok := props[name]; ok {
			continue
		}
		what := "Ignored by schedplay: it does not change where a pod lands."
		if note != "" {
			what = "Not simulated by schedplay (a warning): " + strings.TrimPrefix(note, "field "+name+" is not simulated: ") + "."
		}
		s := map[string]any{"description": joinDoc(g.doc(t, name), what)}
		if note != "" {
			s["x-schedplay"] = "not simulated"
		} else {
			s["x-schedplay"] = "ignored"
		}
		props[name] = s
	}
	return map[string]any{"type": "object", "properties": props, "additionalProperties": false}
}

func joinDoc(upstream, ours string) string {
	if upstream == "" {
		return ours
	}
	return upstream + "\n\n" + ours
}

// withDescription adds a description beside a schema (a $ref's siblings
// are ignored by draft-07 readers, so a $ref is wrapped).
func withDescription(s map[string]any, d string) map[string]any {
	if _, ok := s["$ref"]; ok {
		return map[string]any{"allOf": []any{s}, "description": d}
	}
	c := make(map[string]any, len(s)+1)
	for k, v := range s {
		c[k] = v
	}
	c["description"] = joinDoc(d, fmt.Sprint(s["description"]))
	if s["description"] == nil {
		c["description"] = d
	}
	return c
}

// of is a Go type's schema as decode reads it.
func (g *schemaGen) of(t reflect.Type) map[string]any {
	switch t {
	case quantityType:
		return map[string]any{"type": []any{"string", "number"}, "description": `A quantity such as "500m", "2", "1Gi" or "1e3".`}
	case intOrStringType:
		return map[string]any{"type": []any{"integer", "string"}, "description": `An integer such as 1 or a percentage such as "50%".`}
	case timeType:
		return map[string]any{"type": "string", "description": `An RFC 3339 time such as "2026-01-01T00:00:00Z".`}
	case pluginConfType:
		return g.pluginConfig()
	}
	if vals, ok := enums[t]; ok {
		return map[string]any{"type": "string", "enum": toAny(vals)}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return g.of(t.Elem())
	case reflect.Struct:
		name := defName(t)
		if _, ok := g.defs[name]; !ok {
			g.defs[name] = map[string]any{} // a placeholder against recursion
			g.defs[name] = g.object(t, false)
		}
		return map[string]any{"$ref": "#/definitions/" + name}
	case reflect.Slice:
		return map[string]any{"type": "array", "items": g.of(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": g.of(t.Elem())}
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int32, reflect.Int64:
		return map[string]any{"type": "integer"}
	}
	return map[string]any{}
}

// pluginConfig is {name, args}, args typed by the plugin (newArgs).
func (g *schemaGen) pluginConfig() map[string]any {
	var cases []any
	for _, p := range upstreamPlugins {
		var args map[string]any
		switch a := newArgs(p); {
		case a != nil:
			args = g.of(reflect.TypeOf(a))
		case untypedArgs[p]:
			args = map[string]any{"type": "object", "description": "Args of " + p + " are not simulated (a warning)."}
		default:
			continue
		}
		cases = append(cases, map[string]any{
			"if":   map[string]any{"properties": map[string]any{"name": map[string]any{"const": p}}, "required": []any{"name"}},
			"then": map[string]any{"properties": map[string]any{"args": args}},
		})
	}
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"name": map[string]any{"type": "string", "enum": toAny(upstreamPlugins), "description": "The plugin these args are for."},
			"args": map[string]any{"type": "object", "description": "The plugin's args (typed by name)."},
		},
		"additionalProperties": false,
		"allOf":                cases,
	}
}

// keysObject is a mapping whose fields are listed but not typed.
func keysObject(keys []string, nested map[string]any) map[string]any {
	props := map[string]any{}
	for _, k := range keys {
		if s, ok := nested[k]; ok {
			props[k] = s
		} else {
			props[k] = map[string]any{}
		}
	}
	return map[string]any{"type": "object", "properties": props, "additionalProperties": false}
}

func (g *schemaGen) timeline() map[string]any {
	action := map[string]any{"at": map[string]any{"type": []any{"string", "number"}, "description": `When, from the start: a duration such as "30s", "1m30s" or a number of seconds.`}}
	for _, a := range actionKinds {
		d := "The action (one per item)."
		if a == ActionCreate {
			d = "Creates an object: one of " + strings.Join(creatable, ", ") + "."
		}
		action[a] = map[string]any{"description": d}
	}
	keys := append([]string{"at"}, actionKinds...)
	actionSchema := keysObject(keys, action)
	spec := keysObject([]string{"actions"}, map[string]any{"actions": map[string]any{"type": "array", "items": actionSchema, "description": "The actions, each {at, <action>}."}})
	return keysObject(timelineKeys, map[string]any{"spec": spec, "metadata": map[string]any{"type": "object"}})
}

func (g *schemaGen) lesson() map[string]any {
	// Built from the deepest paths up.
	paths := make([]string, 0, len(lessonKeys))
	for p := range lessonKeys {
		paths = append(paths, p)
	}
	sort.Slice(paths, func(i, j int) bool {
		return strings.Count(paths[i], ".") > strings.Count(paths[j], ".") || paths[i] > paths[j]
	})
	built := map[string]map[string]any{}
	for _, p := range paths {
		nested := map[string]any{}
		for _, k := range lessonKeys[p] {
			child := k
			if p != "" {
				child = p + "." + k
			}
			if s, ok := built[child]; ok {
				nested[k] = s
			} else if s, ok := built[child+"[]"]; ok {
				nested[k] = map[string]any{"type": "array", "items": s}
			}
		}
		built[p] = keysObject(lessonKeys[p], nested)
	}
	return built[""]
}
