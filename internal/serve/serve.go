// Package serve is `queens serve`: one self-contained web page (HTML, CSS
// and JavaScript embedded in the binary) and a small JSON API over the
// engines the command line uses, for the interactive board of the course
// texts.
//
// The API, 0-based like the library; a board is n (1..32) and its queens
// as [row, col] pairs:
//
//	GET  /api/attacks?n=8&q=0:3,4:4    attack counts and conflicts (also POST {"n","queens"})
//	POST /api/solve   {"n","queens","engine":"backtrack"|"sat"}  a completion or null
//	POST /api/count   {"n","queens"}   NDJSON: progress lines, then the counts
//	POST /api/trace   {"n","queens","from","maxSteps","order","narrate","strategy"}  steps of the backtracker, in words
//	                  (order rows|columns, narrate steps|agents, strategy lex|iterative|cells|generate,
//	                  as queens trace takes them; the defaults rows, steps, lex)
//	GET  /api/gallery?n=8              every solution (n <= 12) by symmetry class
//	POST /api/export?format=svg|png|fen|dimacs  {"n","queens","numbers","placed"}  the board as a file
//	                  (numbers: the attack counts in the picture; placed: the queens drawn blue)
//
// A null completion and the counts also say whether they were verified
// and how ("verified": true|false, "verified_by": "backtracker",
// "published", "construction" or "witness"): the backtracker's answers are
// its own, gini's "no completion" is checked by the library referee
// (compare.Referee), and the empty board's count against the published
// table.
//
// Errors are {"error": "..."} with status 400 (bad request), 405, 408
// (a body not sent within 10 s), 413 (body over 64 KiB, whatever it
// holds), 415 (not JSON), 422 (queens the operation cannot take: two in
// one row, attacking each other, a board too big for it), 429 (too many
// heavy requests at once, or more than 8 requests open from one client)
// or 503 (no answer within the time limit). A heavy request takes its
// turn only once its body has arrived, so a client that sends slowly
// delays no one else. Work stops when the client goes away.
//
// [Export] writes the page as a static site instead, the handler compiled
// to WebAssembly (internal/serve/wasm) answering the page's requests in
// the browser.
package serve

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

//go:embed static
var static embed.FS

// Options configures [Handler]. The zero value is the default.
type Options struct {
	// MaxHeavy is how many heavy requests (solve, count, trace, gallery,
	// export) run at once; more get 429 Too Many Requests. Zero means 2.
	MaxHeavy int
	// Timeout bounds one heavy request; zero means 2 minutes.
	Timeout time.Duration
	// AnyHost accepts requests for any Host header. Without it only
	// localhost and loopback addresses are served, which keeps other web
	// sites from reaching the API through DNS rebinding.
	AnyHost bool
}

// Handler returns the page and the API as one [http.Handler].
func Handler(opts Options) http.Handler {
	if opts.MaxHeavy <= 0 {
		opts.MaxHeavy = 2
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 2 * time.Minute
	}
	a := &api{tokens: make(chan struct{}, opts.MaxHeavy), timeout: opts.Timeout}
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // the embedded tree is part of the binary
	}
	mux := http.NewServeMux()
	files := http.FileServerFS(sub)
	mux.Handle("GET /{$}", files)
	mux.Handle("GET /app.js", files)
	mux.Handle("GET /style.css", files)
	mux.Handle("GET /favicon.svg", files)
	mux.HandleFunc("/api/attacks", a.attacks)
	mux.HandleFunc("/api/solve", a.heavyPost(a.solve))
	mux.HandleFunc("/api/count", a.heavyPost(a.count))
	mux.HandleFunc("/api/trace", a.heavyPost(a.trace))
	mux.HandleFunc("/api/export", a.heavyPost(a.export))
	mux.HandleFunc("/api/gallery", a.heavy(a.gallery))
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		fail(w, http.StatusNotFound, "no such API endpoint")
	})
	// No limit by client or connection: every local process is one
	// address (loopback), and a request that waits for its body holds no
	// token (heavyPost), so cheap requests are never refused because
	// others wait; only the heavy work is limited (MaxHeavy).
	return secure(mux, opts.AnyHost)
}

// csp allows the page's own files and nothing else: no inline script, no
// other origin. Pictures may be data: and blob: URLs (the exports).
const csp = "default-src 'self'; img-src 'self' data: blob:; object-src 'none'; base-uri 'none'; " +
	"frame-ancestors 'none'; form-action 'none'"

// secure adds the security headers to every answer and refuses requests
// for other hosts (unless anyHost) and cross-origin writes.
func secure(next http.Handler, anyHost bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-store")
		if !anyHost && !loopbackHost(r.Host) {
			fail(w, http.StatusForbidden, "this server answers requests for localhost only")
			return
		}
		if o := r.Header.Get("Origin"); o != "" && r.Method != http.MethodGet && o != "http://"+r.Host {
			fail(w, http.StatusForbidden, "cross-origin request refused")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// loopbackHost reports whether the Host header names this machine:
// localhost or a loopback address, with or without a port.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Serve serves [Handler] on ln until ctx is done, then shuts down: the
// requests still running see their contexts cancelled and get up to 5
// seconds to finish. It returns nil after a shutdown asked for by ctx.
func Serve(ctx context.Context, ln net.Listener, opts Options) error {
	srv := &http.Server{
		Handler:           Handler(opts),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    16 << 10,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil {
		srv.Close()
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Run is the serve command: it listens on addr (host:port; port 0 picks a
// free one), prints the page's URL to stderr, warns there when the address
// is not a loopback one (anyone who can reach it can use the server), opens
// the page with xdg-open when open is set (a failure is only reported) and
// serves until ctx is done. Errors are those of listening and serving.
func Run(ctx context.Context, addr string, open bool, stderr io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return fmt.Errorf("serve: %w (another program has that port: --addr 127.0.0.1:0 picks a free one)", err)
	}
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	tcp, _ := ln.Addr().(*net.TCPAddr)
	local := tcp != nil && tcp.IP.IsLoopback()
	url := "http://" + ln.Addr().String() + "/"
	if !local {
		fmt.Fprintf(stderr, "queens serve: warning: listening on %s, not on a loopback address: anyone who can reach this machine can use the server\n", ln.Addr())
		if tcp != nil && tcp.IP.IsUnspecified() {
			url = fmt.Sprintf("http://127.0.0.1:%d/", tcp.Port)
		}
	}
	fmt.Fprintf(stderr, "queens serve: %s (Ctrl-C stops)\n", url)
	if open {
		cmd := exec.Command("xdg-open", url)
		if err := cmd.Start(); err != nil {
			fmt.Fprintf(stderr, "queens serve: cannot open a browser (%v): open %s yourself\n", err, url)
		} else {
			go cmd.Wait() // reap it; its status does not matter
		}
	}
	return Serve(ctx, ln, Options{AnyHost: !local})
}
