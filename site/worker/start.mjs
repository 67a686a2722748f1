// How long the worker's Go program takes to start, which Workers does for
// every request: instantiate build/worker/app.wasm (compiled once, as
// Workers keeps it) and run it until it is ready to serve, N times, with
// the wasm_exec.js that workers-assets-gen wrote beside it.
//
//   make worker && node site/worker/start.mjs [N]
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL("build/worker/", import.meta.url));
await import(dir + "wasm_exec.js");
const mod = await WebAssembly.compile(await readFile(dir + "app.wasm"));
const n = Number(process.argv[2] ?? 50);
const took = [];
for (let i = 0; i < n; i++) {
  const t0 = performance.now();
  const go = new Go();
  let ready;
  const isReady = new Promise((resolve) => (ready = resolve));
  const instance = new WebAssembly.Instance(mod, { ...go.importObject, workers: { ready: () => ready() } });
  go.run(instance, { env: {}, ctx: {}, binding: {} });
  await isReady;
  took.push(performance.now() - t0);
}
took.sort((a, b) => a - b);
const at = (q) => took[Math.min(n - 1, Math.floor(q * n))].toFixed(1);
console.log(`the Go program, instantiated and started ${n} times: min ${at(0)} ms, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);
process.exit(0);
