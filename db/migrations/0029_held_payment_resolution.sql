ALTER TABLE "mismatched_payments" ADD COLUMN "sweep" text;--> statement-breakpoint
ALTER TABLE "mismatched_payments" ADD COLUMN "settlement_id" text;--> statement-breakpoint
ALTER TABLE "mismatched_payments" ADD COLUMN "refund_address" text;--> statement-breakpoint
ALTER TABLE "mismatched_payments" ADD COLUMN "withdrawal_id" text;--> statement-breakpoint
CREATE INDEX "mismatched_payments_held_idx" ON "mismatched_payments" USING btree ("created_at") WHERE "mismatched_payments"."status" = 'held';--> statement-breakpoint
CREATE INDEX "mismatched_payments_sweep_idx" ON "mismatched_payments" USING btree ("mode","chain_id","block_number") WHERE "mismatched_payments"."sweep" is not null and "mismatched_payments"."settlement_id" is null;