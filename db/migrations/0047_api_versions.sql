ALTER TABLE "tenants" ADD COLUMN "api_version" text DEFAULT '2026-11-01' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "api_version" text;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD COLUMN "api_version" text;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "api_version" text;