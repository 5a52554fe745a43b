ALTER TABLE "collection_pulls" ADD COLUMN "expires_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "collection_pulls" ADD COLUMN "ref_block_number" bigint;--> statement-breakpoint
ALTER TABLE "collection_pulls" ADD COLUMN "replaced_tx_hashes" text[];