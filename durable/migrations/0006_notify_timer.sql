-- Workers LISTEN on dagq_timer to learn of a due time as soon as it is set,
-- so that a retry under a backoff shorter than their Poll runs when it falls
-- due: every transaction that DELAYs a task notifies it once, at commit.

CREATE FUNCTION dagq_notify_timer() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('dagq_timer', '');
    RETURN NULL;
END
$$;

CREATE TRIGGER dagq_tasks_delayed AFTER UPDATE OF state ON dagq_tasks
    FOR EACH ROW WHEN (NEW.state = 'DELAYED' AND OLD.state IS DISTINCT FROM 'DELAYED') EXECUTE FUNCTION dagq_notify_timer();
