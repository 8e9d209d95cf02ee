CREATE TABLE `offset_count_changes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`entity` text NOT NULL,
	`bucket` integer NOT NULL,
	`delta` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `offset_count_changes_bucket_idx` ON `offset_count_changes` (`account_id`,`entity`,`bucket`);--> statement-breakpoint
CREATE TABLE `offset_counts` (
	`account_id` integer NOT NULL,
	`entity` text NOT NULL,
	`bucket` integer NOT NULL,
	`live` integer NOT NULL,
	PRIMARY KEY(`account_id`, `entity`, `bucket`)
);
--> statement-breakpoint
-- Counts of live rows per range of 4,096 ids, for deep offset pages (server/list/offsets.ts, decision 254).
CREATE TRIGGER `patients_offsets_added` AFTER INSERT ON `patients` WHEN new.deleted_at IS NULL BEGIN
  INSERT INTO offset_count_changes (account_id, entity, bucket, delta) VALUES (new.account_id, 'patients', new.id >> 12, 1);
END;
--> statement-breakpoint
CREATE TRIGGER `patients_offsets_removed` AFTER DELETE ON `patients` WHEN old.deleted_at IS NULL BEGIN
  INSERT INTO offset_count_changes (account_id, entity, bucket, delta) VALUES (old.account_id, 'patients', old.id >> 12, -1);
END;
--> statement-breakpoint
CREATE TRIGGER `patients_offsets_moved` AFTER UPDATE OF deleted_at ON `patients` WHEN (old.deleted_at IS NULL) <> (new.deleted_at IS NULL) BEGIN
  INSERT INTO offset_count_changes (account_id, entity, bucket, delta) VALUES (new.account_id, 'patients', new.id >> 12, CASE WHEN new.deleted_at IS NULL THEN 1 ELSE -1 END);
END;
--> statement-breakpoint
CREATE TRIGGER `appointments_offsets_added` AFTER INSERT ON `appointments` WHEN new.deleted_at IS NULL BEGIN
  INSERT INTO offset_count_changes (account_id, entity, bucket, delta) VALUES (new.account_id, 'appointments', new.id >> 12, 1);
END;
--> statement-breakpoint
CREATE TRIGGER `appointments_offsets_removed` AFTER DELETE ON `appointments` WHEN old.deleted_at IS NULL BEGIN
  INSERT INTO offset_count_changes (account_id, entity, bucket, delta) VALUES (old.account_id, 'appointments', old.id >> 12, -1);
END;
--> statement-breakpoint
CREATE TRIGGER `appointments_offsets_moved` AFTER UPDATE OF deleted_at ON `appointments` WHEN (old.deleted_at IS NULL) <> (new.deleted_at IS NULL) BEGIN
  INSERT INTO offset_count_changes (account_id, entity, bucket, delta) VALUES (new.account_id, 'appointments', new.id >> 12, CASE WHEN new.deleted_at IS NULL THEN 1 ELSE -1 END);
END;
--> statement-breakpoint
INSERT INTO offset_counts (account_id, entity, bucket, live)
  SELECT account_id, 'patients', id >> 12, count(*) FROM patients WHERE deleted_at IS NULL GROUP BY account_id, id >> 12;
--> statement-breakpoint
INSERT INTO offset_counts (account_id, entity, bucket, live)
  SELECT account_id, 'appointments', id >> 12, count(*) FROM appointments WHERE deleted_at IS NULL GROUP BY account_id, id >> 12;
