ALTER TABLE "invoices" ADD COLUMN "amount_uncollected" numeric(38, 18) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "sweep_fee" numeric(38, 18) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "uncollected" boolean DEFAULT false NOT NULL;