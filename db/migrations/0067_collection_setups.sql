CREATE TABLE "collection_setups" (
	"id" text PRIMARY KEY NOT NULL,
	"subscription_id" text NOT NULL,
	"chain_id" bigint NOT NULL,
	"payer" text NOT NULL,
	"collector_nonce" text NOT NULL,
	"authorize_signature" text NOT NULL,
	"status" text NOT NULL,
	"from_address" text NOT NULL,
	"nonce" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"raw_tx" text NOT NULL,
	"gas_used" bigint,
	"network_fee" numeric(38, 18),
	"last_error" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "collection_setups" ADD CONSTRAINT "collection_setups_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "collection_setups_consent_uq" ON "collection_setups" USING btree ("chain_id","payer","collector_nonce") WHERE status <> 'failed';--> statement-breakpoint
CREATE INDEX "collection_setups_subscription_idx" ON "collection_setups" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "collection_setups_signed_idx" ON "collection_setups" USING btree ("created_at") WHERE status = 'signed';