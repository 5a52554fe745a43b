CREATE TABLE "fiat_rates" (
	"mode" text NOT NULL,
	"currency" text NOT NULL,
	"rate" numeric(38, 18) NOT NULL,
	"source" text NOT NULL,
	"fetched_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "fiat_rates_mode_currency_pk" PRIMARY KEY("mode","currency")
);
--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "underpayment_tolerance_percent" numeric(7, 4) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "underpayment_tolerance_percent" numeric(7, 4) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "amount_shortfall" numeric(38, 18) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "price_currency" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "price_amount" numeric(38, 18);--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "rate" numeric(38, 18);--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "rate_source" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "rate_at" timestamp (3) with time zone;