-- dagq_complete settles a lease in one round trip: the fenced UPDATE of
-- the task, then its dependents' decrements, then the places in the READY
-- line of those it frees, in their arrival order. Each statement of this
-- VOLATILE function sees a fresh snapshot, as the statements of a
-- transaction do: so a submit that share-locked the task (to wait on it)
-- and committed while the first UPDATE waited is seen by the second, and
-- its new task's count is decremented too.
--
-- It returns no row when the lease is not the task's current, unexpired
-- one (the caller then finds out why), else one row with freed NULL and
-- one per task it made READY, in READY order, each with the time.
CREATE FUNCTION dagq_complete(p_dag text, p_name text, p_lease bigint, p_attempt integer, p_now bigint)
RETURNS TABLE (at bigint, freed text)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    v_now   bigint;
    v_names text[];
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
    WITH dec AS (
        UPDATE dagq_tasks t SET waiting = t.waiting - 1,
               state = CASE WHEN t.waiting = 1 AND t.state = 'PENDING' THEN 'READY' ELSE t.state END
          FROM dagq_edges e
         WHERE e.dag = p_dag AND e.dep = p_name AND t.dag = p_dag AND t.name = e.task
        RETURNING t.name, t.state, e.arrival)
    SELECT array_agg(dec.name ORDER BY dec.arrival) FILTER (WHERE dec.state = 'READY') INTO v_names FROM dec;
    IF v_names IS NULL THEN
        RETURN;
    END IF;
    WITH s AS MATERIALIZED (
        SELECT u.n, nextval('dagq_line') AS seq FROM unnest(v_names) WITH ORDINALITY AS u(n, i) ORDER BY u.i)
    UPDATE dagq_tasks t SET ready_seq = s.seq FROM s WHERE t.dag = p_dag AND t.name = s.n;
    RETURN QUERY SELECT v_now, u.n FROM unnest(v_names) WITH ORDINALITY AS u(n, i) ORDER BY u.i;
END
$$;
