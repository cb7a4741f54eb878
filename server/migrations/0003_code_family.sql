-- The token family an authorization code's first use issued: a code used
-- again revokes it (RFC 6749 §4.1.2, the contract's "Decided later").
ALTER TABLE auth_codes ADD COLUMN family TEXT;
