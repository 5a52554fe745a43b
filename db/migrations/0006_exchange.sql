CREATE TABLE "exchange_orders" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"mode" text NOT NULL,
	"purpose" text NOT NULL,
	"state" text NOT NULL,
	"withdrawal_id" text,
	"invoice_id" text,
	"exchange_id" text,
	"token" text,
	"type" text NOT NULL,
	"from_ccy" text NOT NULL,
	"to_ccy" text NOT NULL,
	"direction" text NOT NULL,
	"requested_amount" numeric(38, 18) NOT NULL,
	"to_address" text NOT NULL,
	"from_amount" numeric(38, 18),
	"to_amount" numeric(38, 18),
	"deposit_address" text,
	"deposit_tag" text,
	"status" text,
	"last_order" jsonb,
	"error" text,
	"expires_at" timestamp (3) with time zone,
	"recorded_at" timestamp (3) with time zone,
	"priority" smallint DEFAULT 1 NOT NULL,
	"next_check_at" timestamp (3) with time zone,
	"checks" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exchange_rate_blocks" (
	"key_hash" text PRIMARY KEY NOT NULL,
	"blocked_until" timestamp (3) with time zone NOT NULL,
	"violations" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exchange_weight_spends" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"key_hash" text NOT NULL,
	"weight" integer NOT NULL,
	"spent_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "payin_currency" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "payin_amount" numeric(38, 18);--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "payin_address" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "payin_tag" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "payin_status" text;--> statement-breakpoint
CREATE UNIQUE INDEX "exchange_orders_exchange_id_uq" ON "exchange_orders" USING btree ("exchange_id") WHERE "exchange_orders"."exchange_id" is not null;--> statement-breakpoint
CREATE INDEX "exchange_orders_due_idx" ON "exchange_orders" USING btree ("priority","next_check_at") WHERE "exchange_orders"."state" = 'open';--> statement-breakpoint
CREATE INDEX "exchange_orders_invoice_idx" ON "exchange_orders" USING btree ("invoice_id") WHERE "exchange_orders"."invoice_id" is not null;--> statement-breakpoint
CREATE INDEX "exchange_orders_withdrawal_idx" ON "exchange_orders" USING btree ("withdrawal_id") WHERE "exchange_orders"."withdrawal_id" is not null;--> statement-breakpoint
CREATE INDEX "exchange_orders_tenant_status_idx" ON "exchange_orders" USING btree ("tenant_id","mode","status");--> statement-breakpoint
CREATE INDEX "exchange_weight_spends_key_time_idx" ON "exchange_weight_spends" USING btree ("key_hash","spent_at");