-- A task's arguments, given when it is submitted, and the result of its
-- last successful attempt, which the handlers of the tasks that wait on it
-- read by its name. Both are bytes (JSON by convention), bounded in size
-- by the package (MaxArgs, MaxResult); NULL when there are none.
ALTER TABLE dagq_tasks ADD COLUMN args bytea, ADD COLUMN result bytea;
