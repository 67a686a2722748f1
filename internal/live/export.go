package live

import "net/http"

// exportScript is GET /api/live/dags/{dag}/script: the scenario script
// that rebuilds the DAG's state in the playground.
func (s *server) exportScript(w http.ResponseWriter, r *http.Request) {
	jsonError(w, http.StatusNotImplemented, "live: export is not available yet")
}

// taskDetail is GET /api/live/dags/{dag}/tasks/{name}.
func (s *server) taskDetail(w http.ResponseWriter, r *http.Request) {
	jsonError(w, http.StatusNotImplemented, "live: task detail is not available yet")
}
