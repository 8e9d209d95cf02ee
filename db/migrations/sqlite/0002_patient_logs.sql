CREATE TABLE `patient_log_tags` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`patient_log_id` integer NOT NULL,
	`tag_id` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `patient_log_tags_account_idx` ON `patient_log_tags` (`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `patient_log_tags_log_idx` ON `patient_log_tags` (`account_id`,`patient_log_id`);--> statement-breakpoint
CREATE TABLE `patient_logs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`patient_id` integer NOT NULL,
	`type` text NOT NULL,
	`sub_type` text,
	`source` text NOT NULL,
	`source_entity` text,
	`data` text NOT NULL,
	`created_by` text
);
--> statement-breakpoint
CREATE INDEX `patient_logs_account_idx` ON `patient_logs` (`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `patient_logs_patient_idx` ON `patient_logs` (`account_id`,`patient_id`,`id`);--> statement-breakpoint
CREATE INDEX `patient_logs_created_at_idx` ON `patient_logs` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `patient_tags_patient_tag_uq` ON `patient_tags` (`account_id`,`patient_id`,`tag_id`);