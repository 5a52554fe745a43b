CREATE TABLE "withdrawal_batches" (
	"id" text PRIMARY KEY NOT NULL,
	"mode" text NOT NULL,
	"chain_id" bigint NOT NULL,
	"token" text NOT NULL,
	"nonce" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"item_count" integer NOT NULL,
	"gas_limit" bigint NOT NULL,
	"gas_price" bigint NOT NULL,
	"gas_used" numeric(78, 0),
	"cost_wei" numeric(78, 0),
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"mined_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "batchable" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "batch_id" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_batch_id_withdrawal_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."withdrawal_batches"("id") ON DELETE no action ON UPDATE no action;