CREATE TABLE "refund_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"mode" text NOT NULL,
	"invoice_id" text NOT NULL,
	"destination_address" text NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"withdrawal_id" text,
	"decline_reason" text,
	"pending_reason" text,
	"decided_by" text,
	"decided_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "auto_refund_overpayments" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_withdrawal_id_withdrawals_id_fk" FOREIGN KEY ("withdrawal_id") REFERENCES "public"."withdrawals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refund_requests_invoice_pending_uq" ON "refund_requests" USING btree ("invoice_id") WHERE "refund_requests"."status" = 'PENDING';--> statement-breakpoint
CREATE INDEX "refund_requests_invoice_idx" ON "refund_requests" USING btree ("invoice_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "refund_requests_tenant_created_idx" ON "refund_requests" USING btree ("tenant_id","mode","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "refund_requests_pending_idx" ON "refund_requests" USING btree ("created_at") WHERE "refund_requests"."status" = 'PENDING';