-- The PostgreSQL event store of one service, in the service's schema (the runner sets search_path;
-- the functions keep it: SET search_path FROM CURRENT). Order, horizon and locks: decision 001.
-- The advisory-lock classes are PostgresEventStore's APPEND_LOCK_CLASS (0x53484c47 'SHLG') and
-- NOTIFY_LOCK_CLASS (0x53484c4e 'SHLN'); the second key, p_lock_key, is the store's hash of its schema.
-- Tables: IF NOT EXISTS, for databases made before this migration (their stores made them at start).
CREATE TABLE IF NOT EXISTS events (
  global_position bigserial PRIMARY KEY,
  transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  event_id uuid NOT NULL UNIQUE,
  stream_id text NOT NULL,
  stream_revision bigint NOT NULL,
  type text NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL,
  occurred_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (stream_id, stream_revision)
);
CREATE INDEX IF NOT EXISTS events_global_order ON events (transaction_id, global_position);
CREATE TABLE IF NOT EXISTS streams (
  stream_id text PRIMARY KEY,
  revision bigint NOT NULL
);
-- One round trip per append: idempotency check, revision check under a row lock, insert, and
-- the subscribers' wake-up when no other appender is sending one (see #notify); notified
-- tells the caller whether it must still send it.
-- Conflicts raise SQLSTATE P0409 with the stream's current revision in DETAIL.
CREATE OR REPLACE FUNCTION append_events(
  p_lock_key int, p_stream_id text, p_mode text, p_expected bigint,
  p_ids uuid[], p_types text[], p_data jsonb[], p_metadata jsonb[]
) RETURNS TABLE (next_revision bigint, commit_position xid8, prepare_position bigint, notified boolean)
LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
DECLARE
  v_current bigint;
  v_count int := cardinality(p_ids);
  v_existing int;
  v_notified boolean := false;
BEGIN
  -- Readers' horizon is the oldest transaction holding this lock (see readAll), so an appender
  -- must hold it before it gets a transaction id.
  IF pg_current_xact_id_if_assigned() IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM pg_locks WHERE pid = pg_backend_pid() AND locktype = 'advisory' AND granted
      AND classid = 1397247047 AND objid = p_lock_key AND objsubid = 2
  ) THEN
    RAISE EXCEPTION USING ERRCODE = 'P0410',
      MESSAGE = 'this transaction wrote before taking the append lock: call lockForAppend first';
  END IF;
  PERFORM pg_advisory_xact_lock_shared(1397247047, p_lock_key);
  SELECT count(*) INTO v_existing FROM events WHERE event_id = ANY(p_ids);
  IF v_existing > 0 THEN
    IF v_existing = v_count AND NOT EXISTS (
      SELECT 1 FROM unnest(p_ids) WITH ORDINALITY AS i(id, n)
      LEFT JOIN events e ON e.event_id = i.id
      WHERE e.stream_id IS DISTINCT FROM p_stream_id
         OR e.stream_revision <> (SELECT stream_revision FROM events WHERE event_id = p_ids[1]) + i.n - 1
    ) THEN
      RETURN QUERY SELECT e.stream_revision, e.transaction_id, e.global_position, true
        FROM events e WHERE e.event_id = p_ids[v_count];
      RETURN;
    END IF;
    SELECT revision INTO v_current FROM streams WHERE stream_id = p_stream_id;
    RAISE EXCEPTION USING ERRCODE = 'P0409', MESSAGE = 'event ids already stored', DETAIL = coalesce(v_current, -1)::text;
  END IF;

  SELECT revision INTO v_current FROM streams WHERE stream_id = p_stream_id FOR UPDATE;
  IF NOT FOUND THEN v_current := -1; END IF;
  IF (p_mode = 'exact' AND v_current <> p_expected)
     OR (p_mode = 'no_stream' AND v_current <> -1)
     OR (p_mode = 'stream_exists' AND v_current = -1) THEN
    RAISE EXCEPTION USING ERRCODE = 'P0409', MESSAGE = 'wrong expected revision', DETAIL = v_current::text;
  END IF;

  IF v_current = -1 THEN
    -- A concurrent first append to the same stream fails here with a unique violation.
    INSERT INTO streams (stream_id, revision) VALUES (p_stream_id, v_count - 1);
  ELSE
    UPDATE streams SET revision = v_current + v_count WHERE stream_id = p_stream_id;
  END IF;

  INSERT INTO events (event_id, stream_id, stream_revision, type, data, metadata)
    SELECT i.id, p_stream_id, v_current + i.n, i.t, i.d, i.m
    FROM unnest(p_ids, p_types, p_data, p_metadata) WITH ORDINALITY AS i(id, t, d, m, n);

  -- PostgreSQL holds its notify lock through a notifying transaction's commit: if every appender
  -- notified, their commits would run one at a time. So only one appender at a time notifies in
  -- its transaction; the others' callers notify after their commit.
  IF pg_try_advisory_xact_lock(1397247054, p_lock_key) THEN
    PERFORM pg_notify(current_schema() || '_events', '');
    v_notified := true;
  END IF;
  RETURN QUERY SELECT v_current + v_count, pg_current_xact_id(),
    currval(pg_get_serial_sequence('events', 'global_position')), v_notified;
END
$fn$;

-- Reads in global order up to the horizon: the oldest running transaction that holds the append
-- lock (transactions that only write read models do not count), or with none, the end of the
-- snapshot. VOLATILE under READ COMMITTED: the second statement takes a later snapshot than the
-- first, in which every appender older than the horizon has finished. One round trip.
CREATE OR REPLACE FUNCTION read_events(p_lock_key int, p_commit xid8, p_prepare bigint, p_limit int)
RETURNS SETOF events
LANGUAGE plpgsql VOLATILE SET search_path FROM CURRENT AS $fn$
DECLARE
  v_horizon xid8;
BEGIN
  SELECT coalesce(
    (SELECT min(x) FROM pg_snapshot_xip(pg_current_snapshot()) AS x
     WHERE (x::text::numeric % 4294967296)::text IN (
       SELECT a.backend_xid::text FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE l.locktype = 'advisory' AND l.classid = 1397247047 AND l.objid = p_lock_key
         AND l.objsubid = 2 AND a.backend_xid IS NOT NULL)),
    pg_snapshot_xmax(pg_current_snapshot()))
  INTO v_horizon;
  RETURN QUERY SELECT * FROM events e
    WHERE (e.transaction_id, e.global_position) > (p_commit, p_prepare) AND e.transaction_id < v_horizon
    ORDER BY e.transaction_id, e.global_position
    LIMIT p_limit;
END
$fn$;

-- The functions before versioned migrations: their constants were written in per schema.
DROP FUNCTION IF EXISTS append_events_v2(text, text, bigint, uuid[], text[], jsonb[], jsonb[]);
DROP FUNCTION IF EXISTS read_events(xid8, bigint, int);
