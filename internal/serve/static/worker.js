// queens serve --export: the Web Worker that runs the engines, compiled
// from Go to WebAssembly (queens.wasm, started by the Go distribution's
// wasm_exec.js), so that the page stays free while they work. Messages in:
// {id, method, path, body}; out: {id, head: {status, contentType}}, then
// {id, chunk: Uint8Array} per part of the answer, then {id, end: true}
// (or {id, error} if it failed). static.js ends this worker to cancel.
"use strict";

importScripts("wasm_exec.js");

const ready = new Promise((resolve, reject) => {
  self.addEventListener("queens-ready", resolve, { once: true });
  const go = new Go();
  fetch("queens.wasm").then((res) => {
    if (!res.ok) throw new Error("queens.wasm: " + res.status + " " + res.statusText);
    // A host that serves .wasm with another type than application/wasm
    // still works, compiling from the bytes.
    return WebAssembly.instantiateStreaming(res.clone(), go.importObject)
      .catch(() => res.arrayBuffer().then((b) => WebAssembly.instantiate(b, go.importObject)));
  }).then((result) => go.run(result.instance)).catch(reject);
});

self.onmessage = async (e) => {
  const { id, method, path, body } = e.data;
  try {
    await ready;
    await queensAPI(method, path, body,
      (status, contentType) => self.postMessage({ id, head: { status, contentType } }),
      (chunk) => self.postMessage({ id, chunk }, [chunk.buffer]));
    self.postMessage({ id, end: true });
  } catch (err) {
    self.postMessage({ id, error: String((err && err.message) || err) });
  }
};
