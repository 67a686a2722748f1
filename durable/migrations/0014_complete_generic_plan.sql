-- dagq_complete_batch (0013) keeps one plan for each of its statements.
-- plpgsql plans a statement with its parameters' values for its first
-- five runs, then compares that with a generic plan; under the function's
-- own settings (no sequential or bitmap scans) the generic plan need never
-- look cheaper, and a small batch paid for planning again: on independent
-- tasks, fsync on, 4 workers burnt down 1,651-1,672 tasks/s where they had
-- 2,091-2,316 before 0013, and 1,933-2,055 with this. Every row the
-- function reads is found by its primary key or its ctid whatever the
-- parameters, so one generic plan is right for every call.
ALTER FUNCTION dagq_complete_batch(text, text[], bigint[], integer[], bigint)
    SET plan_cache_mode = force_generic_plan;
