-- Retention: a DAG can be deleted (DB.DeleteDAG, or the maintenance pass
-- once it has been finished for longer than Options.Retention), and
-- everything of it goes with it: its edges and expired leases cascade now
-- as its tasks and redrive did. Rows record when they were created, last
-- changed state, and (tasks) when they succeeded.

DELETE FROM dagq_edges e WHERE NOT EXISTS (SELECT 1 FROM dagq_dags d WHERE d.dag = e.dag);
ALTER TABLE dagq_edges ADD CONSTRAINT dagq_edges_dag_fkey
    FOREIGN KEY (dag) REFERENCES dagq_dags ON DELETE CASCADE;
DELETE FROM dagq_expired x WHERE NOT EXISTS (SELECT 1 FROM dagq_dags d WHERE d.dag = x.dag);
ALTER TABLE dagq_expired ADD CONSTRAINT dagq_expired_dag_fkey
    FOREIGN KEY (dag) REFERENCES dagq_dags ON DELETE CASCADE;
CREATE INDEX dagq_expired_dag ON dagq_expired (dag);

ALTER TABLE dagq_dags
    ADD COLUMN created timestamptz NOT NULL DEFAULT now(),
    ADD COLUMN changed timestamptz NOT NULL DEFAULT now();
ALTER TABLE dagq_tasks
    ADD COLUMN created  timestamptz NOT NULL DEFAULT now(),  -- submitted (or first named)
    ADD COLUMN changed  timestamptz NOT NULL DEFAULT now(),  -- its state last changed
    ADD COLUMN finished timestamptz;                         -- SUCCEEDED

-- changed and finished follow the state, whatever statement moves it.
CREATE FUNCTION dagq_task_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.changed := now();
    IF NEW.state = 'SUCCEEDED' THEN
        NEW.finished := now();
    ELSE
        NEW.finished := NULL;
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER dagq_tasks_changed BEFORE UPDATE OF state ON dagq_tasks
    FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state) EXECUTE FUNCTION dagq_task_changed();

-- A DAG's row changes with its settings, its clock, its counts.
CREATE FUNCTION dagq_dag_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.changed := now();
    RETURN NEW;
END
$$;
CREATE TRIGGER dagq_dags_changed BEFORE UPDATE ON dagq_dags
    FOR EACH ROW EXECUTE FUNCTION dagq_dag_changed();
