ALTER TABLE `webhook_attempts` ADD `request_headers` text;--> statement-breakpoint
CREATE INDEX `webhook_attempts_endpoint_idx` ON `webhook_attempts` (`account_id`,`endpoint_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_messages_endpoint_status_idx` ON `webhook_messages` (`account_id`,`endpoint_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_messages_endpoint_type_idx` ON `webhook_messages` (`account_id`,`endpoint_id`,`event_type`,`id`);