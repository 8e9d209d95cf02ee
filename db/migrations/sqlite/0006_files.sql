CREATE TABLE `files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`patient_id` integer NOT NULL,
	`patient_log_id` integer,
	`entity_type` text NOT NULL,
	`file_type` text NOT NULL,
	`file_name` text NOT NULL,
	`description` text,
	`mime_type` text NOT NULL,
	`size` integer NOT NULL,
	`storage_key` text NOT NULL,
	`patient_viewable` integer NOT NULL,
	`created_by` text
);
--> statement-breakpoint
CREATE INDEX `files_account_idx` ON `files` (`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `files_patient_idx` ON `files` (`account_id`,`patient_id`,`id`);