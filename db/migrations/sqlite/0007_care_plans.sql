CREATE TABLE `care_plan_members` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`care_plan_id` integer NOT NULL,
	`patient_id` integer NOT NULL,
	`schedule_override` text,
	`visits_used` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `care_plan_members_plan_idx` ON `care_plan_members` (`account_id`,`care_plan_id`);--> statement-breakpoint
CREATE INDEX `care_plan_members_patient_idx` ON `care_plan_members` (`account_id`,`patient_id`);--> statement-breakpoint
CREATE TABLE `care_plans` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`status` text NOT NULL,
	`tag_id` integer,
	`billing` text NOT NULL,
	`schedules` text NOT NULL,
	`visits_planned` integer
);
--> statement-breakpoint
CREATE INDEX `care_plans_account_idx` ON `care_plans` (`account_id`,`id`);