-- Custom SQL migration file, put your code below! --
-- Held payments have one name (issue 31): a held payment swept to be credited to its token's balance is a
-- `held_credit` settlement, no longer `mismatched`. Only the kind's word changes; amounts and links stay.
UPDATE "settlements" SET "kind" = 'held_credit' WHERE "kind" = 'mismatched';
