package scenario

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
)

var (
	quantityType    = reflect.TypeFor[api.Quantity]()
	intOrStringType = reflect.TypeFor[api.IntOrString]()
	timeType        = reflect.TypeFor[time.Time]()
	pluginConfType  = reflect.TypeFor[config.PluginConfig]()
)

// decoder fills core/api and core/config values from a ynode tree, strictly:
// a field Kubernetes does not have is an error, a Kubernetes field the engine
// does not simulate is a warning, noise is skipped (see fields.go).
type decoder struct {
	l      *loader
	object string         // "Pod default/web" once known
	pos    map[string]Pos // field path -> position of its value
	// quiet suppresses "not simulated" warnings (inside pod templates, which
	// are read only for their labels).
	quiet bool
}

func (d *decoder) errorf(p Pos, path, hint, format string, args ...any) {
	d.l.errorAt(p, d.object, path, fmt.Sprintf(format, args...), hint)
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// fieldName is the YAML name of a struct field: its json tag, else the Go
// name with a lower-case first letter (core/config has no tags).
func fieldName(f reflect.StructField) string {
	if tag, ok := f.Tag.Lookup("json"); ok {
		if name, _, _ := strings.Cut(tag, ","); name != "" {
			return name
		}
	}
	return strings.ToLower(f.Name[:1]) + f.Name[1:]
}

// decode fills v (settable) from n. top is true for a document's root, where
// apiVersion and kind are allowed.
func (d *decoder) decode(n *ynode, v reflect.Value, path string, top bool) {
	if top && len(d.pos) == 0 {
		// An object records about one position per node: sized once, the
		// map does not grow step by step (capped: size counts aliases).
		d.pos = make(map[string]Pos, min(n.size+n.size/2, 1<<12))
	}
	d.pos[path] = n.pos
	t := v.Type()
	switch t {
	case quantityType:
		if n.kind != yScalar {
			d.errorf(n.pos, path, `write a quantity such as "500m", "2", "1Gi" or "1e3"`, "expected a quantity, got %s", n.describe())
			return
		}
		q, err := api.ParseQuantity(n.text)
		if err != nil {
			d.errorf(n.pos, path, `write a quantity such as "500m", "2", "1Gi" or "1e3"`, "%v", err)
			return
		}
		*addr[api.Quantity](v) = q
		return
	case intOrStringType:
		if n.kind != yScalar {
			d.errorf(n.pos, path, `write an integer such as 1 or a percentage such as "50%"`, "expected an integer or a string, got %s", n.describe())
			return
		}
		if n.isStr {
			*addr[api.IntOrString](v) = api.IntOrString{IsString: true, StrVal: n.text}
			return
		}
		i, ok := d.int(n, path, 32)
		if ok {
			*addr[api.IntOrString](v) = api.IntOrString{IntVal: int32(i)}
		}
		return
	case timeType:
		if n.kind != yScalar || !n.isStr {
			d.errorf(n.pos, path, `write an RFC 3339 time such as "2026-01-01T00:00:00Z"`, "expected a time, got %s", n.describe())
			return
		}
		tm, err := time.Parse(time.RFC3339, n.text)
		if err != nil {
			d.errorf(n.pos, path, `write an RFC 3339 time such as "2026-01-01T00:00:00Z"`, "%q is not an RFC 3339 time", n.text)
			return
		}
		// The API server stores whole seconds (metav1.Time).
		*addr[time.Time](v) = tm.UTC().Truncate(time.Second)
		return
	case pluginConfType:
		d.decodePluginConfig(n, v, path)
		return
	}
	switch t.Kind() {
	case reflect.Pointer:
		if n.kind == yNull {
			return
		}
		p := reflect.New(t.Elem())
		d.decode(n, p.Elem(), path, top)
		v.Set(p)
	case reflect.Struct:
		d.decodeStruct(n, v, path, top)
	case reflect.Slice:
		if n.kind == yNull {
			return
		}
		if n.kind != ySeq {
			d.errorf(n.pos, path, "write a list, one item per line starting with \"- \"", "expected a list, got %s", n.describe())
			return
		}
		s := reflect.MakeSlice(t, len(n.items), len(n.items))
		for i, it := range n.items {
			d.decode(it, s.Index(i), path+"["+strconv.Itoa(i)+"]", false)
		}
		v.Set(s)
	case reflect.Map:
		if n.kind == yNull {
			return
		}
		if n.kind != yMap {
			d.errorf(n.pos, path, "write a mapping of key: value lines", "expected a mapping, got %s", n.describe())
			return
		}
		m := reflect.MakeMapWithSize(t, len(n.keys))
		// One key and one element value serve every entry: SetMapIndex copies them.
		kv := reflect.New(t.Key()).Elem()
		ev := reflect.New(t.Elem()).Elem()
		for i, k := range n.keys {
			p := path + "[" + k + "]"
			d.pos[p+"#key"] = n.kpos[i]
			ev.SetZero()
			d.decode(n.vals[i], ev, p, false)
			kv.SetString(k)
			m.SetMapIndex(kv, ev)
		}
		v.Set(m)
	case reflect.String:
		if n.kind == yNull {
			return
		}
		if n.kind != yScalar || !n.isStr {
			hint := ""
			if n.kind == yScalar {
				hint = fmt.Sprintf("quote it: \"%s\"", n.text)
			}
			d.errorf(n.pos, path, hint, "expected a string, got %s", n.describe())
			return
		}
		v.SetString(n.text)
	case reflect.Bool:
		if n.kind == yNull {
			return
		}
		if n.kind != yScalar || n.isStr || (strings.ToLower(n.text) != "true" && strings.ToLower(n.text) != "false") {
			d.errorf(n.pos, path, "write true or false without quotes", "expected a boolean, got %s", n.describe())
			return
		}
		v.SetBool(strings.ToLower(n.text) == "true")
	case reflect.Int32, reflect.Int64:
		if n.kind == yNull {
			return
		}
		if i, ok := d.int(n, path, t.Bits()); ok {
			v.SetInt(i)
		}
	case reflect.Interface:
		if n.kind == yNull {
			return // stays nil: reflect cannot set a nil interface from ValueOf(nil)
		}
		v.Set(reflect.ValueOf(generic(n)))
	default:
		d.errorf(n.pos, path, "", "internal error: cannot decode into %s", t)
	}
}

// addr is v's address as a *T: setting through it does not box the value
// as v.Set(reflect.ValueOf(x)) does. Every value the decoder fills is
// addressable (reached from a pointer, a new value or a slice element).
func addr[T any](v reflect.Value) *T {
	return v.Addr().Interface().(*T)
}

func (d *decoder) int(n *ynode, path string, bits int) (int64, bool) {
	if n.kind != yScalar || n.isStr {
		hint := "write a whole number"
		if n.kind == yScalar {
			hint = "write the number without quotes"
		}
		d.errorf(n.pos, path, hint, "expected an integer, got %s", n.describe())
		return 0, false
	}
	i, err := strconv.ParseInt(n.text, 10, bits)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			d.errorf(n.pos, path, "", "%s is out of range for a %d-bit integer", n.text, bits)
		} else {
			d.errorf(n.pos, path, "write a whole decimal number", "expected an integer, got %s", n.text)
		}
		return 0, false
	}
	return i, true
}

