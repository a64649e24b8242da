// Command schemagen writes the editor's JSON Schema of scenario documents
// (web/src/generated/scenario-schema.json) from the loader's tables
// (scenario.Schema), with upstream's field descriptions taken from the
// upstream API modules the conformance module pins: k8s.io/api's and
// apimachinery's generated swagger docs, and the doc comments of
// k8s.io/kube-scheduler/config/v1.
//
//	go run ./scripts/schemagen            # rewrite the file
//	go run ./scripts/schemagen -check     # fail when it is out of date
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"github.com/schedplay/schedplay/core/scenario"
)

const out = "web/src/generated/scenario-schema.json"

func main() {
	check := flag.Bool("check", false, "compare with the file instead of writing it")
	flag.Parse()
	docs, err := upstreamDocs()
	if err != nil {
		fmt.Fprintln(os.Stderr, "schemagen:", err)
		os.Exit(1)
	}
	b, err := Render(docs)
	if err != nil {
		fmt.Fprintln(os.Stderr, "schemagen:", err)
		os.Exit(1)
	}
	if *check {
		old, _ := os.ReadFile(out)
		if !bytes.Equal(old, b) {
			fmt.Fprintf(os.Stderr, "schemagen: %s is out of date: run go run ./scripts/schemagen\n", out)
			os.Exit(1)
		}
		return
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "schemagen:", err)
		os.Exit(1)
	}
	fmt.Printf("wrote %s (%d bytes)\n", out, len(b))
}

// Render is the file's bytes: the schema, compact, keys sorted.
func Render(docs map[string]map[string]string) ([]byte, error) {
	s := scenario.Schema(func(t reflect.Type, field string) string { return docs[t.Name()][field] })
	b, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// moduleDir is where the conformance module's pinned version of mod lives.
func moduleDir(mod string) (string, error) {
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", mod)
	cmd.Dir = "conformance"
	o, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("locating %s (go list in conformance/): %w", mod, err)
	}
	return strings.TrimSpace(string(o)), nil
}

// upstreamDocs maps an upstream type name to its fields' descriptions.
func upstreamDocs() (map[string]map[string]string, error) {
	docs := map[string]map[string]string{}
	api, err := moduleDir("k8s.io/api")
	if err != nil {
		return nil, err
	}
	mach, err := moduleDir("k8s.io/apimachinery")
	if err != nil {
		return nil, err
	}
	for _, f := range []string{
		filepath.Join(api, "core/v1/types_swagger_doc_generated.go"),
		filepath.Join(api, "apps/v1/types_swagger_doc_generated.go"),
		filepath.Join(api, "policy/v1/types_swagger_doc_generated.go"),
		filepath.Join(api, "scheduling/v1/types_swagger_doc_generated.go"),
		filepath.Join(api, "storage/v1/types_swagger_doc_generated.go"),
		filepath.Join(mach, "pkg/apis/meta/v1/types_swagger_doc_generated.go"),
	} {
		if err := swaggerDocs(f, docs); err != nil {
			return nil, err
		}
	}
	ks, err := moduleDir("k8s.io/kube-scheduler")
	if err != nil {
		return nil, err
	}
	for _, f := range []string{"types.go", "types_pluginargs.go"} {
		if err := commentDocs(filepath.Join(ks, "config/v1", f), docs); err != nil {
			return nil, err
		}
	}
	return docs, nil
}

// swaggerDocs reads the map_<Type> = map[string]string{...} variables.
func swaggerDocs(file string, docs map[string]map[string]string) error {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		return err
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, sp := range g.Specs {
			vs := sp.(*ast.ValueSpec)
			if len(vs.Names) != 1 || len(vs.Values) != 1 || !strings.HasPrefix(vs.Names[0].Name, "map_") {
				continue
			}
			lit, ok := vs.Values[0].(*ast.CompositeLit)
			if !ok {
				continue
			}
			typ := strings.TrimPrefix(vs.Names[0].Name, "map_")
			if docs[typ] != nil {
				continue // the first package to name a type wins
			}
			m := map[string]string{}
			for _, e := range lit.Elts {
				kv := e.(*ast.KeyValueExpr)
				k, err1 := strconv.Unquote(kv.Key.(*ast.BasicLit).Value)
				v, err2 := strconv.Unquote(kv.Value.(*ast.BasicLit).Value)
				if err1 == nil && err2 == nil && k != "" {
					m[k] = v
				}
			}
			docs[typ] = m
		}
	}
	return nil
}

// commentDocs reads the doc comments of struct fields (by json name).
func commentDocs(file string, docs map[string]map[string]string) error {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ParseComments)
	if err != nil {
		return err
	}
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok {
			return true
		}
		st, ok := ts.Type.(*ast.StructType)
		if !ok || docs[ts.Name.Name] != nil {
			return false
		}
		m := map[string]string{}
		for _, fl := range st.Fields.List {
			if fl.Tag == nil || fl.Doc == nil {
				continue
			}
			tag := reflect.StructTag(strings.Trim(fl.Tag.Value, "`")).Get("json")
			name, _, _ := strings.Cut(tag, ",")
			if name == "" || name == "-" {
				continue
			}
			var lines []string
			for _, l := range strings.Split(fl.Doc.Text(), "\n") {
				if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "+") {
					lines = append(lines, l)
				}
			}
			m[name] = strings.Join(lines, " ")
		}
		docs[ts.Name.Name] = m
		return false
	})
	return nil
}
