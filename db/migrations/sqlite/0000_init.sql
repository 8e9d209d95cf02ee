CREATE TABLE `accounts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`subdomain` text NOT NULL,
	`region` text NOT NULL,
	`name` text NOT NULL,
	`timezone` text NOT NULL,
	`currency` text NOT NULL,
	`locale` text NOT NULL,
	`generation` text NOT NULL,
	`invoice_counter` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_subdomain_uq` ON `accounts` (`subdomain`);--> statement-breakpoint
CREATE INDEX `accounts_region_idx` ON `accounts` (`region`);--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`name` text NOT NULL,
	`access` text NOT NULL,
	`api` text NOT NULL,
	`format` text NOT NULL,
	`hash` text NOT NULL,
	`start` text NOT NULL,
	`previous_hash` text,
	`previous_expires_at` text,
	`expires_at` text,
	`revoked_at` text,
	`last_used_at` text,
	`rotated_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash_uq` ON `api_keys` (`hash`);--> statement-breakpoint
CREATE INDEX `api_keys_previous_hash_idx` ON `api_keys` (`previous_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_account_idx` ON `api_keys` (`account_id`,`id`);--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`actor_type` text NOT NULL,
	`actor_id` integer,
	`actor_name` text NOT NULL,
	`action` text NOT NULL,
	`entity` text NOT NULL,
	`entity_id` integer,
	`changes` text,
	`request_id` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_log_account_idx` ON `audit_log` (`account_id`,`entity`,`entity_id`);--> statement-breakpoint
CREATE TABLE `deleted_entities` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`entity` text NOT NULL,
	`entity_id` integer NOT NULL,
	`deleted_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `deleted_entities_entity_idx` ON `deleted_entities` (`account_id`,`entity`,`id`);--> statement-breakpoint
CREATE INDEX `deleted_entities_deleted_at_idx` ON `deleted_entities` (`account_id`,`deleted_at`,`id`);--> statement-breakpoint
CREATE TABLE `events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` text NOT NULL,
	`account_id` integer NOT NULL,
	`type` text NOT NULL,
	`entity` text NOT NULL,
	`entity_id` integer NOT NULL,
	`occurred_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `events_event_id_uq` ON `events` (`event_id`);--> statement-breakpoint
CREATE INDEX `events_account_idx` ON `events` (`account_id`,`id`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`account_id` integer NOT NULL,
	`key` text NOT NULL,
	`fingerprint` text NOT NULL,
	`state` text NOT NULL,
	`status` integer,
	`body` text,
	`created_at` text NOT NULL,
	PRIMARY KEY(`account_id`, `key`)
);
--> statement-breakpoint
CREATE TABLE `rate_limit_buckets` (
	`bucket` text NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`bucket`, `window_start`)
);
--> statement-breakpoint
CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `appointment_types` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`category` text,
	`duration_minutes` integer NOT NULL,
	`color` text,
	`online_booking` integer NOT NULL,
	`active` integer NOT NULL,
	`max_attendees` integer,
	`requires_resource` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `appointment_types_account_idx` ON `appointment_types` (`account_id`,`id`);--> statement-breakpoint
CREATE TABLE `locations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`name` text NOT NULL,
	`line_1` text,
	`city` text,
	`postal_code` text,
	`country` text,
	`phone` text,
	`email` text,
	`online_booking` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `locations_account_idx` ON `locations` (`account_id`,`id`);--> statement-breakpoint
CREATE TABLE `modalities` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`name` text NOT NULL,
	`color` text
);
--> statement-breakpoint
CREATE INDEX `modalities_account_idx` ON `modalities` (`account_id`,`id`);--> statement-breakpoint
CREATE TABLE `practitioner_availabilities` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`type` text,
	`starts_at` text,
	`ends_at` text,
	`day` text,
	`online_booking` integer,
	`description` text,
	`color` text,
	`resource_id` integer,
	`span_all_columns` integer,
	`practitioner_id` integer,
	`location_id` integer
);
--> statement-breakpoint
CREATE INDEX `practitioner_availabilities_account_idx` ON `practitioner_availabilities` (`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `practitioner_availabilities_practitioner_idx` ON `practitioner_availabilities` (`account_id`,`practitioner_id`,`location_id`);--> statement-breakpoint
CREATE TABLE `practitioners` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`title` text,
	`designation` text,
	`email` text,
	`active` integer NOT NULL,
	`online_booking` integer NOT NULL,
	`location_ids` text NOT NULL,
	`appointment_type_ids` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `practitioners_account_idx` ON `practitioners` (`account_id`,`id`);--> statement-breakpoint
CREATE TABLE `resources` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`location_id` integer NOT NULL,
	`name` text NOT NULL,
	`public_name` text,
	`description` text,
	`color` text,
	`sort_order` integer NOT NULL,
	`status` text NOT NULL,
	`locked` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `resources_account_idx` ON `resources` (`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `resources_location_idx` ON `resources` (`account_id`,`location_id`);--> statement-breakpoint
CREATE TABLE `billable_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`name` text NOT NULL,
	`item_code` text,
	`item_type` text NOT NULL,
	`price_minor` integer NOT NULL,
	`tax_rate_bp` integer NOT NULL,
	`active` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `billable_items_account_idx` ON `billable_items` (`account_id`,`id`);--> statement-breakpoint
CREATE TABLE `payment_methods` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`active` integer NOT NULL,
	`sort_order` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `payment_methods_account_idx` ON `payment_methods` (`account_id`,`id`);--> statement-breakpoint
CREATE TABLE `referral_sources` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`name` text NOT NULL,
	`category` text,
	`active` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `referral_sources_account_idx` ON `referral_sources` (`account_id`,`id`);--> statement-breakpoint
CREATE TABLE `tags` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`name` text NOT NULL,
	`color` text,
	`sort_order` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `tags_account_idx` ON `tags` (`account_id`,`id`);--> statement-breakpoint
CREATE TABLE `addresses` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`entity_type` text NOT NULL,
	`entity_id` integer NOT NULL,
	`line_1` text,
	`line_2` text,
	`line_3` text,
	`city` text,
	`state` text,
	`postal_code` text,
	`country` text
);
--> statement-breakpoint
CREATE INDEX `addresses_account_idx` ON `addresses` (`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `addresses_entity_idx` ON `addresses` (`account_id`,`entity_type`,`entity_id`);--> statement-breakpoint
CREATE TABLE `numbers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`patient_id` integer NOT NULL,
	`number` text NOT NULL,
	`country_code` text,
	`iso2` text,
	`type` text NOT NULL,
	`intl_number` text
);
--> statement-breakpoint
CREATE INDEX `numbers_account_idx` ON `numbers` (`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `numbers_patient_idx` ON `numbers` (`account_id`,`patient_id`);--> statement-breakpoint
CREATE TABLE `patient_tags` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`patient_id` integer NOT NULL,
	`tag_id` integer NOT NULL,
	`editable` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `patient_tags_patient_idx` ON `patient_tags` (`account_id`,`patient_id`);--> statement-breakpoint
CREATE TABLE `patients` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`preferred_name` text,
	`dob` text,
	`email` text,
	`sex` text,
	`locale` text,
	`note` text,
	`custom_reference` text,
	`blocked` integer NOT NULL,
	`default_location_id` integer,
	`referral_source_id` integer,
	`referral_source_type` text,
	`communication_preferences` text NOT NULL,
	`created_by` text,
	`deleted_at` text
);
--> statement-breakpoint
CREATE INDEX `patients_account_id_idx` ON `patients` (`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `patients_last_name_idx` ON `patients` (`account_id`,`last_name`,`id`);--> statement-breakpoint
CREATE INDEX `patients_first_name_idx` ON `patients` (`account_id`,`first_name`,`id`);--> statement-breakpoint
CREATE INDEX `patients_email_idx` ON `patients` (`account_id`,`email`);--> statement-breakpoint
CREATE INDEX `patients_dob_idx` ON `patients` (`account_id`,`dob`);--> statement-breakpoint
CREATE INDEX `patients_custom_reference_idx` ON `patients` (`account_id`,`custom_reference`);--> statement-breakpoint
CREATE INDEX `patients_created_at_idx` ON `patients` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `patients_updated_at_idx` ON `patients` (`account_id`,`updated_at`,`id`);