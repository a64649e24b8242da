// Command serve serves the built playground (a folder of static files) on
// 127.0.0.1 for development and the end-to-end tests:
//
//	go run ./scripts/serve -dir web/build -port 8080
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// csp mirrors the pages' meta policies; as a header it also covers what a
// meta tag cannot (frame-ancestors). 'wasm-unsafe-eval' lets the page compile
// WebAssembly without allowing JavaScript eval.
const csp = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; connect-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'none'; " +
	"form-action 'none'; frame-ancestors 'self'"

// framable are the pages documentation sites may put in an iframe: the embed
// page and the stage frame inside it (frame-ancestors checks every ancestor,
// so the stage needs it too). The embed checks message origins itself.
var framable = map[string]bool{"/embed.html": true, "/stage.html": true}

// handler serves dir with the security headers. Files the build gave a
// content-hashed name (manifest.json lists them) may be cached for a year;
// everything else is revalidated, so a rebuild shows on reload. When the
// client accepts it and the build wrote one, a precompressed copy (.br, else
// .gz) is sent with the original's type.
func handler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	immutable := hashedFiles(dir)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		if framable[r.URL.Path] {
			h.Set("Content-Security-Policy", strings.Replace(csp, "frame-ancestors 'self'", "frame-ancestors *", 1))
		} else {
			h.Set("Content-Security-Policy", csp)
		}
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		name := path.Base(r.URL.Path)
		if immutable[strings.TrimPrefix(r.URL.Path, "/")] {
			h.Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			h.Set("Cache-Control", "no-cache")
		}
		if servePrecompressed(w, r, dir, name) {
			return
		}
		files.ServeHTTP(w, r)
	})
}

// hashedFiles reads the build's manifest.json: {"files": {stable: hashed}}.
// A folder without one has no file cached for long.
func hashedFiles(dir string) map[string]bool {
	var m struct {
		Files map[string]string `json:"files"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil || json.Unmarshal(b, &m) != nil {
		return nil
	}
	out := map[string]bool{}
	for _, hashed := range m.Files {
		out[hashed] = true
	}
	return out
}

// encodings are the precompressed copies the build writes, best first.
var encodings = []struct{ token, ext string }{{"br", ".br"}, {"gzip", ".gz"}}

// servePrecompressed sends dir's file.br or file.gz for r when the client
// accepts that encoding; it reports whether it answered.
func servePrecompressed(w http.ResponseWriter, r *http.Request, dir, name string) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	rel := path.Clean("/" + r.URL.Path)
	if strings.HasSuffix(rel, "/") || rel == "/" {
		rel += "index.html"
		name = "index.html"
	}
	ctype := mime.TypeByExtension(path.Ext(name))
	if ctype == "" {
		return false
	}
	for _, enc := range encodings {
		if !accepts(r.Header.Get("Accept-Encoding"), enc.token) {
			continue
		}
		f, err := os.Open(filepath.Join(dir, filepath.FromSlash(rel)+enc.ext))
		if err != nil {
			continue
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil || st.IsDir() {
			continue
		}
		h := w.Header()
		h.Set("Content-Type", ctype)
		h.Set("Content-Encoding", enc.token)
		h.Add("Vary", "Accept-Encoding")
		// A range of the compressed bytes is no use to anyone: whole files
		// only, with their length (ServeContent leaves it out for encoded
		// bodies).
		r.Header.Del("Range")
		h.Set("Content-Length", strconv.FormatInt(st.Size(), 10))
		http.ServeContent(w, r, name, st.ModTime(), f)
		return true
	}
	w.Header().Add("Vary", "Accept-Encoding")
	return false
}

// accepts reports whether an Accept-Encoding header allows token (a q=0
// entry refuses it).
func accepts(header, token string) bool {
	for _, part := range strings.Split(header, ",") {
		fields := strings.Split(part, ";")
		if !strings.EqualFold(strings.TrimSpace(fields[0]), token) {
			continue
		}
		for _, p := range fields[1:] {
			if q, ok := strings.CutPrefix(strings.TrimSpace(p), "q="); ok {
				if v, err := strconv.ParseFloat(q, 64); err == nil && v == 0 {
					return false
				}
			}
		}
		return true
	}
	return false
}

// underBase serves h under the path base ("/schedplay/"), as a static
// host serving the site from a sub-path would; other paths are not found.
func underBase(base string, h http.Handler) (string, http.Handler) {
	prefix := "/" + strings.Trim(base, "/") + "/"
	if prefix == "//" {
		return "/", h
	}
	mux := http.NewServeMux()
	mux.Handle(prefix, http.StripPrefix(strings.TrimSuffix(prefix, "/"), h))
	mux.Handle(strings.TrimSuffix(prefix, "/"), http.RedirectHandler(prefix, http.StatusMovedPermanently))
	return prefix, mux
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	dir := fs.String("dir", "web/build", "folder of static files to serve")
	host := fs.String("host", "127.0.0.1", "address to listen on")
	defPort := 8080
	if p, err := strconv.Atoi(os.Getenv("PORT")); err == nil {
		defPort = p
	}
	port := fs.Int("port", defPort, "port to listen on (0 picks a free one); default $PORT or 8080")
	base := fs.String("base", "/", "path to serve the folder under, as a static host with a sub-path would (make dist BASE_PATH=...)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if st, err := os.Stat(*dir); err != nil || !st.IsDir() {
		return fmt.Errorf("serving %s: not a built folder (run make web)", *dir)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(*host, strconv.Itoa(*port)))
	if err != nil {
		return fmt.Errorf("listening: %w", err)
	}
	prefix, h := underBase(*base, handler(*dir))
	fmt.Fprintf(stdout, "schedplay playground: http://%s%s\n", ln.Addr(), prefix)
	err = http.Serve(ln, h)
	if errors.Is(err, net.ErrClosed) {
		return nil
	}
	return fmt.Errorf("serving: %w", err)
}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(1)
	}
}
