ALTER TABLE "plans" ADD COLUMN "price_currency" text;--> statement-breakpoint
ALTER TABLE "subscription_periods" ADD COLUMN "amount" numeric(38, 18);--> statement-breakpoint
ALTER TABLE "subscription_periods" ADD COLUMN "price_currency" text;--> statement-breakpoint
ALTER TABLE "subscription_periods" ADD COLUMN "rate" numeric(38, 18);--> statement-breakpoint
ALTER TABLE "subscription_periods" ADD COLUMN "rate_source" text;--> statement-breakpoint
ALTER TABLE "subscription_periods" ADD COLUMN "rate_at" timestamp (3) with time zone;