package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
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
