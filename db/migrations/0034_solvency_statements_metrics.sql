CREATE TABLE "solvency_lines" (
	"run_id" text NOT NULL,
	"kind" text NOT NULL,
	"mode" text NOT NULL,
	"chain" text NOT NULL,
	"chain_id" integer NOT NULL,
	"asset" text NOT NULL,
	"status" text NOT NULL,
	"block_number" bigint,
	"held" numeric(38, 18),
	"owed" numeric(38, 18) NOT NULL,
	"difference" numeric(38, 18),
	"owed_parts" jsonb,
	"holdings" jsonb,
	"error" text,
	CONSTRAINT "solvency_lines_run_id_kind_mode_chain_asset_pk" PRIMARY KEY("run_id","kind","mode","chain","asset")
);
--> statement-breakpoint
CREATE TABLE "solvency_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"finished_at" timestamp (3) with time zone NOT NULL,
	"error" text,
	"unattributed" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operator_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"subject" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "console_alerts" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"data" jsonb NOT NULL,
	"opened_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "job_leases" ADD COLUMN "runs" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "job_leases" ADD COLUMN "failures" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "job_leases" ADD COLUMN "duration_ms_total" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "job_leases" ADD COLUMN "last_duration_ms" integer;--> statement-breakpoint
ALTER TABLE "solvency_lines" ADD CONSTRAINT "solvency_lines_run_id_solvency_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."solvency_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "solvency_lines_key_idx" ON "solvency_lines" USING btree ("kind","mode","chain","asset");--> statement-breakpoint
CREATE INDEX "solvency_runs_created_idx" ON "solvency_runs" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "operator_events_created_idx" ON "operator_events" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "console_alerts_open_uq" ON "console_alerts" USING btree ("kind","subject") WHERE "console_alerts"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "console_alerts_opened_idx" ON "console_alerts" USING btree ("opened_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "settlements_deferred_idx" ON "settlements" USING btree ("chain_id") WHERE "settlements"."sweep_deferred" and "settlements"."carried_by" is null;