-- Idempotency keys (docs/api.md, "Idempotency-Key"): a write sent again
-- with the same key, by the same account, within 24 hours gets the first
-- answer and does nothing again. `status` is NULL while the first request
-- is still being answered.
CREATE TABLE idempotency_keys (
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    status INTEGER,
    content_type TEXT,
    body BLOB,
    created_ms INTEGER NOT NULL,
    PRIMARY KEY (user_id, key)
);
CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_ms);
