-- dagq's durable queue: one row per DAG, one per task (or name known only
-- as a dependency), one per edge. Times are nanoseconds on the DAG's clock.

CREATE TABLE dagq_dags (
    dag            text PRIMARY KEY,
    max_attempts   integer NOT NULL,
    lease_timeout  bigint NOT NULL,            -- 0: leases never expire
    backoff_base   bigint NOT NULL,            -- 0: no backoff
    backoff_factor double precision NOT NULL,
    backoff_max    bigint NOT NULL,
    jitter         smallint NOT NULL,
    seed           bigint NOT NULL,
    rng            bytea,                      -- the jitter generator's state
    poison_after   integer NOT NULL,
    now            bigint NOT NULL DEFAULT 0,  -- the virtual clock
    ord_first      bigint NOT NULL DEFAULT 0,  -- every ord lies in [ord_first, ord_last]
    ord_last       bigint NOT NULL DEFAULT 0,
    arrivals       bigint NOT NULL DEFAULT 0   -- tasks submitted so far
);

CREATE TABLE dagq_tasks (
    dag        text NOT NULL REFERENCES dagq_dags ON DELETE CASCADE,
    name       text NOT NULL,
    state      text NOT NULL DEFAULT '',       -- '': named as a dependency only
    ord        bigint NOT NULL,                -- Pearce–Kelly's ord: dependencies first
    arrival    bigint,                         -- submit order
    deps       text[] NOT NULL DEFAULT '{}',   -- as submitted, duplicates dropped
    waiting    integer NOT NULL DEFAULT 0,     -- deps not SUCCEEDED
    attempts   integer NOT NULL DEFAULT 0,
    lease      bigint NOT NULL DEFAULT 0,      -- RUNNING: the current lease
    ready_seq  bigint,                         -- READY: place in line
    timer_at   bigint,                         -- RUNNING under a lease timeout: deadline; DELAYED: due
    timer_seq  bigint,                         -- ties of timer_at, in the order set
    reason     text NOT NULL DEFAULT '',       -- DEAD
    error      text NOT NULL DEFAULT '',       -- DEAD
    poisoned   boolean NOT NULL DEFAULT false,
    redrives   integer NOT NULL DEFAULT 0,
    root       text,                           -- BLOCKED: the dead task upstream
    blocks     integer NOT NULL DEFAULT 0,     -- DEAD: the BLOCKED tasks whose root it is
    entered    bigint NOT NULL DEFAULT 0,      -- DEAD or BLOCKED: when it entered the DLQ
    dlq_seq    bigint,                         -- DEAD or BLOCKED: place in the DLQ
    PRIMARY KEY (dag, name)
);

CREATE INDEX dagq_tasks_ready ON dagq_tasks (ready_seq) WHERE state = 'READY';
CREATE INDEX dagq_tasks_dag_ready ON dagq_tasks (dag, ready_seq) WHERE state = 'READY';
CREATE INDEX dagq_tasks_timers ON dagq_tasks (dag, timer_at, timer_seq) WHERE timer_at IS NOT NULL;
CREATE INDEX dagq_tasks_due ON dagq_tasks (timer_at) WHERE timer_at IS NOT NULL;
CREATE INDEX dagq_tasks_dlq ON dagq_tasks (dag, dlq_seq) WHERE dlq_seq IS NOT NULL;

-- dep's dependents, in their arrival order.
CREATE TABLE dagq_edges (
    dag     text NOT NULL,
    dep     text NOT NULL,
    task    text NOT NULL,
    arrival bigint NOT NULL,
    PRIMARY KEY (dag, dep, arrival)
);

-- Every lease that reached its deadline while current, refused with
-- ErrLeaseExpired for ever after.
CREATE TABLE dagq_expired (
    lease   bigint PRIMARY KEY,
    dag     text NOT NULL,
    task    text NOT NULL,
    attempt integer NOT NULL
);

CREATE SEQUENCE dagq_lease_ids;
-- One line for every order kept across rows: READY, timers, the DLQ.
CREATE SEQUENCE dagq_line;
