ALTER TABLE "balances" ALTER COLUMN "currency" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "ledger_entries" ALTER COLUMN "currency" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "chain" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "token" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "chain_transfers" ALTER COLUMN "token" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "settlements" ALTER COLUMN "token" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "withdrawals" ALTER COLUMN "chain" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "withdrawals" ALTER COLUMN "token" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "payment_links" ALTER COLUMN "chain" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "payment_links" ALTER COLUMN "token" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "balances" ADD CONSTRAINT "balances_currency_ck" CHECK ("currency" in ('USDT', 'USDC'));--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_currency_ck" CHECK ("currency" in ('USDT', 'USDC'));--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_chain_ck" CHECK ("chain" in ('BSC', 'ETHEREUM', 'POLYGON', 'ARBITRUM', 'BASE'));--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_token_ck" CHECK ("token" in ('USDT', 'USDC'));--> statement-breakpoint
ALTER TABLE "chain_transfers" ADD CONSTRAINT "chain_transfers_token_ck" CHECK ("token" in ('USDT', 'USDC'));--> statement-breakpoint
ALTER TABLE "mismatched_payments" ADD CONSTRAINT "mismatched_payments_chain_ck" CHECK ("chain" in ('BSC', 'ETHEREUM', 'POLYGON', 'ARBITRUM', 'BASE'));--> statement-breakpoint
ALTER TABLE "mismatched_payments" ADD CONSTRAINT "mismatched_payments_token_ck" CHECK ("token" in ('USDT', 'USDC'));--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_token_ck" CHECK ("token" in ('USDT', 'USDC'));--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_chain_ck" CHECK ("chain" in ('BSC', 'ETHEREUM', 'POLYGON', 'ARBITRUM', 'BASE'));--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_token_ck" CHECK ("token" in ('USDT', 'USDC'));--> statement-breakpoint
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_chain_ck" CHECK ("chain" in ('BSC', 'ETHEREUM', 'POLYGON', 'ARBITRUM', 'BASE'));--> statement-breakpoint
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_token_ck" CHECK ("token" in ('USDT', 'USDC'));--> statement-breakpoint
ALTER TABLE "solvency_lines" ADD CONSTRAINT "solvency_lines_chain_ck" CHECK ("chain" in ('BSC', 'ETHEREUM', 'POLYGON', 'ARBITRUM', 'BASE'));