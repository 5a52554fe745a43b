DROP INDEX "webhook_deliveries_due_idx";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP COLUMN "claimed_until";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP COLUMN "claim_token";