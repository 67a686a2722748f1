-- Where each DAG of a Sharded queue lives, recorded in the first database
-- (the directory) when the DAG is first opened: adding a database later
-- moves no DAG, since a recorded placement wins over the hash.
CREATE TABLE dagq_placement (
    dag   text PRIMARY KEY,
    shard integer NOT NULL
);
