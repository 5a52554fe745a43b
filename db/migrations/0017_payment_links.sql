CREATE TABLE "payment_links" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"mode" text NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"amount" numeric(38, 18),
	"min_amount" numeric(38, 18),
	"max_amount" numeric(38, 18),
	"currency" text DEFAULT 'USDT' NOT NULL,
	"max_payments" integer,
	"invoice_expires_in_minutes" integer DEFAULT 30 NOT NULL,
	"expires_at" timestamp (3) with time zone,
	"disabled_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "payment_link_id" text;--> statement-breakpoint
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_links_slug_uq" ON "payment_links" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "payment_links_tenant_mode_created_idx" ON "payment_links" USING btree ("tenant_id","mode","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_payment_link_id_payment_links_id_fk" FOREIGN KEY ("payment_link_id") REFERENCES "public"."payment_links"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoices_payment_link_idx" ON "invoices" USING btree ("payment_link_id","status") WHERE "invoices"."payment_link_id" is not null;