CREATE TABLE "gas_spend" (
	"id" text PRIMARY KEY NOT NULL,
	"mode" text NOT NULL,
	"chain_id" integer NOT NULL,
	"kind" text NOT NULL,
	"reference_id" text NOT NULL,
	"tx_hash" text NOT NULL,
	"gas_used" numeric(78, 0) NOT NULL,
	"cost_wei" numeric(78, 0) NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "refund_network_fee_payer" text DEFAULT 'payer' NOT NULL;--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "held_fee" numeric(38, 18) DEFAULT '0' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "gas_spend_tx_uq" ON "gas_spend" USING btree ("chain_id","tx_hash");--> statement-breakpoint
CREATE INDEX "gas_spend_chain_created_idx" ON "gas_spend" USING btree ("chain_id","created_at");