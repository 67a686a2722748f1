-- dagq_complete_batch does what it did (0005, 0011) in a fixed number of
-- statements a batch, where 0011 ran one for each lease, one for each
-- dependent, and one more for each dependent it freed (a second version of
-- the row, a second check of its foreign key). On a random DAG, three
-- dependencies a task, a completion cost the server about four times what
-- a hand-out does, and a worker's completions, not its handlers, were what
-- limited its burn-down.
--
--   1. The leases' rows, each found by its primary key (a lateral lookup a
--      lease), then one UPDATE of them all by ctid, fenced as before by
--      state, lease, attempt and deadline. A row that another transaction
--      changed in between no longer has that ctid: the UPDATE leaves it,
--      and those left are updated again by key, one statement each.
--   2. The dependents, each once, looked up by key and locked (FOR NO KEY
--      UPDATE) in name order, so that two batches meeting on dependents
--      wait for one another instead of deadlocking; what each lock read
--      says which of them the batch frees (left waiting on nothing, and
--      PENDING), and those take their places in line (dagq_line) in the
--      order the completions one after another would free them: by the
--      completion that freed each (the last of its dependencies in the
--      batch), then by arrival.
--   3. One UPDATE of the dependents by ctid (locked, so unchanged): each
--      decremented, and those freed made READY with their places in line,
--      one new version of the row where 0011 wrote two.
--
-- Every row is still found by its primary key or its ctid, whatever the
-- statistics (0011): no join is left to the planner but lateral lookups
-- (OFFSET 0) over the arrays, and the function's own setting keeps it off
-- sequential scans. Per-row values travel from one statement to the next in
-- jsonb objects keyed by task name. It returns what it did as 0005 does.
CREATE OR REPLACE FUNCTION dagq_complete_batch(p_dag text, p_names text[], p_leases bigint[], p_attempts integer[], p_now bigint)
RETURNS TABLE (at bigint, i bigint, freed text)
LANGUAGE plpgsql VOLATILE
SET enable_seqscan = off SET enable_bitmapscan = off
AS $$
DECLARE
    v_now   bigint;
    v_held  jsonb;
    v_tids  tid[];
    v_done  text[];
    v_idx   bigint[];
    v_c     jsonb;
    v_freed text[];
    v_by    bigint[];
    v_seq   jsonb;
    v_k     integer;
