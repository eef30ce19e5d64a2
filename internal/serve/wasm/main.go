//go:build js && wasm

// Command wasm is the server of queens serve compiled to WebAssembly, for
// the static site `queens serve --export DIR` writes. It runs in a Web
// Worker (worker.js), so that a long count leaves the page free and is
// cancelled by ending the worker: the page's requests to /api/... go to
// [serve.Handler] through the JavaScript function
// queensAPI(method, path, body, head, chunk), which calls head(status,
// contentType) once, then chunk(bytes) for each part of the answer as the
// handler flushes it (a count's progress lines as they come), and returns
// a promise resolved when the answer is complete. Build it with
//
//	GOOS=js GOARCH=wasm go build -trimpath -o queens.wasm ./internal/serve/wasm
//
// and load it with the Go distribution's wasm_exec.js (what the export
// does).
package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall/js"

	"github.com/queens-dev/queens/internal/serve"
)

func main() {
	h := serve.Handler(serve.Options{MaxHeavy: 1})
	api := js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) < 5 {
			return js.Global().Get("Promise").Call("reject", "queensAPI(method, path, body, head, chunk)")
		}
		method, path, body := args[0].String(), args[1].String(), args[2].String()
		w := &writer{header: http.Header{}, head: args[3], chunk: args[4]}
		var executor js.Func
		executor = js.FuncOf(func(this js.Value, p []js.Value) any {
			resolve := p[0]
			executor.Release()
			go func() {
				req := httptest.NewRequest(method, path, strings.NewReader(body))
				req.Host = "localhost"
				if method == "POST" {
					req.Header.Set("Content-Type", "application/json")
				}
				h.ServeHTTP(w, req)
				w.Flush()
				resolve.Invoke()
			}()
			return nil
		})
		return js.Global().Get("Promise").New(executor)
	})
	js.Global().Set("queensAPI", api)
	js.Global().Call("dispatchEvent", js.Global().Get("Event").New("queens-ready"))
	select {} // serve the page's calls for as long as it is open
}

// writer is an [http.ResponseWriter] that hands the answer to JavaScript:
// the status and type to head when they are known, the body to chunk at
// each Flush (and at the end).
type writer struct {
	header      http.Header
	head, chunk js.Value
	wrote       bool
	buf         bytes.Buffer
}

func (w *writer) Header() http.Header { return w.header }

func (w *writer) WriteHeader(status int) {
	if w.wrote {
		return
	}
	w.wrote = true
	w.head.Invoke(status, w.header.Get("Content-Type"))
}

func (w *writer) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.buf.Write(p)
}

// Flush sends what was written since the last Flush.
func (w *writer) Flush() {
	w.WriteHeader(http.StatusOK)
	if w.buf.Len() == 0 {
		return
	}
	data := js.Global().Get("Uint8Array").New(w.buf.Len())
	js.CopyBytesToJS(data, w.buf.Bytes())
	w.chunk.Invoke(data)
	w.buf.Reset()
}
