-- The fan-out deletes the events it took by id ('event_id = any(array(...))'). Without this index each
-- delete walked the whole active partition against the batch's 1,000 ids: 250-450 ms per batch of
-- 1,000 events with a 20,000-event backlog, most of the database's time per delivery (issue 20).
CREATE INDEX "event_outbox_event_idx" ON "event_outbox" USING btree ("event_id");
