CREATE TABLE "screening_decisions" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text,
	"mode" text,
	"subject" text NOT NULL,
	"family" text NOT NULL,
	"address" text NOT NULL,
	"list_version" text NOT NULL,
	"outcome" text NOT NULL,
	"path" text NOT NULL,
	"target_id" text,
	"actor_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "screening_decisions_created_idx" ON "screening_decisions" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "screening_decisions_target_idx" ON "screening_decisions" USING btree ("target_id");