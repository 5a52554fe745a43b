CREATE TABLE "plans" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"mode" text NOT NULL,
	"name" text NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"chain" text NOT NULL,
	"token" text NOT NULL,
	"interval" text NOT NULL,
	"interval_count" integer DEFAULT 1 NOT NULL,
	"trial_days" integer DEFAULT 0 NOT NULL,
	"grace_days" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plans_amount_positive_ck" CHECK ("plans"."amount" > 0),
	CONSTRAINT "plans_counts_ck" CHECK ("plans"."interval_count" >= 1 and "plans"."trial_days" >= 0 and "plans"."grace_days" >= 0),
	CONSTRAINT "plans_chain_ck" CHECK ("chain" in ('BSC', 'ETHEREUM', 'POLYGON', 'ARBITRUM', 'BASE', 'TRON')),
	CONSTRAINT "plans_token_ck" CHECK ("token" in ('USDT', 'USDC'))
);
--> statement-breakpoint
CREATE TABLE "subscription_periods" (
	"subscription_id" text NOT NULL,
	"period_number" integer NOT NULL,
	"period_start" timestamp (3) with time zone NOT NULL,
	"period_end" timestamp (3) with time zone NOT NULL,
	"invoice_id" text NOT NULL,
	"due_at" timestamp (3) with time zone NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"mode" text NOT NULL,
	"plan_id" text NOT NULL,
	"customer_email" text NOT NULL,
	"chain" text NOT NULL,
	"token" text NOT NULL,
	"status" text NOT NULL,
	"billing_anchor" timestamp (3) with time zone NOT NULL,
	"period_number" integer NOT NULL,
	"current_period_start" timestamp (3) with time zone NOT NULL,
	"current_period_end" timestamp (3) with time zone NOT NULL,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"canceled_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_chain_ck" CHECK ("chain" in ('BSC', 'ETHEREUM', 'POLYGON', 'ARBITRUM', 'BASE', 'TRON')),
	CONSTRAINT "subscriptions_token_ck" CHECK ("token" in ('USDT', 'USDC'))
);
--> statement-breakpoint
CREATE TABLE "emails" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"mode" text NOT NULL,
	"kind" text NOT NULL,
	"subject_id" text NOT NULL,
	"to" text NOT NULL,
	"data" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"sent_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_periods" ADD CONSTRAINT "subscription_periods_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_periods" ADD CONSTRAINT "subscription_periods_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plans_tenant_mode_created_idx" ON "plans" USING btree ("tenant_id","mode","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_periods_once_uq" ON "subscription_periods" USING btree ("subscription_id","period_start");--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_periods_invoice_uq" ON "subscription_periods" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "subscriptions_tenant_mode_created_idx" ON "subscriptions" USING btree ("tenant_id","mode","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "subscriptions_due_idx" ON "subscriptions" USING btree ("current_period_end") WHERE status <> 'canceled';--> statement-breakpoint
CREATE UNIQUE INDEX "emails_once_uq" ON "emails" USING btree ("kind","subject_id");--> statement-breakpoint
CREATE INDEX "emails_due_idx" ON "emails" USING btree ("next_attempt_at") WHERE status = 'pending';