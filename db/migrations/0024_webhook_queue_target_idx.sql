-- The claim walks the queue per (tenant, target): a skip scan over the pairs with queued rows, then the due rows
-- of each pair it may still send to, from the front of that pair's range. With (tenant_id, next_attempt_at) a
-- target at its limit was skipped by walking every one of its rows (260,000 filtered per claim with a backlog on
-- one endpoint: 137 ms, and delivery fell as the backlog grew). The tenant skip scan uses the same index.
CREATE INDEX "webhook_queue_tenant_target_due_idx" ON "webhook_queue" USING btree ("tenant_id", "target", "next_attempt_at");
--> statement-breakpoint
DROP INDEX "webhook_queue_tenant_due_idx";
