CREATE TABLE "refund_claims" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"mode" text NOT NULL,
	"invoice_id" text NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"token_hash" text NOT NULL,
	"status" text NOT NULL,
	"created_by" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"used_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refund_claims_tokenHash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "auto_refund_enabled_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "auto_refund_delay_seconds" integer DEFAULT 3600 NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "auto_refund_max_multiple" numeric(7, 4) DEFAULT '10' NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "auto_refund_max_amount" numeric(38, 18) DEFAULT '1000' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "claim_token_hash" text;--> statement-breakpoint
-- Proposals made before claim tokens knew only the invoice id: never automatic again.
ALTER TABLE "refund_requests" ADD COLUMN "source" text DEFAULT 'invoice_link' NOT NULL;--> statement-breakpoint
ALTER TABLE "refund_requests" ALTER COLUMN "source" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD COLUMN "claim_id" text;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD COLUMN "auto_refund_after" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "refund_claims" ADD CONSTRAINT "refund_claims_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_claims" ADD CONSTRAINT "refund_claims_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refund_claims_invoice_idx" ON "refund_claims" USING btree ("invoice_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "refund_claims_tenant_created_idx" ON "refund_claims" USING btree ("tenant_id","mode","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_claim_id_refund_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."refund_claims"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refund_requests_auto_due_idx" ON "refund_requests" USING btree ("tenant_id","mode","auto_refund_after") WHERE "refund_requests"."status" = 'PENDING' and "refund_requests"."auto_refund_after" is not null;--> statement-breakpoint
-- A policy already on counts as switched on now: payments seen before this migration are never auto-refunded.
UPDATE "tenants" SET "auto_refund_enabled_at" = now() WHERE "auto_refund_overpayments";
