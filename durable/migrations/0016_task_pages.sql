-- Two changes that cut what the server does for a task of a DAG, measured
-- on BenchmarkDurable's random DAG (10⁴ tasks, up to three dependencies
-- each, fsync on, 100 workers), where a task cost the server about twice
-- what an independent one does:
--
--   1. dagq_tasks keeps 30% of each page free (fillfactor 70), so
--      that an update that changes no indexed column — a dependent's
--      count of dependencies left going down, the most frequent update of
--      a DAG's tasks — can stay on its page as a heap-only tuple, adding
--      no entry to the primary key's index. It applies to pages written
--      from now on.
--   2. A hand-out reads its dependencies' results (dagq_next, 0015) by
--      dagq_tasks_results, an index of only the tasks that recorded one,
--      where it looked up every dependency by its primary key: most tasks
--      record no result, and most lookups now find an empty index. The
--      lookup's own condition keeps out the dependencies without one,
--      which 0015 filtered after the lookup.
--
-- dagq_next is otherwise 0015's.
ALTER TABLE dagq_tasks SET (fillfactor = 70);
CREATE INDEX dagq_tasks_results ON dagq_tasks (dag, name) WHERE result IS NOT NULL;

CREATE OR REPLACE FUNCTION dagq_next(p_n integer, p_now bigint, p_virtual boolean, p_holder text, p_dag text, p_results boolean)
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
                                               WHERE d.dag = u.dag AND d.name = n.name AND d.result IS NOT NULL OFFSET 0) AS x
                          WHERE p_results) AS r;
END
$$;
