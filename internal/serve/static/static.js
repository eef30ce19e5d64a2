// queens serve --export: the page without a server. The engines run in
// the browser, compiled from Go to WebAssembly (queens.wasm, started by
// the Go distribution's wasm_exec.js), and the page's requests to /api/
// go to them: window.queensFetch answers like fetch.
"use strict";

(() => {
  const ready = new Promise((resolve, reject) => {
    window.addEventListener("queens-ready", resolve, { once: true });
    const go = new Go();
    const start = (result) => go.run(result.instance);
    fetch("queens.wasm").then((res) => {
      if (!res.ok) throw new Error("queens.wasm: " + res.status + " " + res.statusText);
      // A host that serves .wasm with another type than application/wasm
      // still works, compiling from the bytes.
      return WebAssembly.instantiateStreaming(res.clone(), go.importObject)
        .catch(() => res.arrayBuffer().then((b) => WebAssembly.instantiate(b, go.importObject)));
    }).then(start).catch(reject);
  });
  window.queensFetch = async (path, opts) => {
    await ready;
    const r = await queensAPI((opts && opts.method) || "GET", String(path), (opts && opts.body) || "");
    return new Response(r.status === 204 ? null : r.body, { status: r.status, headers: { "Content-Type": r.contentType } });
  };
})();
