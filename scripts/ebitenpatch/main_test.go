package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// dumpTest is added to the module copy's builtinshader package
// to print every source ShaderSource returns.
const dumpTest = `package builtinshader

import (
	"fmt"
	"os"
	"testing"
)

func TestDumpShaderSources(t *testing.T) {
	var b []byte
	for f := Filter(0); f < FilterCount; f++ {
		for a := Address(0); a < AddressCount; a++ {
			for _, c := range []bool{false, true} {
				b = fmt.Appendf(b, "== filter %d address %d colorM %v\n%s", f, a, c, ShaderSource(f, a, c))
			}
		}
	}
	if err := os.WriteFile(os.Getenv("SHADER_DUMP"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}
`

// dump adds the dump test to the module copy in dir, runs it with dir's
// go.mod, and returns what ShaderSource returned.
func dump(t *testing.T, modfile string) string {
	t.Helper()
	dir := filepath.Dir(modfile)
	pkg := filepath.Join(dir, "ebiten", filepath.FromSlash(filepath.Dir(file)))
	if err := os.WriteFile(filepath.Join(pkg, "zz_dump_test.go"), []byte(dumpTest), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "dump.txt")
	cmd := exec.Command("go", "test", "-count=1", "-modfile="+modfile, "-run=TestDumpShaderSources", module+"/internal/builtinshader")
	cmd.Env = append(os.Environ(), "SHADER_DUMP="+out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test of builtinshader: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The patched copy must compile without text/template and return, for
// every parameter, the bytes ebiten's own template renders: the oracle is
// an unpatched copy running ebiten's code.
func TestPatchKeepsShaderSources(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ebiten's package twice")
	}
	patched, err := run(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(filepath.Join(filepath.Dir(patched), "ebiten", filepath.FromSlash(file)))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(text), `"text/template"`) {
		t.Fatalf("the patched %s still imports text/template", file)
	}
	if mod, _ := os.ReadFile(patched); !strings.Contains(string(mod), "replace "+module+" => ") {
		t.Fatalf("%s does not replace %s:\n%s", patched, module, mod)
	}

	plainDir := t.TempDir()
	if err := copyModule(filepath.Join(plainDir, "ebiten")); err != nil {
		t.Fatal(err)
	}
	plain, err := writeModfile(plainDir, filepath.Join(plainDir, "ebiten"))
	if err != nil {
		t.Fatal(err)
	}
	before, after := dump(t, plain), dump(t, patched)
	if n := strings.Count(before, "== filter"); n != 12 {
		t.Fatalf("ebiten's ShaderSource dumped %d sources, want 12 (2 filters x 3 address modes x colour matrix or not)", n)
	}
	if before != after {
		t.Errorf("the patched ShaderSource differs from ebiten's:\nebiten:\n%s\npatched:\n%s", before, after)
	}
}

// A file that is not the one ebitenpatch knows stops the build with the
// reason instead of producing something else.
func TestRewriteRefusesUnknownFile(t *testing.T) {
	cases := map[string]string{
		"no template":     "package builtinshader\n\nconst (\n\tFilterNearest = iota\n)\n\nfunc ShaderSource() []byte { return nil }\n",
		"no ShaderSource": "package builtinshader\n\nimport \"text/template\"\n\nconst (\n\tFilterNearest = iota\n\tFilterLinear\n)\n\nconst FilterCount = 2\n\nconst (\n\tAddressUnsafe = iota\n\tAddressClampToZero\n\tAddressRepeat\n)\n\nconst AddressCount = 3\n\nvar tmpl = template.Must(template.New(\"t\").Parse(`x`))\n",
		"unknown field":   "package builtinshader\n\nimport \"text/template\"\n\nconst (\n\tFilterNearest = iota\n\tFilterLinear\n)\n\nconst FilterCount = 2\n\nconst (\n\tAddressUnsafe = iota\n\tAddressClampToZero\n\tAddressRepeat\n)\n\nconst AddressCount = 3\n\nvar tmpl = template.Must(template.New(\"t\").Parse(`{{.Blend}}`))\n\nfunc ShaderSource() []byte { return nil }\n",
	}
	for name, src := range cases {
		if _, err := rewrite("shader.go", []byte(src)); err == nil {
			t.Errorf("%s: rewrite succeeded, want an error", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
}
