-- Idempotency records written before secret-issuing responses were stored without their secret (issue 14):
-- drop the secret fields (`key` of a created API key, `secret` of a webhook or postback secret), so no API key
-- or signing secret stays in clear. Replays of these requests answer 409 secret_not_replayable, like new ones.
UPDATE "idempotency_requests"
   SET "response_body" = ("response_body"::jsonb - 'key' - 'secret')::text
 WHERE "state" = 'done'
   AND "response_status" < 400
   AND "response_body" ~ '"(key|secret)":"(gw_(live|test)_|whsec_)';
