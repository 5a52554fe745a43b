CREATE SEQUENCE "public"."deposit_address_index_seq" INCREMENT BY 1 MINVALUE 0 MAXVALUE 9223372036854775807 START WITH 0 CACHE 1;--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"mode" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"chain" text DEFAULT 'BSC' NOT NULL,
	"token" text DEFAULT 'USDT' NOT NULL,
	"chain_id" integer NOT NULL,
	"deposit_address" text NOT NULL,
	"address_index" bigint NOT NULL,
	"amount_expected" numeric(38, 18) NOT NULL,
	"amount_received" numeric(38, 18) DEFAULT '0' NOT NULL,
	"amount_credited" numeric(38, 18) DEFAULT '0' NOT NULL,
	"fee_amount" numeric(38, 18) DEFAULT '0' NOT NULL,
	"confirmations_required" integer NOT NULL,
	"external_id" text,
	"description" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_blocks" (
	"mode" text NOT NULL,
	"chain_id" integer NOT NULL,
	"number" bigint NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "chain_blocks_mode_chain_id_number_pk" PRIMARY KEY("mode","chain_id","number")
);
--> statement-breakpoint
CREATE TABLE "chain_cursors" (
	"mode" text NOT NULL,
	"chain_id" integer NOT NULL,
	"last_block" bigint NOT NULL,
	"last_block_hash" text NOT NULL,
	"last_block_time" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_cursors_mode_chain_id_pk" PRIMARY KEY("mode","chain_id")
);
--> statement-breakpoint
CREATE TABLE "chain_transfers" (
	"id" text PRIMARY KEY NOT NULL,
	"mode" text NOT NULL,
	"chain_id" integer NOT NULL,
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
	"late" boolean DEFAULT false NOT NULL,
	"settlement_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet_nonces" (
	"chain_id" integer NOT NULL,
	"address" text NOT NULL,
	"next_nonce" integer NOT NULL,
	CONSTRAINT "wallet_nonces_chain_id_address_pk" PRIMARY KEY("chain_id","address")
);
--> statement-breakpoint
CREATE TABLE "settlement_txs" (
	"id" text PRIMARY KEY NOT NULL,
	"settlement_id" text NOT NULL,
	"step" text NOT NULL,
	"chain_id" integer NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"nonce" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"raw_tx" text NOT NULL,
	"value" text NOT NULL,
	"status" text DEFAULT 'signed' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "settlements" (
	"id" text PRIMARY KEY NOT NULL,
	"invoice_id" text NOT NULL,
	"tenant_id" text NOT NULL,
	"mode" text NOT NULL,
	"chain_id" integer NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"fee_amount" numeric(38, 18) NOT NULL,
	"net_amount" numeric(38, 18) NOT NULL,
	"gas_plan" jsonb,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp (3) with time zone,
	"last_error" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_chain_deposit_address_uq" ON "invoices" USING btree ("chain_id","deposit_address");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_address_index_uq" ON "invoices" USING btree ("address_index");--> statement-breakpoint
CREATE INDEX "invoices_tenant_mode_created_idx" ON "invoices" USING btree ("tenant_id","mode","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "invoices_tenant_mode_external_idx" ON "invoices" USING btree ("tenant_id","mode","external_id");--> statement-breakpoint
CREATE INDEX "invoices_open_expiry_idx" ON "invoices" USING btree ("chain_id","expires_at") WHERE "invoices"."status" in ('PENDING', 'PARTIALLY_PAID');--> statement-breakpoint
CREATE INDEX "invoices_awaiting_idx" ON "invoices" USING btree ("chain_id","status") WHERE "invoices"."status" in ('DETECTED', 'OVERPAID', 'CONFIRMED');--> statement-breakpoint
CREATE UNIQUE INDEX "chain_transfers_log_uq" ON "chain_transfers" USING btree ("chain_id","tx_hash","log_index");--> statement-breakpoint
CREATE INDEX "chain_transfers_invoice_idx" ON "chain_transfers" USING btree ("invoice_id","block_number","log_index");--> statement-breakpoint
CREATE INDEX "chain_transfers_unsettled_idx" ON "chain_transfers" USING btree ("chain_id","block_number") WHERE "chain_transfers"."settlement_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_txs_step_uq" ON "settlement_txs" USING btree ("settlement_id","step");--> statement-breakpoint
CREATE INDEX "settlements_due_idx" ON "settlements" USING btree ("chain_id","next_attempt_at") WHERE "settlements"."status" in ('pending', 'processing');--> statement-breakpoint
CREATE UNIQUE INDEX "settlements_active_invoice_uq" ON "settlements" USING btree ("invoice_id") WHERE "settlements"."status" in ('pending', 'processing');--> statement-breakpoint
CREATE INDEX "settlements_invoice_idx" ON "settlements" USING btree ("invoice_id");