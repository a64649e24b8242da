package ui

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
)

// TestCanvasGlyphsExist checks that the canvas's fonts (fonts.go: Go
// Regular and Go Bold) have a glyph for every non-ASCII character in the
// string literals of the code whose text reaches the canvas: ui (labels,
// captions, tooltips), ui/adapt and core (event reasons, pending reasons).
// A character a font lacks is drawn as the missing-glyph box (glyph 0);
// symbols like ⚠ ✓ ✗ are drawn as icons instead (shapes.go).
func TestCanvasGlyphsExist(t *testing.T) {
	var faces []*sfnt.Font
	for _, ttf := range [][]byte{goregular.TTF, gobold.TTF} {
		f, err := sfnt.Parse(ttf)
		if err != nil {
			t.Fatal(err)
		}
		faces = append(faces, f)
	}
	seen := map[rune]string{}
	for _, root := range []string{".", "../core"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			if root == "." && strings.Contains(path, string(filepath.Separator)+"testdata") {
				return nil
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					return true
				}
				for _, r := range s {
					if r > 0x7f {
						if _, ok := seen[r]; !ok {
							seen[r] = path
						}
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(seen) == 0 {
		t.Fatal("no non-ASCII characters found: the scan looks at nothing")
	}
	var buf sfnt.Buffer
	for r, path := range seen {
		for i, f := range faces {
			if g, err := f.GlyphIndex(&buf, r); err != nil || g == 0 {
				t.Errorf("%q (U+%04X, in %s) has no glyph in %s: it would draw as a box", r, r, path, []string{"Go Regular", "Go Bold"}[i])
			}
		}
	}
}

// TestCanvasWordsHaveGlyphs: every character of the canvas's words in
// every language (the canvas.* messages of web/locales/embed) has a glyph
// in both weights: below U+2E80 in the Go fonts, from it up in the cut of
// Noto Sans CJK SC (fonts/, scripts/canvas-cjk-font.sh writes it from the
// Chinese words; run it when this fails).
func TestCanvasWordsHaveGlyphs(t *testing.T) {
	parse := func(name string, ttf []byte) *sfnt.Font {
		f, err := sfnt.Parse(ttf)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return f
	}
	read := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join("fonts", name))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	goFaces := map[string]*sfnt.Font{"Go Regular": parse("Go Regular", goregular.TTF), "Go Bold": parse("Go Bold", gobold.TTF)}
	cjkFaces := map[string]*sfnt.Font{}
	for _, n := range []string{"canvas-cjk-regular.otf", "canvas-cjk-bold.otf"} {
		cjkFaces[n] = parse(n, read(n))
	}
	var buf sfnt.Buffer
	wideSeen := 0
	for _, lang := range []string{"en", "zh-CN", "id"} {
		for k, s := range CanvasMessages(t, lang) {
			for _, r := range s {
				faces := goFaces
				if r >= 0x2e80 {
					faces = cjkFaces
					wideSeen++
				}
				for name, f := range faces {
					if g, err := f.GlyphIndex(&buf, r); err != nil || g == 0 {
						t.Errorf("%s canvas.%s: %q (U+%04X) has no glyph in %s: it would draw as a box", lang, k, r, r, name)
					}
				}
			}
		}
	}
	if wideSeen == 0 {
		t.Error("no Chinese character in the canvas words: the check looks at nothing")
	}
}

// CanvasMessages reads the canvas.* messages of the page's small catalog
// for lang (web/locales/embed), as the page sends them: names without the
// prefix. Exported for the ui_test package's tests.
func CanvasMessages(t testing.TB, lang string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "web", "locales", "embed", lang+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var cat map[string]any
	if err := json.Unmarshal(data, &cat); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for k, v := range cat {
		if name, ok := strings.CutPrefix(k, "canvas."); ok {
			s, _ := v.(string)
			out[name] = s
		}
	}
	return out
}
