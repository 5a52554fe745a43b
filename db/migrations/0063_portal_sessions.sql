CREATE TABLE "portal_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"mode" text NOT NULL,
	"customer_email" text NOT NULL,
	"link_token_hash" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"redeemed_at" timestamp (3) with time zone,
	"session_secret_hash" text,
	"session_expires_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "portal_sessions" ADD CONSTRAINT "portal_sessions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "portal_sessions_link_token_uq" ON "portal_sessions" USING btree ("link_token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "portal_sessions_session_secret_uq" ON "portal_sessions" USING btree ("session_secret_hash");--> statement-breakpoint
CREATE INDEX "portal_sessions_tenant_created_idx" ON "portal_sessions" USING btree ("tenant_id","mode","created_at");