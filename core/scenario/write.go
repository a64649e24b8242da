package scenario

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
)

// Write renders a scenario as multi-document YAML that Load reads back to an
// equal Scenario (apart from Warnings and Positions). Built-in priority
// classes are left out: every cluster has them.
func Write(s *Scenario) ([]byte, error) {
	var b strings.Builder
	doc := func(apiVersion, kind string, v any) {
		b.WriteString("---\n")
		fmt.Fprintf(&b, "apiVersion: %s\nkind: %s\n", apiVersion, kind)
		emitMapBody(&b, encode(reflect.ValueOf(v)), 0)
	}
	for _, x := range s.Namespaces {
		doc("v1", "Namespace", x)
	}
	for _, x := range s.PriorityClasses {
		if builtinPriorityClass(x.Name) == nil {
			doc("scheduling.k8s.io/v1", "PriorityClass", x)
		}
	}
	docs(doc, "Node", s.Nodes)
	docs(doc, "Pod", s.Pods)
	docs(doc, "PodDisruptionBudget", s.PDBs)
	docs(doc, "Service", s.Services)
	docs(doc, "ReplicationController", s.ReplicationControllers)
	docs(doc, "ReplicaSet", s.ReplicaSets)
	docs(doc, "StatefulSet", s.StatefulSets)
	docs(doc, "Deployment", s.Deployments)
	docs(doc, "StorageClass", s.StorageClasses)
	docs(doc, "PersistentVolume", s.PersistentVolumes)
	docs(doc, "PersistentVolumeClaim", s.PersistentVolumeClaims)
	docs(doc, "CSINode", s.CSINodes)
	docs(doc, "CSIDriver", s.CSIDrivers)
	if s.Config != nil {
		doc("kubescheduler.config.k8s.io/v1", "KubeSchedulerConfiguration", s.Config)
	}
	return []byte(b.String()), nil
}

func docs[T any](doc func(apiVersion, kind string, v any), kind string, objs []*T) {
	for _, x := range objs {
		doc(kinds[kind].apiVersion, kind, x)
	}
}

// wnode is a value to emit: a scalar (already YAML text), a mapping or a list.
type wnode struct {
	scalar string
	keys   []string
	vals   []*wnode
	items  []*wnode
	isMap  bool
	isList bool
}

// skipOnWrite lists fields that Load computes rather than reads.
var skipOnWrite = map[reflect.Type]map[string]bool{
	reflect.TypeFor[api.PodDisruptionBudget](): {"status": true},
}

// encode mirrors the decoder: the same field names, zero values left out.
func encode(v reflect.Value) *wnode {
	switch v.Type() {
	case quantityType:
		return &wnode{scalar: strconv.Quote(v.Interface().(api.Quantity).String())}
	case intOrStringType:
		x := v.Interface().(api.IntOrString)
		if x.IsString {
			return &wnode{scalar: strconv.Quote(x.StrVal)}
		}
		return &wnode{scalar: strconv.Itoa(int(x.IntVal))}
	case timeType:
		return &wnode{scalar: strconv.Quote(v.Interface().(time.Time).UTC().Format(time.RFC3339))}
	case pluginConfType:
		pc := v.Interface().(config.PluginConfig)
		n := &wnode{isMap: true, keys: []string{"name"}, vals: []*wnode{{scalar: strconv.Quote(pc.Name)}}}
		if pc.Args != nil {
			n.keys = append(n.keys, "args")
			n.vals = append(n.vals, encode(reflect.ValueOf(pc.Args)))
		}
		return n
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return encode(v.Elem())
	case reflect.Struct:
		n := &wnode{isMap: true}
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			name := fieldName(t.Field(i))
			if skipOnWrite[t][name] {
				continue
			}
			f := v.Field(i)
			if f.IsZero() {
				continue
			}
			if c := encode(f); c != nil {
				n.keys = append(n.keys, name)
				n.vals = append(n.vals, c)
			}
		}
		return n
	case reflect.Slice:
		if v.IsNil() {
			return nil
		}
		n := &wnode{isList: true}
		for i := 0; i < v.Len(); i++ {
			c := encode(v.Index(i))
			if c == nil {
				c = &wnode{scalar: "null"}
			}
			n.items = append(n.items, c)
		}
		return n
	case reflect.Map:
		if v.IsNil() {
			return nil
		}
		n := &wnode{isMap: true}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		for _, k := range keys {
			c := encode(v.MapIndex(k))
			if c == nil {
				c = &wnode{scalar: "null"}
			}
			n.keys = append(n.keys, k.String())
			n.vals = append(n.vals, c)
		}
		return n
	case reflect.String:
		return &wnode{scalar: strconv.Quote(v.String())}
	case reflect.Bool:
		return &wnode{scalar: strconv.FormatBool(v.Bool())}
	case reflect.Int32, reflect.Int64:
		return &wnode{scalar: strconv.FormatInt(v.Int(), 10)}
	}
	return &wnode{scalar: "null"}
}

func emitMapBody(b *strings.Builder, n *wnode, indent int) {
	pad := strings.Repeat("  ", indent)
	for i, k := range n.keys {
		b.WriteString(pad + strconv.Quote(k) + ":")
		emitValue(b, n.vals[i], indent+1)
	}
}

// emitValue writes a value after "key:" or "-", ending the line.
func emitValue(b *strings.Builder, n *wnode, indent int) {
	switch {
	case n.isMap && len(n.keys) == 0:
		b.WriteString(" {}\n")
	case n.isMap:
		b.WriteString("\n")
		emitMapBody(b, n, indent)
	case n.isList && len(n.items) == 0:
		b.WriteString(" []\n")
	case n.isList:
		b.WriteString("\n")
		pad := strings.Repeat("  ", indent)
		for _, it := range n.items {
			b.WriteString(pad + "-")
			emitValue(b, it, indent+1)
		}
	default:
		b.WriteString(" " + n.scalar + "\n")
	}
}
