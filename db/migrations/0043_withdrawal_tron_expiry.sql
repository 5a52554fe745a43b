ALTER TABLE "withdrawals" ADD COLUMN "tx_expiration" bigint;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "ref_block_number" bigint;