// The live list of DAGs (wq serve --db): keep the token the address
// carries (#token=…) in this browser, say whether this page may act, and
// swap in the table's rows, rendered by the server, each time the server's
// events say a DAG changed. Every decision is the server's.
"use strict";

(function () {
  const key = "dagq-token";
  const m = /(?:^#|&)token=([0-9a-f]+)/.exec(location.hash);
  if (m) {
    localStorage.setItem(key, m[1]);
    history.replaceState(null, "", location.pathname + location.search); // the token leaves the address bar
  }
  const token = localStorage.getItem(key) || "";
  const status = document.getElementById("status");
  const mode = document.getElementById("mode");
  const rows = document.getElementById("rows");

  fetch("/api/live/info", { headers: { "X-Dagq-Token": token } })
    .then((r) => r.json())
    .then((info) => {
      mode.dataset.canAct = String(info.canAct);
      mode.textContent = info.canAct ? "can act on the queue" : "read-only";
      mode.title = info.why || "This page's token lets it redrive and cancel.";
    });

  let busy = false, again = false;
  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch("/dags/rows", { cache: "no-store" })
      .then((r) => { if (!r.ok) throw new Error(r.status + " " + r.statusText); return r.text(); })
      .then((html) => {
        rows.innerHTML = html;
        document.body.dataset.updated = String(Number(document.body.dataset.updated || 0) + 1);
      })
      .catch((e) => { status.textContent = "could not read the DAGs: " + e.message; })
      .finally(() => { busy = false; if (again) { again = false; refresh(); } });
  }

  const es = new EventSource("/api/live/events");
  es.onopen = () => { status.textContent = "live"; status.dataset.live = "1"; };
  es.onerror = () => { status.textContent = "reconnecting…"; status.dataset.live = "0"; };
  es.addEventListener("changed", refresh);
  // Ages move without any change: read them again now and then.
  setInterval(refresh, 10000);
})();
