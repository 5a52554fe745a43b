ALTER TABLE "settlement_txs" ALTER COLUMN "nonce" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "settlement_txs" ADD COLUMN "expires_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "settlement_txs" ADD COLUMN "ref_block_number" bigint;--> statement-breakpoint
ALTER TABLE "settlement_txs" ADD COLUMN "replaced_tx_hashes" text[];