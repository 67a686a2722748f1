-- Idle workers LISTEN on dagq_ready: every transaction that makes a task
-- READY notifies it once (Postgres folds equal notifications of one
-- transaction), at commit, whatever made the task READY.

CREATE FUNCTION dagq_notify_ready() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('dagq_ready', '');
    RETURN NULL;
END
$$;

CREATE TRIGGER dagq_tasks_ready_insert AFTER INSERT ON dagq_tasks
    FOR EACH ROW WHEN (NEW.state = 'READY') EXECUTE FUNCTION dagq_notify_ready();

CREATE TRIGGER dagq_tasks_ready_update AFTER UPDATE OF state ON dagq_tasks
    FOR EACH ROW WHEN (NEW.state = 'READY' AND OLD.state IS DISTINCT FROM 'READY') EXECUTE FUNCTION dagq_notify_ready();
