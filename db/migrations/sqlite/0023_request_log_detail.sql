DROP INDEX `request_log_account_idx`;--> statement-breakpoint
DROP INDEX `request_log_key_idx`;--> statement-breakpoint
ALTER TABLE `request_log` ADD `query` text;--> statement-breakpoint
ALTER TABLE `request_log` ADD `error_code` text;--> statement-breakpoint
ALTER TABLE `request_log` ADD `error_message` text;--> statement-breakpoint
ALTER TABLE `request_log` ADD `client_ip` text;--> statement-breakpoint
CREATE INDEX `request_log_account_time_idx` ON `request_log` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `request_log_key_time_idx` ON `request_log` (`account_id`,`api_key_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `request_log_request_id_idx` ON `request_log` (`account_id`,`request_id`);