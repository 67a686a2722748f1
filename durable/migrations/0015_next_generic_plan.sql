-- dagq_next hands out up to p_n READY tasks, in READY order, of the DAG
-- p_dag or (NULL) of every DAG not paused by a move: the statement the
-- workers' fetch ran from Go until now, in a function so that it keeps one
-- plan. Sent as a prepared statement it was planned again at every fetch,
-- because its custom plan for a small LIMIT always looked cheaper than the
-- generic one: planning took 0.4 ms of a fetch whose execution took 0.15,
-- and a fetch is what a worker with few handlers waits for (4 handlers
-- burnt down 2,000 independent tasks a second, two tasks a fetch, a fetch a
-- millisecond).
--
-- Every row is found by an index whatever the statistics: the line by
-- dagq_tasks_ready or dagq_tasks_dag_ready, in order, locked as it is read
-- (SKIP LOCKED: workers running at once take different tasks and never
-- wait for one another); the paused DAGs by dagq_dags_paused; the picked
-- rows again by their ctids (locked, so unchanged), in READY order; each
-- DAG's settings and clock by its key, and each dependency's result by its key (lateral
-- lookups); whether others wait on a task by the edges' key, the first
-- edge found (a subquery the planner cannot turn into a hash of every
-- edge). The function's own settings keep the planner off sequential and
-- bitmap scans, and one generic plan serves every call.
--
-- The time is p_now when given, else the DAG's virtual clock (p_virtual)
-- or the database's. Each task comes with its arguments, its dependencies,
-- whether others wait on it, how long it waited READY (seconds), and, when
-- p_results, its dependencies' recorded results as two arrays in the order
-- of their names. Leases and timer places are taken in READY order.
CREATE FUNCTION dagq_next(p_n integer, p_now bigint, p_virtual boolean, p_holder text, p_dag text, p_results boolean)
RETURNS TABLE (o_dag text, o_name text, o_attempt integer, o_lease bigint, o_deadline bigint, o_seq bigint,
               o_now bigint, o_dependents boolean, o_args bytea, o_deps text[], o_waited float8,
               o_names text[], o_results bytea[])
LANGUAGE plpgsql VOLATILE
SET enable_seqscan = off SET enable_bitmapscan = off SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
    v_tids    tid[];
    v_dags    text[];
    v_seqs    bigint[];
    v_changed timestamptz[];
BEGIN
    IF p_dag IS NULL THEN
        SELECT array_agg(x.tid ORDER BY x.ready_seq), array_agg(x.dag ORDER BY x.ready_seq),
               array_agg(x.ready_seq ORDER BY x.ready_seq), array_agg(x.changed ORDER BY x.ready_seq)
          INTO v_tids, v_dags, v_seqs, v_changed
          FROM (SELECT t.ctid AS tid, t.dag, t.ready_seq, t.changed FROM dagq_tasks t
                 WHERE t.state = 'READY' AND t.dag NOT IN (SELECT p.dag FROM dagq_dags p WHERE p.paused)
                 ORDER BY t.ready_seq LIMIT p_n FOR UPDATE OF t SKIP LOCKED) AS x;
    ELSE
        SELECT array_agg(x.tid ORDER BY x.ready_seq), array_agg(x.dag ORDER BY x.ready_seq),
               array_agg(x.ready_seq ORDER BY x.ready_seq), array_agg(x.changed ORDER BY x.ready_seq)
          INTO v_tids, v_dags, v_seqs, v_changed
          FROM (SELECT t.ctid AS tid, t.dag, t.ready_seq, t.changed FROM dagq_tasks t
                 WHERE t.state = 'READY' AND t.dag = p_dag
                   AND NOT EXISTS (SELECT 1 FROM dagq_dags p WHERE p.dag = p_dag AND p.paused)
                 ORDER BY t.dag, t.ready_seq LIMIT p_n FOR UPDATE OF t SKIP LOCKED) AS x;
    END IF;
    IF v_tids IS NULL THEN
        RETURN;
    END IF;
    RETURN QUERY
    WITH u AS (
        UPDATE dagq_tasks t SET state = 'RUNNING', attempts = t.attempts + 1,
               lease = nextval('dagq_lease_ids'), ready_seq = NULL, result = NULL,
               holder = p_holder, started = now(),
               timer_at = CASE WHEN c.lt > 0 THEN
                   CASE WHEN c.now > 9223372036854775807 - c.lt THEN 9223372036854775807 ELSE c.now + c.lt END END,
               timer_seq = CASE WHEN c.lt > 0 THEN nextval('dagq_line') END
          FROM (SELECT q.tid, q.dag, q.seq, q.changed, q.k
                  FROM unnest(v_tids, v_dags, v_seqs, v_changed) WITH ORDINALITY AS q(tid, dag, seq, changed, k)
                 ORDER BY q.k OFFSET 0) AS p
         CROSS JOIN LATERAL (SELECT d.lease_timeout AS lt,
                                    coalesce(p_now, CASE WHEN p_virtual THEN d.now
                                        ELSE (extract(epoch FROM clock_timestamp()) * 1000000000)::bigint END) AS now
                               FROM dagq_dags d WHERE d.dag = p.dag OFFSET 0) AS c
         WHERE t.ctid = p.tid
        RETURNING t.dag, t.name, t.attempts, t.lease, coalesce(t.timer_at, 0) AS deadline, p.seq, c.now,
               coalesce((SELECT true FROM dagq_edges e WHERE e.dag = t.dag AND e.dep = t.name LIMIT 1), false) AS dependents,
               t.args, t.deps, extract(epoch FROM clock_timestamp() - p.changed)::float8 AS waited)
    SELECT u.dag, u.name, u.attempts, u.lease, u.deadline, u.seq, u.now, u.dependents, u.args, u.deps, u.waited,
           coalesce(r.names, '{}'), coalesce(r.results, '{}')
      FROM u
     CROSS JOIN LATERAL (SELECT array_agg(x.name ORDER BY x.name) AS names, array_agg(x.result ORDER BY x.name) AS results
                           FROM unnest(u.deps) AS n(name)
                          CROSS JOIN LATERAL (SELECT d.name, d.result FROM dagq_tasks d
                                               WHERE d.dag = u.dag AND d.name = n.name OFFSET 0) AS x
                          WHERE p_results AND x.result IS NOT NULL) AS r;
END
$$;
