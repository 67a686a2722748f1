-- Operating the dead-letter queue: the growth alert and a bulk redrive at
-- a rate, kept with the DAG so that they survive a restart and are shared
-- by every process that opens it. Both are timers besides the tasks': the
-- alert's clear time and the redrive's next batch, ordered with the
-- tasks' timers by time and then by a place in dagq_line.

ALTER TABLE dagq_dags
    ADD COLUMN alert_entries integer NOT NULL DEFAULT 0,   -- 0: no alert
    ADD COLUMN alert_window  bigint NOT NULL DEFAULT 0,
    ADD COLUMN alert_times   bigint[] NOT NULL DEFAULT '{}', -- the newest entry times, oldest first, at most alert_entries
    ADD COLUMN alert_on      boolean NOT NULL DEFAULT false,
    ADD COLUMN alert_at      bigint,                       -- the alert is on: when it clears
    ADD COLUMN alert_seq     bigint,
    ADD COLUMN job_at        bigint,                       -- a redrive at a rate is under way: its next batch
    ADD COLUMN job_seq       bigint;

CREATE INDEX dagq_dags_alert_due ON dagq_dags (alert_at) WHERE alert_at IS NOT NULL;
CREATE INDEX dagq_dags_job_due ON dagq_dags (job_at) WHERE job_at IS NOT NULL;

-- The bulk redrive under way in a DAG, at most one: what it set out to do
-- (chosen when it started) and how far it got.
CREATE TABLE dagq_redrives (
    dag         text PRIMARY KEY REFERENCES dagq_dags ON DELETE CASCADE,
    fingerprint text NOT NULL,   -- the selector: exactly one of the two is set
    contains    text NOT NULL,
    rate_n      integer NOT NULL,
    rate_per    bigint NOT NULL,
    tasks       text[] NOT NULL, -- in DLQ order
    skipped     text[] NOT NULL, -- poisoned when it started
    pos         integer NOT NULL DEFAULT 0, -- tasks[1:pos] are handled
    done        integer NOT NULL DEFAULT 0,
    gone        integer NOT NULL DEFAULT 0,
    started     bigint NOT NULL
);
