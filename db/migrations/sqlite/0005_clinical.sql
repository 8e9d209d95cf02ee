CREATE TABLE `clinical_notes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`patient_id` integer NOT NULL,
	`practitioner_id` integer,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`created_by` text
);
--> statement-breakpoint
CREATE INDEX `clinical_notes_account_idx` ON `clinical_notes` (`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `clinical_notes_patient_idx` ON `clinical_notes` (`account_id`,`patient_id`,`id`);--> statement-breakpoint
CREATE TABLE `form_templates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`category` text NOT NULL,
	`active` integer NOT NULL,
	`questions` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `form_templates_account_idx` ON `form_templates` (`account_id`,`id`);