CREATE TABLE "withdrawals" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"mode" text NOT NULL,
	"kind" text DEFAULT 'internal' NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"fee_amount" numeric(38, 18) NOT NULL,
	"net_amount" numeric(38, 18) NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"destination_address" text NOT NULL,
	"chain_id" integer NOT NULL,
	"post_back_url" text,
	"metadata" jsonb,
	"pending_reason" text,
	"failure_reason" text,
	"nonce" integer,
	"signed_tx" text,
	"tx_hash" text,
	"gas_price" bigint,
	"broadcast_at" timestamp (3) with time zone,
	"confirmed_at" timestamp (3) with time zone,
	"send_attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "withdrawals_tenant_created_idx" ON "withdrawals" USING btree ("tenant_id","mode","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "withdrawals_open_idx" ON "withdrawals" USING btree ("chain_id","next_attempt_at") WHERE "withdrawals"."status" in ('PENDING', 'PROCESSING');--> statement-breakpoint
CREATE INDEX "withdrawals_tenant_open_idx" ON "withdrawals" USING btree ("tenant_id","mode") WHERE "withdrawals"."status" in ('PENDING', 'PROCESSING');