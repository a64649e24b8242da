// Command ebitenpatch prepares a copy of the ebiten module in which the
// built-in shader sources are rendered at build time, and a go.mod that
// points the build at it (go build -modfile).
//
//	go run ./scripts/ebitenpatch -dir DIR     # prints DIR/go.mod
//
// Why: ebiten renders its built-in shaders with text/template when the game
// starts (internal/builtinshader). text/template calls
// reflect.Value.MethodByName, and once such a call is reachable Go's linker
// keeps every exported method of every type that may be converted to an
// interface, because any of them could be called by name. In the page's
// wasm that is 3.6 MB of 20.8 MB (0.63 MB gzip). The copy's shader.go
// renders ebiten's own template here, natively, for every filter, address
// mode and colour-matrix choice, and holds the twelve results as byte-slice
// literals: ShaderSource returns the same bytes as before, and text/template
// drops out of the binary. Everything else in the module is ebiten's,
// unchanged. A shader.go this tool does not recognise (another ebiten
// version) stops the build with the reason.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"text/template"
)

const (
	module = "github.com/hajimehoshi/ebiten/v2"
	file   = "internal/builtinshader/shader.go"
)

func main() {
	dir := flag.String("dir", "", "folder for the module copy, go.mod and go.sum")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "usage: ebitenpatch -dir DIR")
		os.Exit(2)
	}
	modfile, err := run(*dir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "ebitenpatch: %v\n", err)
		os.Exit(1)
	}
	fmt.Println(modfile)
}

// run copies the module into dir/ebiten, rewrites its shader.go, and
// writes dir/go.mod (this tree's, replacing the module with the copy) and
// dir/go.sum; it returns the go.mod's path.
func run(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	copyDir := filepath.Join(dir, "ebiten")
	if err := copyModule(copyDir); err != nil {
		return "", err
	}
	shader := filepath.Join(copyDir, filepath.FromSlash(file))
	orig, err := os.ReadFile(shader)
	if err != nil {
		return "", err
	}
	rewritten, err := rewrite(shader, orig)
	if err != nil {
		return "", fmt.Errorf("%s@%s %s: %w", module, moduleVersion(), file, err)
	}
	if err := os.WriteFile(shader, rewritten, 0o644); err != nil {
		return "", err
	}
	return writeModfile(dir, copyDir)
}

func goCmd(args ...string) (string, error) {
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		return "", fmt.Errorf("go %s: %w", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}

func moduleVersion() string {
	v, _ := goCmd("list", "-m", "-f", "{{.Version}}", module)
	return v
}

// copyModule copies the module this tree builds with into dst, leaving out
// its examples (12 MB nothing imports).
func copyModule(dst string) error {
	// On a fresh machine nothing has downloaded the module yet, and go list
	// then prints an empty Dir: download it first (a no-op once cached).
	if _, err := goCmd("mod", "download", module); err != nil {
		return fmt.Errorf("downloading %s: %w", module, err)
	}
	src, err := goCmd("list", "-m", "-f", "{{.Dir}}", module)
	if err != nil {
		return fmt.Errorf("locating %s: %w", module, err)
	}
	if src == "" {
		return fmt.Errorf("locating %s: go list printed no directory", module)
	}
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			if rel == "examples" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
}

// writeModfile writes dir/go.mod, this tree's go.mod with the module
// replaced by moduleDir, and dir/go.sum beside it (go build -modfile reads
// the go.sum next to the go.mod it is given).
func writeModfile(dir, moduleDir string) (string, error) {
	gomod, err := goCmd("env", "GOMOD")
	if err != nil || gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("not inside the schedplay module: %v", err)
	}
	mod, err := os.ReadFile(gomod)
	if err != nil {
		return "", err
	}
	sum, err := os.ReadFile(strings.TrimSuffix(gomod, ".mod") + ".sum")
	if err != nil {
		return "", err
	}
	mod = append(mod, fmt.Sprintf("\nreplace %s => %s\n", module, moduleDir)...)
	modfile := filepath.Join(dir, "go.mod")
	if err := os.WriteFile(modfile, mod, 0o644); err != nil {
		return "", err
	}
	return modfile, os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644)
}

