-- Live event streams (domain/events/): a partner's or a tenant's stream resumes from a
-- Last-Event-ID by reading that scope's outbox events after a seq, a range of this index.
-- (013 dropped the partner index when nothing read events per partner.)
CREATE INDEX order_events_by_partner_seq ON order_events (partner_id, seq);
