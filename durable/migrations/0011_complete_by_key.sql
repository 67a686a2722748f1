-- dagq_complete and dagq_complete_batch find every row they touch by its
-- primary key, one lookup a row: the dependents of the tasks completed
-- (dagq_edges by dag and dep), then each dependent (dagq_tasks by dag and
-- name). The versions of 0003 and 0005 joined the names to the tables in
-- one statement each, and on tables never analyzed (a fresh database, or a
-- DAG submitted since the last ANALYZE) the planner took the DAG's every
-- edge or task by the first column of the key and filtered them: 30,000
-- edges read to complete 30 tasks of a 10,000-task DAG, hundreds of rows
-- read a Complete, so that a DAG's burn-down grew with the square of its
-- size. Here a lookup is a subquery on (dag, dep) or a statement on (dag,
-- name), which no estimate turns into a scan: O(b + e) rows for b leases
-- and their e out-edges, whatever the DAG's size or statistics.
--
-- dagq_complete does and returns what it did (0003), but that it now
-- decrements its dependents in name order, as a batch does.
CREATE OR REPLACE FUNCTION dagq_complete(p_dag text, p_name text, p_lease bigint, p_attempt integer, p_now bigint)
RETURNS TABLE (at bigint, freed text)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    v_now   bigint;
    v_names text[];
    v_arr   bigint[];
    v_state text;
    r       record;
BEGIN
    UPDATE dagq_tasks t SET state = 'SUCCEEDED', timer_at = NULL, timer_seq = NULL
      FROM dagq_dags d
     WHERE t.dag = p_dag AND t.name = p_name AND t.state = 'RUNNING'
       AND t.lease = p_lease AND t.attempts = p_attempt
       AND d.dag = t.dag AND (t.timer_at IS NULL OR t.timer_at > coalesce(p_now, d.now))
    RETURNING coalesce(p_now, d.now) INTO v_now;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    at := v_now;
    freed := NULL;
    RETURN NEXT;
    FOR r IN
        SELECT e.task, count(*) AS c, max(e.arrival) AS arrival FROM dagq_edges e
         WHERE e.dag = p_dag AND e.dep = p_name GROUP BY e.task ORDER BY e.task
    LOOP
        UPDATE dagq_tasks t SET waiting = t.waiting - r.c,
               state = CASE WHEN t.waiting = r.c AND t.state = 'PENDING' THEN 'READY' ELSE t.state END
         WHERE t.dag = p_dag AND t.name = r.task
        RETURNING t.state INTO v_state;
        IF v_state = 'READY' THEN
            v_names := v_names || r.task;
            v_arr := v_arr || r.arrival;
        END IF;
    END LOOP;
    IF v_names IS NULL THEN
        RETURN;
    END IF;
    SELECT array_agg(f.n ORDER BY f.a) INTO v_names FROM unnest(v_names, v_arr) AS f(n, a);
    FOR k IN 1 .. cardinality(v_names) LOOP
        UPDATE dagq_tasks t SET ready_seq = nextval('dagq_line') WHERE t.dag = p_dag AND t.name = v_names[k];
    END LOOP;
    RETURN QUERY SELECT v_now, u.n FROM unnest(v_names) WITH ORDINALITY AS u(n, i) ORDER BY u.i;
END
$$;

-- dagq_complete_batch does and returns what it did (0005): the fenced UPDATE of every
-- lease; the dependents locked and decremented in name order, so that two
-- batches meeting on a dependent wait for one another instead of
-- deadlocking; the places in the READY line of those it frees, in the order
-- the completions one after another would free them (by the completion that
-- freed each, the last of its dependencies in the batch, then by arrival).
CREATE OR REPLACE FUNCTION dagq_complete_batch(p_dag text, p_names text[], p_leases bigint[], p_attempts integer[], p_now bigint)
RETURNS TABLE (at bigint, i bigint, freed text)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    v_now   bigint;
    v_done  text[];
    v_idx   bigint[];
    v_freed text[];
    v_by    bigint[];
    v_arr   bigint[];
    v_state text;
    r       record;
BEGIN
    v_now := coalesce(p_now, (SELECT d.now FROM dagq_dags d WHERE d.dag = p_dag));
    FOR k IN 1 .. coalesce(cardinality(p_names), 0) LOOP
        UPDATE dagq_tasks t SET state = 'SUCCEEDED', timer_at = NULL, timer_seq = NULL
         WHERE t.dag = p_dag AND t.name = p_names[k] AND t.state = 'RUNNING'
           AND t.lease = p_leases[k] AND t.attempts = p_attempts[k]
           AND (t.timer_at IS NULL OR t.timer_at > v_now);
        IF FOUND THEN
            v_done := v_done || p_names[k];
            v_idx := v_idx || k::bigint;
        END IF;
    END LOOP;
    IF v_done IS NULL THEN
        RETURN;
    END IF;
    RETURN QUERY SELECT v_now, d.i, NULL::text FROM unnest(v_idx) AS d(i);

    -- Each dependent once, with how many of its dependencies the batch
    -- completed, the last of them and its latest arrival, in name order.
    FOR r IN
        SELECT x.task, count(*) AS c, max(b.i) AS last_i, max(x.arrival) AS arrival
          FROM unnest(v_done, v_idx) AS b(name, i)
         CROSS JOIN LATERAL (SELECT e.task, e.arrival FROM dagq_edges e
                              WHERE e.dag = p_dag AND e.dep = b.name OFFSET 0) AS x
         GROUP BY x.task ORDER BY x.task
    LOOP
        UPDATE dagq_tasks t SET waiting = t.waiting - r.c,
               state = CASE WHEN t.waiting = r.c AND t.state = 'PENDING' THEN 'READY' ELSE t.state END
         WHERE t.dag = p_dag AND t.name = r.task
        RETURNING t.state INTO v_state;
        IF v_state = 'READY' THEN
            v_freed := v_freed || r.task;
            v_by := v_by || r.last_i;
            v_arr := v_arr || r.arrival;
        END IF;
    END LOOP;
    IF v_freed IS NULL THEN
        RETURN;
    END IF;
    SELECT array_agg(f.n ORDER BY f.by, f.a), array_agg(f.by ORDER BY f.by, f.a)
      INTO v_freed, v_by FROM unnest(v_freed, v_by, v_arr) AS f(n, by, a);
    FOR k IN 1 .. cardinality(v_freed) LOOP
        UPDATE dagq_tasks t SET ready_seq = nextval('dagq_line') WHERE t.dag = p_dag AND t.name = v_freed[k];
    END LOOP;
    RETURN QUERY SELECT v_now, f.by, f.n FROM unnest(v_freed, v_by) WITH ORDINALITY AS f(n, by, k) ORDER BY f.k;
END
$$;
