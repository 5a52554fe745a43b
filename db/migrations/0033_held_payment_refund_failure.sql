ALTER TABLE "mismatched_payments" ADD COLUMN "refund_failure_reason" text;--> statement-breakpoint
CREATE INDEX "deposit_address_pool_address_idx" ON "deposit_address_pool" USING btree ("address");--> statement-breakpoint
CREATE INDEX "mismatched_payments_withdrawal_idx" ON "mismatched_payments" USING btree ("withdrawal_id") WHERE "mismatched_payments"."withdrawal_id" is not null;--> statement-breakpoint
-- Backfill (hand-written): a held payment is refunded only once its withdrawal completed. Rows marked refunded
-- whose withdrawal is still on its way go back to refunding; those whose withdrawal failed go back to held, with the reason.
UPDATE "mismatched_payments" m SET "status" = 'refunding'
  FROM "withdrawals" w
 WHERE m."withdrawal_id" = w."id" AND m."status" = 'refunded' AND w."status" IN ('PENDING', 'PROCESSING');--> statement-breakpoint
UPDATE "mismatched_payments" m SET "status" = 'held', "refund_failure_reason" = coalesce(w."failure_reason", 'The withdrawal failed.')
  FROM "withdrawals" w
 WHERE m."withdrawal_id" = w."id" AND m."status" = 'refunded' AND w."status" = 'FAILED';
