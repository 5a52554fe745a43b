ALTER TABLE "invoices" DROP CONSTRAINT "invoices_chain_ck";--> statement-breakpoint
ALTER TABLE "mismatched_payments" DROP CONSTRAINT "mismatched_payments_chain_ck";--> statement-breakpoint
ALTER TABLE "withdrawals" DROP CONSTRAINT "withdrawals_chain_ck";--> statement-breakpoint
ALTER TABLE "payment_links" DROP CONSTRAINT "payment_links_chain_ck";--> statement-breakpoint
ALTER TABLE "solvency_lines" DROP CONSTRAINT "solvency_lines_chain_ck";--> statement-breakpoint
ALTER TABLE "payout_items" DROP CONSTRAINT "payout_items_chain_ck";--> statement-breakpoint
ALTER TABLE "plans" DROP CONSTRAINT "plans_chain_ck";--> statement-breakpoint
ALTER TABLE "subscriptions" DROP CONSTRAINT "subscriptions_chain_ck";--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_chain_ck" CHECK ("chain" in ('BSC', 'ETHEREUM', 'POLYGON', 'ARBITRUM', 'BASE', 'TRON', 'SOLANA'));--> statement-breakpoint
ALTER TABLE "mismatched_payments" ADD CONSTRAINT "mismatched_payments_chain_ck" CHECK ("chain" in ('BSC', 'ETHEREUM', 'POLYGON', 'ARBITRUM', 'BASE', 'TRON', 'SOLANA'));--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_chain_ck" CHECK ("chain" in ('BSC', 'ETHEREUM', 'POLYGON', 'ARBITRUM', 'BASE', 'TRON', 'SOLANA'));--> statement-breakpoint
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_chain_ck" CHECK ("chain" in ('BSC', 'ETHEREUM', 'POLYGON', 'ARBITRUM', 'BASE', 'TRON', 'SOLANA'));--> statement-breakpoint
ALTER TABLE "solvency_lines" ADD CONSTRAINT "solvency_lines_chain_ck" CHECK ("chain" in ('BSC', 'ETHEREUM', 'POLYGON', 'ARBITRUM', 'BASE', 'TRON', 'SOLANA'));--> statement-breakpoint
ALTER TABLE "payout_items" ADD CONSTRAINT "payout_items_chain_ck" CHECK ("chain" in ('BSC', 'ETHEREUM', 'POLYGON', 'ARBITRUM', 'BASE', 'TRON', 'SOLANA'));--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_chain_ck" CHECK ("chain" in ('BSC', 'ETHEREUM', 'POLYGON', 'ARBITRUM', 'BASE', 'TRON', 'SOLANA'));--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_chain_ck" CHECK ("chain" in ('BSC', 'ETHEREUM', 'POLYGON', 'ARBITRUM', 'BASE', 'TRON', 'SOLANA'));