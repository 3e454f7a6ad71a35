-- The credit ledger is append-only (decisions §8: the balance is the sum of the ledger, and the
-- cached balance sums only rows past the last one it saw). A correction is a new `adjustment` row.
-- Rows go only with their user (ON DELETE CASCADE): the parent row is gone by then.
CREATE TRIGGER `credit_ledger_no_update` BEFORE UPDATE ON `credit_ledger`
BEGIN
  SELECT RAISE(ABORT, 'credit_ledger is append-only: record a correction as a new row');
END;
--> statement-breakpoint
CREATE TRIGGER `credit_ledger_no_delete` BEFORE DELETE ON `credit_ledger`
WHEN EXISTS (SELECT 1 FROM `users` WHERE `id` = OLD.`user_id`)
BEGIN
  SELECT RAISE(ABORT, 'credit_ledger is append-only: record a correction as a new row');
END;
