DROP INDEX `patients_email_idx`;--> statement-breakpoint
DROP INDEX `patients_dob_idx`;--> statement-breakpoint
DROP INDEX `patients_custom_reference_idx`;--> statement-breakpoint
CREATE INDEX `patients_last_first_name_idx` ON `patients` (`account_id`,`last_name`,`first_name`,`id`);--> statement-breakpoint
CREATE INDEX `patients_preferred_name_idx` ON `patients` (`account_id`,`preferred_name`,`id`);--> statement-breakpoint
CREATE INDEX `patients_email_idx` ON `patients` (`account_id`,`email`,`id`);--> statement-breakpoint
CREATE INDEX `patients_dob_idx` ON `patients` (`account_id`,`dob`,`id`);--> statement-breakpoint
CREATE INDEX `patients_custom_reference_idx` ON `patients` (`account_id`,`custom_reference`,`id`);