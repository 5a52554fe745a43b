CREATE TABLE "store_order_windows" (
	"bucket" text NOT NULL,
	"window_start" timestamp (3) with time zone NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "store_order_windows_bucket_window_start_pk" PRIMARY KEY("bucket","window_start")
);
--> statement-breakpoint
CREATE TABLE "withdrawal_allowlist" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"mode" text NOT NULL,
	"address" text NOT NULL,
	"label" text,
	"active_at" timestamp (3) with time zone NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "withdrawal_controls" (
	"tenant_id" text NOT NULL,
	"mode" text NOT NULL,
	"allowlist_enabled" boolean DEFAULT false NOT NULL,
	"cooling_off_hours" integer DEFAULT 24 NOT NULL,
	"daily_limit" numeric(38, 18),
	"approval_threshold" numeric(38, 18),
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "withdrawal_controls_tenant_id_mode_pk" PRIMARY KEY("tenant_id","mode")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_last_step" integer;--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "sweep_deferred" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "carried_by" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "nonce_used_at_block" bigint;--> statement-breakpoint
ALTER TABLE "login_throttles" ADD COLUMN "succeeded_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "exchange_weight_spends" ADD COLUMN "tenant_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawal_allowlist_address_idx" ON "withdrawal_allowlist" USING btree ("tenant_id","mode","address");--> statement-breakpoint
CREATE INDEX "withdrawal_allowlist_tenant_idx" ON "withdrawal_allowlist" USING btree ("tenant_id","mode","created_at");