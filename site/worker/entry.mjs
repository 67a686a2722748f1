// The worker's entry: the playground's main.wasm, precompressed, and
// everything else by the Go program (build/worker/worker.mjs, the glue
// that workers-assets-gen writes for it).
//
// Workers static assets serve a file as it is: they have no notion of a
// precompressed copy. `make worker` writes main.wasm.br (brotli at quality
// 11, about 1.2 MB of 6) and main.wasm.gz beside main.wasm in the assets,
// and wrangler.jsonc routes /main.wasm here first (run_worker_first): the
// body of the best coding the client accepts is taken from the assets and
// answered with encodeBody "manual", so that Workers sends it as it is,
// with its Content-Encoding, rather than compressing it again. The rules
// are package site's (site/encoding.go), so the edge answers as wq serve
// does. The Go program cannot do this itself: syumai/workers makes its
// Response without encodeBody.
import worker from "./build/worker/worker.mjs";

// The codings main.wasm is stored in besides itself, best first.
const codings = [
  { name: "br", suffix: ".br" },
  { name: "gzip", suffix: ".gz" },
];

// accepts reports whether the Accept-Encoding header value allows the
// coding name: named, or *, with a q above 0; a coding named explicitly
// overrides *.
function accepts(header, name) {
  let named = -1;
  let star = -1;
  for (const part of (header ?? "").split(",")) {
    const [coding, ...params] = part.split(";");
    let c = coding.trim().toLowerCase();
    if (c === "x-gzip") c = "gzip";
    if (c !== name && c !== "*") continue;
    let q = 1;
    for (const p of params) {
      const [k, v] = p.split("=");
      if (k.trim() === "q" && v !== undefined && !Number.isNaN(Number(v))) q = Number(v);
    }
    if (c === "*") star = q;
    else named = q;
  }
  return named >= 0 ? named > 0 : star > 0;
}

// wasm answers GET or HEAD /main.wasm from the assets, in the best coding
// the request accepts.
async function wasm(req, env) {
  const coding = codings.find((c) => accepts(req.headers.get("Accept-Encoding"), c.name));
  const url = new URL("/main.wasm" + (coding ? coding.suffix : ""), req.url);
  // The assets answer If-None-Match themselves (their ETag is the
  // stored file's, so each coding has its own).
  const asset = await env.ASSETS.fetch(new Request(url, { method: req.method, headers: req.headers }));
  if (asset.status !== 200 && asset.status !== 304) {
    return asset;
  }
  const headers = new Headers(asset.headers);
  headers.set("Content-Type", "application/wasm");
  headers.set("Vary", "Accept-Encoding");
  headers.set("Cache-Control", "no-cache");
  headers.set("X-Content-Type-Options", "nosniff");
  if (coding) {
    headers.set("Content-Encoding", coding.name);
  }
  return new Response(asset.body, { status: asset.status, headers, encodeBody: "manual" });
}

export default {
  async fetch(req, env, ctx) {
    const path = new URL(req.url).pathname;
    if (path === "/main.wasm" && (req.method === "GET" || req.method === "HEAD")) {
      return wasm(req, env);
    }
    return worker.fetch(req, env, ctx);
  },
};
