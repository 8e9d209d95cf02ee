CREATE TABLE `password_links` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`purpose` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `password_links_token_uq` ON `password_links` (`account_id`,`token_hash`);--> statement-breakpoint
CREATE INDEX `password_links_user_idx` ON `password_links` (`account_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `passkeys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`name` text NOT NULL,
	`credential_id` text NOT NULL,
	`public_key` text NOT NULL,
	`counter` integer NOT NULL,
	`transports` text NOT NULL,
	`created_at` text NOT NULL,
	`last_used_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `passkeys_credential_uq` ON `passkeys` (`account_id`,`credential_id`);--> statement-breakpoint
CREATE INDEX `passkeys_user_idx` ON `passkeys` (`account_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `recovery_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`code_hash` text NOT NULL,
	`created_at` text NOT NULL,
	`used_at` text
);
--> statement-breakpoint
CREATE INDEX `recovery_codes_user_idx` ON `recovery_codes` (`account_id`,`user_id`);--> statement-breakpoint
ALTER TABLE `accounts` ADD `two_factor_policy` text DEFAULT 'optional' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `password_changed_at` text;--> statement-breakpoint
ALTER TABLE `users` ADD `totp_secret` text;--> statement-breakpoint
ALTER TABLE `users` ADD `totp_enabled_at` text;--> statement-breakpoint
ALTER TABLE `users` ADD `totp_last_step` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `factor_failures` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `factor_failed_at` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `stage` text DEFAULT 'signed_in' NOT NULL;--> statement-breakpoint
ALTER TABLE `sessions` ADD `challenge` text;--> statement-breakpoint
UPDATE `roles` SET `permissions` = json_insert(`permissions`, '$[#]', 'connectors.manage_all') WHERE `key` = 'admin' AND EXISTS (SELECT 1 FROM json_each(`roles`.`permissions`) WHERE value = 'connectors.manage') AND NOT EXISTS (SELECT 1 FROM json_each(`roles`.`permissions`) WHERE value = 'connectors.manage_all');
