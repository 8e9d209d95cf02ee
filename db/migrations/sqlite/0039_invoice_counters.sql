CREATE TABLE `invoice_counters` (
	`account_id` integer PRIMARY KEY NOT NULL,
	`last_number` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `invoice_counters` (`account_id`, `last_number`) SELECT `id`, `invoice_counter` FROM `accounts` WHERE `invoice_counter` > 0;
--> statement-breakpoint
ALTER TABLE `accounts` DROP COLUMN `invoice_counter`;