-- The periodic purge (store/purge.ts) deletes bookkeeping rows past their retention, oldest
-- first, in bounded batches; these indexes let it find them without scanning the tables.

CREATE INDEX token_refreshes_by_time ON token_refreshes (refreshed_at);

CREATE INDEX user_token_refreshes_by_time ON user_token_refreshes (refreshed_at);

CREATE INDEX idempotency_keys_by_time ON idempotency_keys (created_at);

CREATE INDEX login_failures_by_time ON login_failures (last_failed_at);