BEGIN
    v_now := coalesce(p_now, (SELECT d.now FROM dagq_dags d WHERE d.dag = p_dag));

    -- 1. The leases by their tasks' names, [{l: lease, a: attempt, k: place
    -- in the arrays}, …] (more than one where a name comes more than once),
    -- and their rows' ctids; then the fenced UPDATE of those rows.
    SELECT array_agg(y.tid), jsonb_object_agg(h.name, h.held)
      INTO v_tids, v_held
      FROM (SELECT b.name, jsonb_agg(jsonb_build_object('l', b.lease, 'a', b.attempt, 'k', b.k)) AS held
              FROM unnest(p_names, p_leases, p_attempts) WITH ORDINALITY AS b(name, lease, attempt, k)
             GROUP BY b.name) AS h
     CROSS JOIN LATERAL (SELECT t.ctid AS tid FROM dagq_tasks t
                          WHERE t.dag = p_dag AND t.name = h.name OFFSET 0) AS y;
    WITH u AS (
        UPDATE dagq_tasks t SET state = 'SUCCEEDED', timer_at = NULL, timer_seq = NULL
         WHERE t.ctid = ANY (v_tids) AND t.state = 'RUNNING'
           AND v_held -> t.name @> jsonb_build_array(jsonb_build_object('l', t.lease, 'a', t.attempts))
           AND (t.timer_at IS NULL OR t.timer_at > v_now)
        RETURNING t.name, (SELECT (e ->> 'k')::bigint FROM jsonb_array_elements(v_held -> t.name) AS e
                            WHERE e @> jsonb_build_object('l', t.lease, 'a', t.attempts) LIMIT 1) AS k)
    SELECT array_agg(u.name ORDER BY u.k), array_agg(u.k ORDER BY u.k) INTO v_done, v_idx FROM u;
    -- A row that another transaction changed since its ctid was read (a
    -- submit moves RUNNING tasks in the order, a heartbeat renews them) has
    -- a new ctid, which the UPDATE does not match: those leases, and only
    -- when some are left, are updated again by key, one at a time, as 0011
    -- did all of them.
    IF coalesce(cardinality(v_idx), 0) < coalesce(cardinality(p_names), 0) THEN
        FOR v_k IN SELECT s.k FROM generate_series(1, cardinality(p_names)) AS s(k)
                    WHERE NOT s.k = ANY (coalesce(v_idx, '{}')) LOOP
            UPDATE dagq_tasks t SET state = 'SUCCEEDED', timer_at = NULL, timer_seq = NULL
             WHERE t.dag = p_dag AND t.name = p_names[v_k] AND t.state = 'RUNNING'
               AND t.lease = p_leases[v_k] AND t.attempts = p_attempts[v_k]
               AND (t.timer_at IS NULL OR t.timer_at > v_now);
            IF FOUND THEN
                v_done := v_done || p_names[v_k];
                v_idx := v_idx || v_k::bigint;
            END IF;
        END LOOP;
        SELECT array_agg(x.n ORDER BY x.i), array_agg(x.i ORDER BY x.i) INTO v_done, v_idx
          FROM unnest(v_done, v_idx) AS x(n, i);
    END IF;
    IF v_done IS NULL THEN
        RETURN;
    END IF;
    RETURN QUERY SELECT v_now, d.i, NULL::text FROM unnest(v_idx) AS d(i);

    -- 2. Each dependent once, locked in name order: how many of its
    -- dependencies the batch completed (by name), and those it frees, in
    -- READY order, with the completion that freed each.
    SELECT array_agg(y.tid), jsonb_object_agg(g.task, g.c),
           array_agg(g.task ORDER BY g.last_i, g.arrival) FILTER (WHERE y.waiting = g.c AND y.state = 'PENDING'),
           array_agg(g.last_i ORDER BY g.last_i, g.arrival) FILTER (WHERE y.waiting = g.c AND y.state = 'PENDING')
      INTO v_tids, v_c, v_freed, v_by
      FROM (SELECT x.task, count(*)::integer AS c, max(b.i) AS last_i, max(x.arrival) AS arrival
              FROM unnest(v_done, v_idx) AS b(name, i)
             CROSS JOIN LATERAL (SELECT e.task, e.arrival FROM dagq_edges e
                                  WHERE e.dag = p_dag AND e.dep = b.name OFFSET 0) AS x
             GROUP BY x.task ORDER BY x.task OFFSET 0) AS g
     CROSS JOIN LATERAL (SELECT t.ctid AS tid, t.waiting, t.state FROM dagq_tasks t
                          WHERE t.dag = p_dag AND t.name = g.task OFFSET 0 FOR NO KEY UPDATE) AS y;
    IF v_tids IS NULL THEN
        RETURN;
    END IF;
    -- Their places in line, taken in READY order.
    SELECT jsonb_object_agg(f.n, nextval('dagq_line')) INTO v_seq
      FROM (SELECT f.n FROM unnest(v_freed) WITH ORDINALITY AS f(n, k) ORDER BY f.k OFFSET 0) AS f;

    -- 3. One UPDATE of the dependents, by ctid (locked, so unchanged).
    UPDATE dagq_tasks t SET waiting = t.waiting - (v_c ->> t.name)::integer,
           state = CASE WHEN coalesce(v_seq ? t.name, false) THEN 'READY' ELSE t.state END,
           ready_seq = CASE WHEN coalesce(v_seq ? t.name, false) THEN (v_seq ->> t.name)::bigint ELSE t.ready_seq END
     WHERE t.ctid = ANY (v_tids);
    IF v_freed IS NULL THEN
        RETURN;
    END IF;
    RETURN QUERY SELECT v_now, f.by, f.n FROM unnest(v_freed, v_by) WITH ORDINALITY AS f(n, by, k) ORDER BY f.k;
END
$$;

-- dagq_complete is a batch of one: the same statements, its freed in
-- arrival order (the order of a batch whose every dependent it freed).
CREATE OR REPLACE FUNCTION dagq_complete(p_dag text, p_name text, p_lease bigint, p_attempt integer, p_now bigint)
RETURNS TABLE (at bigint, freed text)
LANGUAGE sql VOLATILE AS $$
    SELECT b.at, b.freed FROM dagq_complete_batch(p_dag, ARRAY[p_name], ARRAY[p_lease], ARRAY[p_attempt], p_now) AS b
$$;
