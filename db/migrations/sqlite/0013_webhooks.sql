CREATE TABLE `webhook_endpoints` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`url` text NOT NULL,
	`description` text,
	`event_types` text,
	`enabled` integer NOT NULL,
	`disabled_reason` text,
	`secret` text NOT NULL,
	`previous_secret` text,
	`previous_expires_at` text,
	`failing_since` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoints_account_idx` ON `webhook_endpoints` (`account_id`,`enabled`);--> statement-breakpoint
CREATE TABLE `webhook_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`endpoint_id` integer NOT NULL,
	`event_id` text NOT NULL,
	`event_type` text NOT NULL,
	`payload` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer NOT NULL,
	`next_attempt_at` text,
	`lease_until` text,
	`last_status` integer,
	`next_trigger` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_messages_due_idx` ON `webhook_messages` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_messages_endpoint_idx` ON `webhook_messages` (`account_id`,`endpoint_id`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_messages_event_idx` ON `webhook_messages` (`account_id`,`event_id`);--> statement-breakpoint
CREATE TABLE `webhook_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`endpoint_id` integer NOT NULL,
	`message_id` integer NOT NULL,
	`trigger` text NOT NULL,
	`status_code` integer,
	`duration_ms` integer NOT NULL,
	`response_body` text,
	`error` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_message_idx` ON `webhook_attempts` (`account_id`,`message_id`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_attempts_created_idx` ON `webhook_attempts` (`created_at`);