CREATE TABLE "orders" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"mode" text NOT NULL,
	"status" text DEFAULT 'PENDING_PAYMENT' NOT NULL,
	"items" jsonb NOT NULL,
	"total" numeric(38, 18) NOT NULL,
	"customer_email" text NOT NULL,
	"invoice_id" text NOT NULL,
	"cancel_reason" text,
	"paid_at" timestamp (3) with time zone,
	"fulfilled_at" timestamp (3) with time zone,
	"cancelled_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"mode" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"price" numeric(38, 18) NOT NULL,
	"image_url" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "orders_tenant_idx" ON "orders" USING btree ("tenant_id","mode","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "orders_invoice_uq" ON "orders" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "orders_open_idx" ON "orders" USING btree ("tenant_id","mode") WHERE "orders"."status" in ('PENDING_PAYMENT', 'PAID');--> statement-breakpoint
CREATE INDEX "products_tenant_idx" ON "products" USING btree ("tenant_id","mode","created_at" DESC NULLS LAST);