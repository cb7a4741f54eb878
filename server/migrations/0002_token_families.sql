-- A token family: the access and refresh tokens descended from one sign-in
-- (or one `perch-server token`). Revoking any member, or reusing a retired
-- refresh token, retires the whole family. Tokens from before families each
-- stand alone.
ALTER TABLE tokens ADD COLUMN family TEXT;
UPDATE tokens SET family = hash WHERE family IS NULL;
CREATE INDEX tokens_by_family ON tokens (family);
