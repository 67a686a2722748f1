-- What an operator asks of one task: who holds its lease and since when
-- (set by the hand-out's own UPDATE, no statement more), and its failed or
-- expired attempts with their errors, written only when an attempt fails
-- (a rare path), the last 20 of each task kept.

ALTER TABLE dagq_tasks
    ADD COLUMN holder  text NOT NULL DEFAULT '',  -- RUNNING: who was handed the lease (WorkerOptions.ID)
    ADD COLUMN started timestamptz;               -- RUNNING: when the lease was handed out

CREATE TABLE dagq_attempts (
    dag      text NOT NULL REFERENCES dagq_dags ON DELETE CASCADE,
    task     text NOT NULL,
    seq      bigint NOT NULL,          -- from dagq_line: the order they ended in
    attempt  integer NOT NULL,         -- 1 for the first hand-out since submit or redrive
    redrives integer NOT NULL,         -- the task's redrives when it ran: which life it belongs to
    error    text NOT NULL,
    outcome  text NOT NULL,            -- what the failure led to: READY, DELAYED or DEAD
    expired  boolean NOT NULL,         -- the lease expired (the error is core's "lease expired")
    permanent boolean NOT NULL,        -- a permanent error (core.Permanent)
    holder   text NOT NULL,
    started  timestamptz,
    ended    timestamptz NOT NULL,
    PRIMARY KEY (dag, task, seq)
);