// generic converts n to plain Go values (for free-form fields).
func generic(n *ynode) any {
	switch n.kind {
	case yScalar:
		return n.text
	case yMap:
		m := make(map[string]any, len(n.keys))
		for i, k := range n.keys {
			m[k] = generic(n.vals[i])
		}
		return m
	case ySeq:
		s := make([]any, len(n.items))
		for i, it := range n.items {
			s[i] = generic(it)
		}
		return s
	}
	return nil
}

func (d *decoder) decodeStruct(n *ynode, v reflect.Value, path string, top bool) {
	if n.kind == yNull {
		return
	}
	t := v.Type()
	if n.kind != yMap {
		d.errorf(n.pos, path, "write a mapping of field: value lines", "expected a mapping (%s), got %s", t.Name(), n.describe())
		return
	}
	sf := fieldsOf(t)
	byName, extra := sf.byName, sf.extra
	for i, key := range n.keys {
		p := join(path, key)
		if top && (key == "apiVersion" || key == "kind") {
			continue
		}
		if note, ok := extra[key]; ok {
			if note != "" && !d.quiet {
				d.l.warnAt(n.kpos[i], d.object, p, note, "remove the field, or expect the simulation to differ from a real cluster")
			}
			continue
		}
		idx, ok := byName[key]
		if !ok {
			d.unknownField(n.kpos[i], p, key, byName, extra)
			continue
		}
		d.decode(n.vals[i], v.Field(idx), p, false)
	}
}

func (d *decoder) unknownField(p Pos, path, key string, byName map[string]int, extra map[string]string) {
	var known []string
	for k := range byName {
		known = append(known, k)
	}
	for k := range extra {
		known = append(known, k)
	}
	hint := "remove it"
	if s := closest(key, known); s != "" {
		hint = fmt.Sprintf("did you mean %q?", s)
	}
	d.errorf(p, path, hint, "unknown field %q", key)
}

// closest returns the known name nearest to s, or "" when none is close.
func closest(s string, known []string) string {
	best, bestD := "", 1<<30
	for _, k := range known {
		if strings.EqualFold(k, s) {
			return k
		}
		if dd := levenshtein(strings.ToLower(s), strings.ToLower(k)); dd < bestD || dd == bestD && k < best {
			best, bestD = k, dd
		}
	}
	if bestD <= max(2, len(s)/3) {
		return best
	}
	return ""
}

func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
