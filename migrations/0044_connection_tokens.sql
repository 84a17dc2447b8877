-- Token state of OAuth connections. The access token is kept (encrypted like the secrets) so that
-- every run and every replica reuses it until shortly before it expires instead of asking the
-- token endpoint per run; token_refreshed_at and token_error say when it was last renewed and why
-- that last failed. Connections whose credentials come from Nango keep no token here, only its
-- expiry and when it was last fetched.
ALTER TABLE connections
  ADD COLUMN access_token_ciphertext bytea,
  ADD COLUMN token_expires_at timestamptz,
  ADD COLUMN token_refreshed_at timestamptz,
  ADD COLUMN token_error text;
