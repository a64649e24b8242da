// Command serve serves the built playground (a folder of static files) on
// 127.0.0.1 for development and the end-to-end tests:
//
//	go run ./scripts/serve -dir web/build -port 8080
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
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

// handler serves dir with the security headers and no caching, so a rebuild
// shows on reload.
func handler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		if framable[r.URL.Path] {
			h.Set("Content-Security-Policy", strings.Replace(csp, "frame-ancestors 'self'", "frame-ancestors *", 1))
		} else {
			h.Set("Content-Security-Policy", csp)
		}
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
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
	fmt.Fprintf(stdout, "schedplay playground: http://%s/\n", ln.Addr())
	err = http.Serve(ln, handler(*dir))
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
