ALTER TABLE "withdrawals" ADD COLUMN "chain" text DEFAULT 'BSC' NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "token" text DEFAULT 'USDT' NOT NULL;