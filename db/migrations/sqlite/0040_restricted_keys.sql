ALTER TABLE `api_keys` ADD `previous_last_used_at` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `permissions` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `allowed_ips` text;