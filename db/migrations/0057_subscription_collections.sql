CREATE TABLE "collection_pulls" (
	"id" text PRIMARY KEY NOT NULL,
	"subscription_id" text NOT NULL,
	"period_start" timestamp (3) with time zone NOT NULL,
	"invoice_id" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"amount" numeric(38, 18) NOT NULL,
	"deposit_address" text NOT NULL,
	"chain_id" bigint NOT NULL,
	"from_address" text,
	"nonce" integer,
	"tx_hash" text,
	"raw_tx" text,
	"allow_from" text,
	"allow_nonce" integer,
	"allow_tx_hash" text,
	"allow_raw_tx" text,
	"gas_used" bigint,
	"last_error" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "subscription_collections" (
	"subscription_id" text PRIMARY KEY NOT NULL,
	"chain_id" bigint NOT NULL,
	"payer" text NOT NULL,
	"permission_id" text NOT NULL,
	"max_per_period" numeric(38, 18) NOT NULL,
	"period_seconds" integer NOT NULL,
	"starts_at" timestamp (3) with time zone NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"canceled_at" timestamp (3) with time zone,
	"cancel_reason" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "collection_pulls" ADD CONSTRAINT "collection_pulls_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_pulls" ADD CONSTRAINT "collection_pulls_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_collections" ADD CONSTRAINT "subscription_collections_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "collection_pulls_once_uq" ON "collection_pulls" USING btree ("subscription_id","period_start");--> statement-breakpoint
CREATE UNIQUE INDEX "collection_pulls_invoice_uq" ON "collection_pulls" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "collection_pulls_signed_idx" ON "collection_pulls" USING btree ("created_at") WHERE status = 'signed';