// rewrite returns shader.go without its template: the tmpl variable goes,
// and ShaderSource returns the rendered source from a table indexed like
// ebiten's own cache, shaders[filter][address][colorM].
func rewrite(name string, src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	text, err := templateText(f)
	if err != nil {
		return nil, err
	}
	consts, err := intConsts(f, "FilterNearest", "FilterLinear", "FilterCount", "AddressUnsafe", "AddressClampToZero", "AddressRepeat", "AddressCount")
	if err != nil {
		return nil, err
	}
	if !hasFunc(f, "ShaderSource") {
		return nil, fmt.Errorf("no func ShaderSource: not the file ebitenpatch knows (ebiten v2.8)")
	}
	tmpl, err := template.New("tmpl").Option("missingkey=error").Parse(text)
	if err != nil {
		return nil, fmt.Errorf("parsing the shader template: %w", err)
	}
	// The template reads these names; a map with missingkey=error fails on
	// any name it does not know instead of rendering an empty value.
	var table strings.Builder
	fmt.Fprintf(&table, "var renderedShaders = [FilterCount][AddressCount][2][]byte{\n")
	for filter := 0; filter < consts["FilterCount"]; filter++ {
		table.WriteString("{\n")
		for address := 0; address < consts["AddressCount"]; address++ {
			table.WriteString("{\n")
			for _, colorM := range []bool{false, true} {
				var buf bytes.Buffer
				err := tmpl.Execute(&buf, map[string]any{
					"Filter": filter, "FilterNearest": consts["FilterNearest"], "FilterLinear": consts["FilterLinear"],
					"Address": address, "AddressUnsafe": consts["AddressUnsafe"], "AddressClampToZero": consts["AddressClampToZero"],
					"AddressRepeat": consts["AddressRepeat"], "UseColorM": colorM,
				})
				if err != nil {
					return nil, fmt.Errorf("rendering the shader template: %w", err)
				}
				fmt.Fprintf(&table, "[]byte(%s),\n", strconv.Quote(buf.String()))
			}
			table.WriteString("},\n")
		}
		table.WriteString("},\n")
	}
	table.WriteString("}\n")

	// Drop the tmpl declaration and the template import; replace the body
	// of ShaderSource. Splicing text keeps the rest of the file as it is.
	var cuts []cut
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok == token.VAR && len(d.Specs) == 1 && specNames(d.Specs[0]) == "tmpl" {
				cuts = append(cuts, cut{fset.Position(d.Pos()).Offset, fset.Position(d.End()).Offset, table.String()})
			}
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name == "ShaderSource" {
				body := "{\n\tvar c int\n\tif useColorM {\n\t\tc = 1\n\t}\n\treturn renderedShaders[filter][address][c]\n}"
				cuts = append(cuts, cut{fset.Position(d.Body.Pos()).Offset, fset.Position(d.Body.End()).Offset, body})
			}
		}
	}
	if len(cuts) != 2 {
		return nil, fmt.Errorf("found %d of the 2 places to change (var tmpl, func ShaderSource)", len(cuts))
	}
	var out bytes.Buffer
	at := 0
	for _, c := range cuts {
		out.Write(src[at:c.from])
		out.WriteString(c.with)
		at = c.to
	}
	out.Write(src[at:])
	return dropUnusedImports(name, out.Bytes())
}

type cut struct {
	from, to int
	with     string
}

// templateText finds var tmpl = template.Must(template.New(...).Parse(`...`)).
func templateText(f *ast.File) (string, error) {
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR || len(g.Specs) != 1 || specNames(g.Specs[0]) != "tmpl" {
			continue
		}
		vs := g.Specs[0].(*ast.ValueSpec)
		var text string
		ast.Inspect(vs, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Parse" && len(call.Args) == 1 {
				if lit, ok := call.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					text, _ = strconv.Unquote(lit.Value)
				}
			}
			return true
		})
		if text == "" {
			return "", fmt.Errorf("var tmpl is not template.Must(template.New(...).Parse(\"...\"))")
		}
		return text, nil
	}
	return "", fmt.Errorf("no var tmpl: not the file ebitenpatch knows (ebiten v2.8)")
}

// intConsts evaluates the named constants of the file: an iota block of
// untyped or typed ints, or a literal.
func intConsts(f *ast.File, names ...string) (map[string]int, error) {
	values := map[string]int{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		var last ast.Expr
		for i, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			if len(vs.Values) == 1 {
				last = vs.Values[0]
			}
			v, ok := intValue(last, i)
			if !ok {
				continue
			}
			for _, n := range vs.Names {
				values[n.Name] = v
			}
		}
	}
	for _, n := range names {
		if _, ok := values[n]; !ok {
			return nil, fmt.Errorf("no integer constant %s: not the file ebitenpatch knows (ebiten v2.8)", n)
		}
	}
	return values, nil
}

func intValue(e ast.Expr, iota int) (int, bool) {
	switch e := e.(type) {
	case *ast.Ident:
		return iota, e.Name == "iota"
	case *ast.BasicLit:
		if e.Kind != token.INT {
			return 0, false
		}
		v, err := strconv.Atoi(e.Value)
		return v, err == nil
	}
	return 0, false
}

func specNames(s ast.Spec) string {
	vs, ok := s.(*ast.ValueSpec)
	if !ok || len(vs.Names) != 1 {
		return ""
	}
	return vs.Names[0].Name
}

func hasFunc(f *ast.File, name string) bool {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == name {
			return true
		}
	}
	return false
}

// dropUnusedImports removes the imports the rewritten file no longer names
// (text/template, and bytes and fmt with the old ShaderSource body) and
// formats the file.
func dropUnusedImports(name string, src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("the rewritten file does not parse: %w", err)
	}
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.IMPORT {
			continue
		}
		keep := g.Specs[:0]
		for _, s := range g.Specs {
			is := s.(*ast.ImportSpec)
			path, _ := strconv.Unquote(is.Path.Value)
			local := path[strings.LastIndex(path, "/")+1:]
			if is.Name != nil {
				local = is.Name.Name
			}
			if used[local] || local == "_" {
				keep = append(keep, s)
			}
		}
		g.Specs = keep
	}
	var out bytes.Buffer
	if err := format.Node(&out, fset, f); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
