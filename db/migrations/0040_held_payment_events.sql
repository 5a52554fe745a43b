-- Held payments have one name (issue 31): the mismatched_payment.* events are held_payment.* from now on.
-- Endpoints subscribed to the old names keep receiving them under the new ones. Past events keep the name
-- they were sent with (events is history, never updated). The table keeps its name mismatched_payments
-- (db/schema/chain.ts).
UPDATE "webhook_endpoints"
   SET "events_subscribed" = ARRAY(
         SELECT CASE WHEN e LIKE 'mismatched_payment.%' THEN 'held_payment.' || substr(e, length('mismatched_payment.') + 1) ELSE e END
           FROM unnest("events_subscribed") WITH ORDINALITY AS t(e, i)
          ORDER BY i)
 WHERE EXISTS (SELECT 1 FROM unnest("events_subscribed") AS e WHERE e LIKE 'mismatched_payment.%');
