-- Issue 43 §2: TRON's gas costs are recorded in sun (TRX's base unit, 6 decimals), as TRON sweeps always were.
-- TRON withdrawals wrote sun × 10^12 (an 18-decimal "wei" of TRX) until now: divided back exactly. Only rows that
-- are whole multiples of 10^12 are touched, so a row already in sun (no burn reaches 10^6 TRX) is never divided.
UPDATE "gas_spend" AS g SET "cost_wei" = g."cost_wei" / 1000000000000
  FROM "withdrawals" AS w
 WHERE g."kind" = 'withdrawal' AND g."reference_id" = w."id" AND w."chain" = 'TRON'
   AND g."cost_wei" > 0 AND mod(g."cost_wei", 1000000000000) = 0;
