package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestHandler(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"index.html": "<!doctype html>", "embed.html": "<!doctype html>", "main.wasm": "\x00asm"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name, path, wantType string
		wantCode             int
		wantAncestors        string
	}{
		{name: "index", path: "/", wantType: "text/html; charset=utf-8", wantCode: http.StatusOK, wantAncestors: "frame-ancestors 'self'"},
		{name: "embed may be framed by any site", path: "/embed.html", wantType: "text/html; charset=utf-8", wantCode: http.StatusOK, wantAncestors: "frame-ancestors *"},
		{name: "wasm for instantiateStreaming", path: "/main.wasm", wantType: "application/wasm", wantCode: http.StatusOK},
		{name: "missing", path: "/nope.js", wantCode: http.StatusNotFound},
	}
	h := handler(dir)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tt.path, nil))
			if rec.Code != tt.wantCode {
				t.Fatalf("GET %s: status %d, want %d", tt.path, rec.Code, tt.wantCode)
			}
			if tt.wantType != "" && rec.Header().Get("Content-Type") != tt.wantType {
				t.Errorf("GET %s: Content-Type %q, want %q", tt.path, rec.Header().Get("Content-Type"), tt.wantType)
			}
			got := rec.Header().Get("Content-Security-Policy")
			if tt.wantAncestors != "" && !strings.Contains(got, tt.wantAncestors) {
				t.Errorf("GET %s: CSP %q, want %s", tt.path, got, tt.wantAncestors)
			}
			if !strings.Contains(got, "'wasm-unsafe-eval'") || strings.Contains(got, "'unsafe-eval'") {
				t.Errorf("GET %s: CSP %q must allow wasm compilation and nothing else of eval", tt.path, got)
			}
		})
	}
}

func TestRunRejectsAMissingFolder(t *testing.T) {
	err := run([]string{"-dir", filepath.Join(t.TempDir(), "absent"), "-port", "0"}, &strings.Builder{})
	if err == nil || !strings.Contains(err.Error(), "make web") {
		t.Errorf("run with a missing folder: %v, want an error that says to run make web", err)
	}
}

// The build's precompressed copies and hashed names: the copy the client
// accepts is sent with the original's type, hashed files are cached for a
// year and the rest revalidated.
func TestPrecompressedAndCaching(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"index.html":              "<!doctype html>",
		"index.html.br":           "BR-HTML",
		"main.0123456789.wasm":    "\x00asm-raw",
		"main.0123456789.wasm.br": "BR-WASM",
		"main.0123456789.wasm.gz": "GZ-WASM",
		"style.css":               "body{}",
		"manifest.json":           `{"version":"v","files":{"main.wasm":"main.0123456789.wasm"}}`,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name, path, accept               string
		wantBody, wantEncoding, wantType string
		wantCache                        string
	}{
		{name: "brotli preferred", path: "/main.0123456789.wasm", accept: "gzip, deflate, br", wantBody: "BR-WASM", wantEncoding: "br", wantType: "application/wasm", wantCache: "immutable"},
		{name: "gzip when br is refused", path: "/main.0123456789.wasm", accept: "gzip, br;q=0", wantBody: "GZ-WASM", wantEncoding: "gzip", wantType: "application/wasm", wantCache: "immutable"},
		{name: "identity without Accept-Encoding", path: "/main.0123456789.wasm", wantBody: "\x00asm-raw", wantType: "application/wasm", wantCache: "immutable"},
		{name: "the index page's copy", path: "/", accept: "br", wantBody: "BR-HTML", wantEncoding: "br", wantType: "text/html; charset=utf-8", wantCache: "no-cache"},
		{name: "no copy, sent as is", path: "/style.css", accept: "br", wantBody: "body{}", wantType: "text/css; charset=utf-8", wantCache: "no-cache"},
	}
	h := handler(dir)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, tt.path, nil)
			if tt.accept != "" {
				req.Header.Set("Accept-Encoding", tt.accept)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			res := rec.Result()
			if rec.Code != http.StatusOK || rec.Body.String() != tt.wantBody {
				t.Fatalf("GET %s: %d %q, want 200 %q", tt.path, rec.Code, rec.Body.String(), tt.wantBody)
			}
			if got := res.Header.Get("Content-Encoding"); got != tt.wantEncoding {
				t.Errorf("Content-Encoding %q, want %q", got, tt.wantEncoding)
			}
			if got := res.Header.Get("Content-Type"); got != tt.wantType {
				t.Errorf("Content-Type %q, want %q", got, tt.wantType)
			}
			if got := res.Header.Get("Cache-Control"); !strings.Contains(got, tt.wantCache) {
				t.Errorf("Cache-Control %q, want %s", got, tt.wantCache)
			}
			if tt.wantEncoding != "" && res.Header.Get("Content-Length") != strconv.Itoa(len(tt.wantBody)) {
				t.Errorf("Content-Length %q, want %d", res.Header.Get("Content-Length"), len(tt.wantBody))
			}
		})
	}
}

func TestUnderBase(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "embed.html"), []byte("<!doctype html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	prefix, h := underBase("schedplay", handler(dir))
	if prefix != "/schedplay/" {
		t.Fatalf("prefix %q, want /schedplay/", prefix)
	}
	for path, want := range map[string]int{
		"/schedplay/embed.html": http.StatusOK,
		"/schedplay":            http.StatusMovedPermanently,
		"/embed.html":           http.StatusNotFound,
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != want {
			t.Errorf("GET %s: %d, want %d", path, rec.Code, want)
		}
	}
	// The framing rule still applies under the prefix.
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/schedplay/embed.html", nil))
	if !strings.Contains(rec.Header().Get("Content-Security-Policy"), "frame-ancestors *") {
		t.Errorf("embed.html under the base: CSP %q", rec.Header().Get("Content-Security-Policy"))
	}
}
