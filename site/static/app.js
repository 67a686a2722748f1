// The playground's bootstrap: start the Go program (main.wasm) that draws
// and runs everything. wasm_exec.js, loaded before this file, defines Go.
"use strict";

// A live DAG's view (wq serve --db, /?live=DAG) asks for the DAG's state
// now, while main.wasm downloads and compiles: the server's read takes as
// long as that for a big DAG. The page takes the answer from here.
const liveDAG = new URLSearchParams(location.search).get("live");
if (liveDAG) {
  window.dagqLiveState = fetch("/api/live/dags/" + encodeURIComponent(liveDAG) + "/state", { cache: "no-store" });
}

(async function start() {
  const boot = document.getElementById("boot");
  try {
    const go = new Go();
    const url = "main.wasm";
    let result;
    if (WebAssembly.instantiateStreaming) {
      const response = await fetch(url);
      if (!response.ok) {
        throw new Error(url + ": " + response.status + " " + response.statusText +
          (response.status === 503 ? " (run make wasm)" : ""));
      }
      result = await WebAssembly.instantiateStreaming(response, go.importObject);
    } else {
      const response = await fetch(url);
      result = await WebAssembly.instantiate(await response.arrayBuffer(), go.importObject);
    }
    go.run(result.instance);
  } catch (err) {
    document.body.dataset.failed = "1";
    if (boot) {
      boot.hidden = false;
      boot.textContent = "The playground could not start: " + err.message;
    }
  }
})();
