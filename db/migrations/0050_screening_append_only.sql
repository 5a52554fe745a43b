-- Screening decisions are append-only for every database user, the application included (as audit_log is).
CREATE OR REPLACE FUNCTION screening_decisions_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'screening_decisions is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER screening_decisions_no_update_delete BEFORE UPDATE OR DELETE ON "screening_decisions" FOR EACH ROW EXECUTE FUNCTION screening_decisions_refuse_change();
--> statement-breakpoint
CREATE TRIGGER screening_decisions_no_truncate BEFORE TRUNCATE ON "screening_decisions" FOR EACH STATEMENT EXECUTE FUNCTION screening_decisions_refuse_change();
