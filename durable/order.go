package durable

import (
	"slices"
)

// The cycle check keeps a topological order of each DAG in the column
// dagq_tasks.ord, as D. J. Pearce and P. H. J. Kelly, "A Dynamic
// Topological Sort Algorithm for Directed Acyclic Graphs", ACM Journal of
// Experimental Algorithmics 11 (2006), keep theirs, with the paper's names:
// ord, lb, ub, deltaF, deltaB, reorder. It is the same algorithm as
// package incremental's PK, run on rows.
//
// Invariant: ord[d] < ord[v] for every edge "v waits on d" of the DAG. A
// name seen for the first time as a dependency is placed at the front
// (below dagq_dags.ord_first), a task seen for the first time at the back
// (above ord_last): both are right at once, so chains in order, reversed
// chains and wide graphs agree with ord edge by edge and the check is one
// comparison per edge, no statement at all. Only an edge v→d with
// ord[d] > ord[v] searches the affected region lb = ord[v] … ub = ord[d]:
// deltaF, what waits on v transitively with ord ≤ ub (reaching d is a
// cycle), and deltaB, what d waits on transitively with ord > lb; reorder
// hands their places, pooled and sorted, to deltaB first and deltaF after.
// Each search is one recursive statement; the cost is O(δ) rows for the δ
// nodes and edges of the region, plus a sort. A refused submit rolls back,
// its reorders with it.

// insertEdge checks the new edge "v waits on d" against ord (the places of
// the names of this submit, kept up to date here) and repairs the order if
// it disagrees. It returns the cycle, first and last v, if the edge would
// close one.
func (t *txn) insertEdge(v, d string, ord map[string]int64) ([]string, error) {
	lb, ub := ord[v], ord[d]
	if ub < lb {
		return nil, nil // ord agrees with the edge
	}
	// Discovery: deltaF.
	deltaF, err := t.placed(`WITH RECURSIVE f(name, ord) AS (
			SELECT $2::text, $3::bigint
			UNION
			SELECT t.name, t.ord FROM f
			JOIN dagq_edges e ON e.dag = $1 AND e.dep = f.name
			JOIN dagq_tasks t ON t.dag = $1 AND t.name = e.task
			WHERE t.ord <= $4)
		SELECT name, ord FROM f`, t.dag, v, lb, ub)
	if err != nil {
		return nil, err
	}
	for _, p := range deltaF {
		if p.name == d {
			return t.cyclePath(v, d, deltaF)
		}
	}
	deltaB, err := t.placed(`WITH RECURSIVE b(name, ord) AS (
			SELECT $2::text, $3::bigint
			UNION
			SELECT t.name, t.ord FROM b
			JOIN dagq_tasks x ON x.dag = $1 AND x.name = b.name
			JOIN dagq_tasks t ON t.dag = $1 AND t.name = ANY (x.deps)
			WHERE t.ord > $4)
		SELECT name, ord FROM b`, t.dag, d, ub, lb)
	if err != nil {
		return nil, err
	}
	// Reassignment.
	byOrd := func(a, b place) int { return int(a.ord - b.ord) }
	slices.SortFunc(deltaB, byOrd)
	slices.SortFunc(deltaF, byOrd)
	pool := make([]int64, 0, len(deltaB)+len(deltaF))
	for _, p := range deltaB {
		pool = append(pool, p.ord)
	}
	for _, p := range deltaF {
		pool = append(pool, p.ord)
	}
	slices.Sort(pool)
	names := make([]string, 0, len(pool))
	for _, p := range deltaB {
		names = append(names, p.name)
	}
	for _, p := range deltaF {
		names = append(names, p.name)
	}
	for i, n := range names {
		if _, ok := ord[n]; ok {
			ord[n] = pool[i]
		}
	}
	_, err = t.tx.Exec(t.ctx, `UPDATE dagq_tasks t SET ord = u.o
		FROM unnest($2::text[], $3::bigint[]) AS u(n, o) WHERE t.dag = $1 AND t.name = u.n`, t.dag, names, pool)
	return nil, err
}

// place is a name with its ord.
type place struct {
	name string
	ord  int64
}

// placed runs a query of (name, ord) rows.
func (t *txn) placed(sql string, args ...any) ([]place, error) {
	rows, err := t.tx.Query(t.ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []place
	for rows.Next() {
		var p place
		if err := rows.Scan(&p.name, &p.ord); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// cyclePath returns the cycle v, d, …, v through the region deltaF, which
// holds d: v waits on d by the new edge, and d on v through the edges of
// deltaF, the shortest such way, found breadth first from v through the
// tasks that wait on it in their arrival order.
func (t *txn) cyclePath(v, d string, deltaF []place) ([]string, error) {
	names := make([]string, len(deltaF))
	for i, p := range deltaF {
		names[i] = p.name
	}
	rows, err := t.tx.Query(t.ctx, `SELECT dep, task FROM dagq_edges
		WHERE dag = $1 AND dep = ANY($2) AND task = ANY($2) ORDER BY dep, arrival`, t.dag, names)
	if err != nil {
		return nil, err
	}
	dependents := map[string][]string{}
	for rows.Next() {
		var dep, task string
		if err := rows.Scan(&dep, &task); err != nil {
			return nil, err
		}
		dependents[dep] = append(dependents[dep], task)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	parent := map[string]string{v: ""}
	line := []string{v}
	for i := 0; i < len(line); i++ {
		for _, w := range dependents[line[i]] {
			if _, ok := parent[w]; !ok {
				parent[w] = line[i]
				line = append(line, w)
			}
		}
	}
	path := []string{v}
	for x := d; x != v; x = parent[x] {
		path = append(path, x)
	}
	return append(path, v), nil
}
