-- Perch's storage. Times are Unix milliseconds (UTC). Counts are kept on the
-- rows they describe, updated in the same transaction as the change, and can
-- never go below zero.

CREATE TABLE users (
    id              INTEGER PRIMARY KEY,
    uuid            TEXT    NOT NULL UNIQUE,
    username        TEXT    NOT NULL UNIQUE COLLATE NOCASE,
    display_name    TEXT    NOT NULL,
    email           TEXT,
    email_verified  INTEGER NOT NULL DEFAULT 0,
    password_hash   TEXT,
    avatar          TEXT    NOT NULL DEFAULT '',
    bio             TEXT    NOT NULL DEFAULT '',
    badges          TEXT    NOT NULL DEFAULT '[]', -- JSON array of strings
    follower_count  INTEGER NOT NULL DEFAULT 0 CHECK (follower_count >= 0),
    following_count INTEGER NOT NULL DEFAULT 0 CHECK (following_count >= 0),
    joined_ms       INTEGER NOT NULL
);

CREATE TABLE applications (
    id       INTEGER PRIMARY KEY,
    uuid     TEXT NOT NULL UNIQUE,
    name     TEXT NOT NULL UNIQUE,
    website  TEXT
);

CREATE TABLE redirect_uris (
    application_id INTEGER NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
    uri            TEXT    NOT NULL,
    PRIMARY KEY (application_id, uri)
);

CREATE TABLE posts (
    id             INTEGER PRIMARY KEY,
    uuid           TEXT    NOT NULL UNIQUE,
    author_id      INTEGER NOT NULL REFERENCES users(id),
    -- The uuid, not a foreign key: a reply keeps it when its parent is deleted.
    parent_uuid    TEXT,
    application_id INTEGER REFERENCES applications(id),
    content        TEXT    NOT NULL,
    locked         INTEGER NOT NULL DEFAULT 0,
    reply_count    INTEGER NOT NULL DEFAULT 0 CHECK (reply_count >= 0),
    like_count     INTEGER NOT NULL DEFAULT 0 CHECK (like_count >= 0),
    created_ms     INTEGER NOT NULL
);
CREATE INDEX posts_by_author ON posts (author_id, created_ms DESC, id DESC);
CREATE INDEX posts_by_parent ON posts (parent_uuid, created_ms, id);

CREATE TABLE likes (
    user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    post_id    INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
    created_ms INTEGER NOT NULL,
    PRIMARY KEY (user_id, post_id)
);

CREATE TABLE follows (
    follower_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    followee_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_ms  INTEGER NOT NULL,
    seq         INTEGER NOT NULL, -- breaks ties between follows in the same millisecond
    PRIMARY KEY (follower_id, followee_id),
    CHECK (follower_id <> followee_id)
);
CREATE INDEX follows_by_followee ON follows (followee_id, created_ms DESC, seq DESC);
CREATE INDEX follows_by_follower ON follows (follower_id, created_ms DESC, seq DESC);

-- Access and refresh tokens, stored only as SHA-256 hashes.
CREATE TABLE tokens (
    hash           TEXT    PRIMARY KEY,
    kind           TEXT    NOT NULL CHECK (kind IN ('access', 'refresh')),
    user_id        INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    application_id INTEGER NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
    scopes         TEXT    NOT NULL, -- a,b,c
    expires_ms     INTEGER NOT NULL,
    retired        INTEGER NOT NULL DEFAULT 0
);

-- Authorization codes of the OAuth flow, also only as hashes.
CREATE TABLE auth_codes (
    hash           TEXT    PRIMARY KEY,
    user_id        INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    application_id INTEGER NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
    redirect_uri   TEXT    NOT NULL,
    scopes         TEXT    NOT NULL,
    code_challenge TEXT    NOT NULL,
    expires_ms     INTEGER NOT NULL,
    used           INTEGER NOT NULL DEFAULT 0
);
