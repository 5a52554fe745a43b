CREATE TABLE "mismatched_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"mode" text NOT NULL,
	"chain_id" integer NOT NULL,
	"chain" text NOT NULL,
	"token" text NOT NULL,
	"token_address" text NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"block_time" timestamp (3) with time zone NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"invoice_id" text NOT NULL,
	"tenant_id" text NOT NULL,
	"mismatch" text NOT NULL,
	"status" text DEFAULT 'held' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chain_transfers" ADD COLUMN "token" text DEFAULT 'USDT' NOT NULL;--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "token" text DEFAULT 'USDT' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "mismatched_payments_log_uq" ON "mismatched_payments" USING btree ("chain_id","tx_hash","log_index");--> statement-breakpoint
CREATE INDEX "mismatched_payments_invoice_idx" ON "mismatched_payments" USING btree ("invoice_id","block_number");--> statement-breakpoint
CREATE INDEX "mismatched_payments_chain_idx" ON "mismatched_payments" USING btree ("mode","chain_id","block_number");--> statement-breakpoint
CREATE INDEX "invoices_deposit_address_idx" ON "invoices" USING btree ("deposit_address");