ALTER TABLE "payment_links" ADD COLUMN "chain" text DEFAULT 'BSC' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_links" ADD COLUMN "token" text DEFAULT 'USDT' NOT NULL;