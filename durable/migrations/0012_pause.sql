-- A DAG that Sharded.Move is moving is paused: no task of it is handed out,
-- so that the tasks RUNNING when the move began finish where they run (their
-- results committed there) before its rows are copied, and none of them is
-- run again in the new database. The partial index keeps the hand-out's
-- test of it a lookup in an index that is empty but during a move.
ALTER TABLE dagq_dags ADD COLUMN paused boolean NOT NULL DEFAULT false;
CREATE INDEX dagq_dags_paused ON dagq_dags (dag) WHERE paused;
