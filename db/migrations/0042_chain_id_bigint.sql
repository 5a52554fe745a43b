ALTER TABLE "invoices" DROP CONSTRAINT "invoices_chain_ck";--> statement-breakpoint
ALTER TABLE "mismatched_payments" DROP CONSTRAINT "mismatched_payments_chain_ck";--> statement-breakpoint
ALTER TABLE "withdrawals" DROP CONSTRAINT "withdrawals_chain_ck";--> statement-breakpoint
ALTER TABLE "payment_links" DROP CONSTRAINT "payment_links_chain_ck";--> statement-breakpoint
ALTER TABLE "solvency_lines" DROP CONSTRAINT "solvency_lines_chain_ck";--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "chain_id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "chain_blocks" ALTER COLUMN "chain_id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "chain_cursors" ALTER COLUMN "chain_id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "chain_transfers" ALTER COLUMN "chain_id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "mismatched_payments" ALTER COLUMN "chain_id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "wallet_nonces" ALTER COLUMN "chain_id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "settlement_txs" ALTER COLUMN "chain_id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "settlements" ALTER COLUMN "chain_id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "withdrawals" ALTER COLUMN "chain_id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "gas_spend" ALTER COLUMN "chain_id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "solvency_lines" ALTER COLUMN "chain_id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_chain_ck" CHECK ("chain" in ('BSC', 'ETHEREUM', 'POLYGON', 'ARBITRUM', 'BASE', 'TRON'));--> statement-breakpoint
ALTER TABLE "mismatched_payments" ADD CONSTRAINT "mismatched_payments_chain_ck" CHECK ("chain" in ('BSC', 'ETHEREUM', 'POLYGON', 'ARBITRUM', 'BASE', 'TRON'));--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_chain_ck" CHECK ("chain" in ('BSC', 'ETHEREUM', 'POLYGON', 'ARBITRUM', 'BASE', 'TRON'));--> statement-breakpoint
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_chain_ck" CHECK ("chain" in ('BSC', 'ETHEREUM', 'POLYGON', 'ARBITRUM', 'BASE', 'TRON'));--> statement-breakpoint
ALTER TABLE "solvency_lines" ADD CONSTRAINT "solvency_lines_chain_ck" CHECK ("chain" in ('BSC', 'ETHEREUM', 'POLYGON', 'ARBITRUM', 'BASE', 'TRON'));