// queens serve --export: the page without a server. The engines run in a
// Web Worker (worker.js: Go compiled to WebAssembly), and the page's
// requests to /api/ go to it: window.queensFetch answers like fetch,
// streaming the answer as the worker sends it (a count's progress lines
// as they come). Aborting a request ends the worker, which stops the
// engine at once; the requests still open are sent again to a new one
// (the API only computes, so asking twice is safe) unless their answer
// had begun.
"use strict";

(() => {
  let worker = null, next = 0;
  const open = new Map(); // id -> {msg, resolve, reject, stream}

  const fail = (req, err) => {
    open.delete(req.msg.id);
    if (req.stream) req.stream.error(err);
    else req.reject(err);
  };

  const start = () => {
    worker = new Worker("worker.js");
    worker.onmessage = (e) => {
      const { id, head, chunk, end, error } = e.data;
      const req = open.get(id);
      if (!req) return;
      if (error !== undefined) return fail(req, new Error(error));
      if (head) {
        if (head.status === 204) {
          open.delete(id);
          return req.resolve(new Response(null, { status: 204 }));
        }
        const body = new ReadableStream({ start(c) { req.stream = c; } });
        req.resolve(new Response(body, { status: head.status, headers: { "Content-Type": head.contentType } }));
      } else if (chunk) {
        req.stream.enqueue(chunk);
      } else if (end) {
        open.delete(id);
        req.stream.close();
      }
    };
    worker.onerror = (e) => {
      e.preventDefault();
      for (const req of [...open.values()]) fail(req, new Error("the engines stopped: " + (e.message || "worker error")));
    };
    for (const req of [...open.values()]) {
      // An answer half received cannot be taken up again; one not yet
      // begun is asked again.
      if (req.stream) fail(req, new Error("interrupted when another request was cancelled: ask again"));
      else worker.postMessage(req.msg);
    }
  };

  window.queensFetch = (path, opts) => new Promise((resolve, reject) => {
    const signal = opts && opts.signal;
    const aborted = () => new DOMException("The request was cancelled.", "AbortError");
    if (signal && signal.aborted) return reject(aborted());
    const msg = { id: ++next, method: (opts && opts.method) || "GET", path: String(path), body: (opts && opts.body) || "" };
    const req = { msg, resolve, reject, stream: null };
    open.set(msg.id, req);
    if (signal) {
      signal.addEventListener("abort", () => {
        if (!open.has(msg.id)) return;
        fail(req, aborted());
        worker.terminate();
        start(); // the others are asked again
      }, { once: true });
    }
    if (!worker) start();
    else worker.postMessage(msg);
  });
})();
