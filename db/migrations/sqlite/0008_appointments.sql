CREATE TABLE `appointments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`patient_id` integer NOT NULL,
	`practitioner_id` integer NOT NULL,
	`location_id` integer NOT NULL,
	`appointment_type_id` integer NOT NULL,
	`resource_id` integer,
	`starts_at` text NOT NULL,
	`ends_at` text NOT NULL,
	`starts_utc` text NOT NULL,
	`ends_utc` text NOT NULL,
	`status` text NOT NULL,
	`notes` text,
	`allow_clash` integer NOT NULL,
	`group_master_id` integer,
	`cancellation_reason` text,
	`cancelled_at` text,
	`arrived_at` text,
	`created_by` text,
	`deleted_at` text
);
--> statement-breakpoint
CREATE INDEX `appointments_account_id_idx` ON `appointments` (`account_id`,`id`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `appointments_practitioner_time_idx` ON `appointments` (`account_id`,`practitioner_id`,`starts_utc`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `appointments_resource_time_idx` ON `appointments` (`account_id`,`resource_id`,`starts_utc`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `appointments_starts_at_idx` ON `appointments` (`account_id`,`starts_at`,`id`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `appointments_patient_idx` ON `appointments` (`account_id`,`patient_id`,`starts_at`,`id`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `appointments_location_idx` ON `appointments` (`account_id`,`location_id`,`starts_at`,`id`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `appointments_type_idx` ON `appointments` (`account_id`,`appointment_type_id`,`id`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `appointments_status_idx` ON `appointments` (`account_id`,`status`,`id`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `appointments_created_at_idx` ON `appointments` (`account_id`,`created_at`,`id`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `appointments_updated_at_idx` ON `appointments` (`account_id`,`updated_at`,`id`) WHERE deleted_at IS NULL;