CREATE TABLE `invoices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`number` integer NOT NULL,
	`patient_id` integer NOT NULL,
	`practitioner_id` integer,
	`location_id` integer,
	`appointment_id` integer,
	`invoice_date` text NOT NULL,
	`note` text,
	`third_party_payer` text,
	`third_party_minor` integer NOT NULL,
	`subtotal_minor` integer NOT NULL,
	`discount_minor` integer NOT NULL,
	`tax_minor` integer NOT NULL,
	`total_minor` integer NOT NULL,
	`paid_minor` integer NOT NULL,
	`patient_paid_minor` integer NOT NULL,
	`third_party_paid_minor` integer NOT NULL,
	`balance_minor` integer NOT NULL,
	`patient_balance_minor` integer NOT NULL,
	`third_party_balance_minor` integer NOT NULL,
	`state` text NOT NULL,
	`type` text NOT NULL,
	`created_by` text,
	`voided_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_number_uq` ON `invoices` (`account_id`,`number`);--> statement-breakpoint
CREATE INDEX `invoices_account_id_idx` ON `invoices` (`account_id`,`id`) WHERE voided_at IS NULL;--> statement-breakpoint
CREATE INDEX `invoices_patient_idx` ON `invoices` (`account_id`,`patient_id`,`id`) WHERE voided_at IS NULL;--> statement-breakpoint
CREATE INDEX `invoices_number_idx` ON `invoices` (`account_id`,`number`,`id`) WHERE voided_at IS NULL;--> statement-breakpoint
CREATE INDEX `invoices_date_idx` ON `invoices` (`account_id`,`invoice_date`,`id`) WHERE voided_at IS NULL;--> statement-breakpoint
CREATE INDEX `invoices_balance_idx` ON `invoices` (`account_id`,`balance_minor`,`id`) WHERE voided_at IS NULL;--> statement-breakpoint
CREATE INDEX `invoices_patient_balance_idx` ON `invoices` (`account_id`,`patient_balance_minor`,`id`) WHERE voided_at IS NULL;--> statement-breakpoint
CREATE INDEX `invoices_third_party_balance_idx` ON `invoices` (`account_id`,`third_party_balance_minor`,`id`) WHERE voided_at IS NULL;--> statement-breakpoint
CREATE INDEX `invoices_total_idx` ON `invoices` (`account_id`,`total_minor`,`id`) WHERE voided_at IS NULL;--> statement-breakpoint
CREATE INDEX `invoices_subtotal_idx` ON `invoices` (`account_id`,`subtotal_minor`,`id`) WHERE voided_at IS NULL;--> statement-breakpoint
CREATE INDEX `invoices_paid_idx` ON `invoices` (`account_id`,`paid_minor`,`id`) WHERE voided_at IS NULL;--> statement-breakpoint
CREATE INDEX `invoices_type_idx` ON `invoices` (`account_id`,`type`,`id`) WHERE voided_at IS NULL;--> statement-breakpoint
CREATE INDEX `invoices_note_idx` ON `invoices` (`account_id`,`note`,`id`) WHERE voided_at IS NULL;--> statement-breakpoint
CREATE INDEX `invoices_practitioner_idx` ON `invoices` (`account_id`,`practitioner_id`,`id`) WHERE voided_at IS NULL;--> statement-breakpoint
CREATE INDEX `invoices_location_idx` ON `invoices` (`account_id`,`location_id`,`id`) WHERE voided_at IS NULL;--> statement-breakpoint
CREATE INDEX `invoices_appointment_idx` ON `invoices` (`account_id`,`appointment_id`,`id`) WHERE voided_at IS NULL;--> statement-breakpoint
CREATE INDEX `invoices_state_idx` ON `invoices` (`account_id`,`state`,`id`) WHERE voided_at IS NULL;--> statement-breakpoint
CREATE INDEX `invoices_created_at_idx` ON `invoices` (`account_id`,`created_at`,`id`) WHERE voided_at IS NULL;--> statement-breakpoint
CREATE INDEX `invoices_updated_at_idx` ON `invoices` (`account_id`,`updated_at`,`id`) WHERE voided_at IS NULL;--> statement-breakpoint
CREATE TABLE `line_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`invoice_id` integer NOT NULL,
	`billable_item_id` integer NOT NULL,
	`description` text NOT NULL,
	`quantity` integer NOT NULL,
	`unit_price_minor` integer NOT NULL,
	`discount_minor` integer NOT NULL,
	`tax_rate_bp` integer NOT NULL,
	`subtotal_minor` integer NOT NULL,
	`tax_minor` integer NOT NULL,
	`total_minor` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `line_items_invoice_idx` ON `line_items` (`account_id`,`invoice_id`,`id`);--> statement-breakpoint
CREATE INDEX `line_items_billable_item_idx` ON `line_items` (`account_id`,`billable_item_id`,`id`);--> statement-breakpoint
CREATE INDEX `line_items_account_idx` ON `line_items` (`account_id`,`id`);--> statement-breakpoint
CREATE TABLE `payment_allocations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`payment_id` integer NOT NULL,
	`invoice_id` integer NOT NULL,
	`amount_minor` integer NOT NULL,
	`payer` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `payment_allocations_account_idx` ON `payment_allocations` (`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `payment_allocations_payment_idx` ON `payment_allocations` (`account_id`,`payment_id`);--> statement-breakpoint
CREATE INDEX `payment_allocations_invoice_idx` ON `payment_allocations` (`account_id`,`invoice_id`);--> statement-breakpoint
CREATE TABLE `payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`patient_id` integer NOT NULL,
	`payment_method_id` integer NOT NULL,
	`amount_minor` integer NOT NULL,
	`allocated_minor` integer NOT NULL,
	`refunded_minor` integer NOT NULL,
	`unallocated_minor` integer NOT NULL,
	`payment_date` text NOT NULL,
	`note` text,
	`status` text NOT NULL,
	`created_by` text,
	`voided_at` text
);
--> statement-breakpoint
CREATE INDEX `payments_account_id_idx` ON `payments` (`account_id`,`id`) WHERE voided_at IS NULL;--> statement-breakpoint
CREATE INDEX `payments_patient_idx` ON `payments` (`account_id`,`patient_id`,`id`) WHERE voided_at IS NULL;--> statement-breakpoint
CREATE INDEX `payments_date_idx` ON `payments` (`account_id`,`payment_date`,`id`) WHERE voided_at IS NULL;--> statement-breakpoint
CREATE INDEX `payments_status_idx` ON `payments` (`account_id`,`status`,`id`) WHERE voided_at IS NULL;--> statement-breakpoint
CREATE INDEX `payments_created_at_idx` ON `payments` (`account_id`,`created_at`,`id`) WHERE voided_at IS NULL;--> statement-breakpoint
CREATE INDEX `payments_updated_at_idx` ON `payments` (`account_id`,`updated_at`,`id`) WHERE voided_at IS NULL;--> statement-breakpoint
CREATE TABLE `refunds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`payment_id` integer NOT NULL,
	`amount_minor` integer NOT NULL,
	`reason` text,
	`created_by` text
);
--> statement-breakpoint
CREATE INDEX `refunds_account_idx` ON `refunds` (`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `refunds_payment_idx` ON `refunds` (`account_id`,`payment_id`);