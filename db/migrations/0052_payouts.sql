CREATE TABLE "payout_items" (
	"id" text PRIMARY KEY NOT NULL,
	"payout_id" text NOT NULL,
	"tenant_id" text NOT NULL,
	"mode" text NOT NULL,
	"position" integer NOT NULL,
	"reference" text NOT NULL,
	"withdrawal_id" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"chain" text NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_items_chain_ck" CHECK ("chain" in ('BSC', 'ETHEREUM', 'POLYGON', 'ARBITRUM', 'BASE', 'TRON')),
	CONSTRAINT "payout_items_token_ck" CHECK ("token" in ('USDT', 'USDC'))
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"mode" text NOT NULL,
	"status" text DEFAULT 'PROCESSING' NOT NULL,
	"item_count" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "payout_items" ADD CONSTRAINT "payout_items_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_items" ADD CONSTRAINT "payout_items_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_items" ADD CONSTRAINT "payout_items_withdrawal_id_withdrawals_id_fk" FOREIGN KEY ("withdrawal_id") REFERENCES "public"."withdrawals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payout_items_reference_uq" ON "payout_items" USING btree ("tenant_id","mode","reference");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_items_withdrawal_uq" ON "payout_items" USING btree ("withdrawal_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_items_position_uq" ON "payout_items" USING btree ("payout_id","position");--> statement-breakpoint
CREATE INDEX "payout_items_open_idx" ON "payout_items" USING btree ("payout_id") WHERE "payout_items"."status" = 'PENDING';--> statement-breakpoint
CREATE INDEX "payouts_tenant_created_idx" ON "payouts" USING btree ("tenant_id","mode","created_at" DESC NULLS LAST);