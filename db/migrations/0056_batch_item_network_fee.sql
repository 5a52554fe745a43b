ALTER TABLE "withdrawal_batches" ADD COLUMN "item_share" numeric(38, 18);--> statement-breakpoint
ALTER TABLE "withdrawal_batches" ADD COLUMN "pricing_note" text;--> statement-breakpoint
ALTER TABLE "payout_items" ADD COLUMN "network_fee" numeric(38, 18);