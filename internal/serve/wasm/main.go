//go:build js && wasm

// Command wasm is the server of queens serve compiled to WebAssembly, for
// the static site `queens serve --export DIR` writes: the page's requests
// to /api/... go to [serve.Handler] in the browser itself, through the
// JavaScript function queensAPI(method, path, body), which returns a
// promise of {status, contentType, body} (body a Uint8Array). The
// answers are whole: a count's progress lines come all at once at the
// end. Build it with
//
//	GOOS=js GOARCH=wasm go build -trimpath -o queens.wasm ./internal/serve/wasm
//
// and load it with the Go distribution's wasm_exec.js (what the export
// does).
package main

import (
	"net/http/httptest"
	"strings"
	"syscall/js"

	"github.com/queens-dev/queens/internal/serve"
)

func main() {
	h := serve.Handler(serve.Options{MaxHeavy: 1})
	api := js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) < 3 {
			return js.Global().Get("Promise").Call("reject", "queensAPI(method, path, body)")
		}
		method, path, body := args[0].String(), args[1].String(), args[2].String()
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
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				res := js.Global().Get("Object").New()
				res.Set("status", w.Code)
				res.Set("contentType", w.Header().Get("Content-Type"))
				data := js.Global().Get("Uint8Array").New(w.Body.Len())
				js.CopyBytesToJS(data, w.Body.Bytes())
				res.Set("body", data)
				resolve.Invoke(res)
			}()
			return nil
		})
		return js.Global().Get("Promise").New(executor)
	})
	js.Global().Set("queensAPI", api)
	js.Global().Call("dispatchEvent", js.Global().Get("Event").New("queens-ready"))
	select {} // serve the page's calls for as long as it is open
}
