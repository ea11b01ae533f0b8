-- People are named by what they choose to be called, not only by their sign-in address: a
-- display name per user (NULL for users from before, who are shown by their email), and the
-- name an audited actor had at the time, kept beside the email label as it was then.
ALTER TABLE users ADD COLUMN display_name TEXT;
ALTER TABLE audit_events ADD COLUMN actor_name TEXT;
