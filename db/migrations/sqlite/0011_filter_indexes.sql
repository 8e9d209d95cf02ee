CREATE INDEX `appointments_group_idx` ON `appointments` (`account_id`,`group_master_id`,`id`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `payment_allocations_payer_idx` ON `payment_allocations` (`account_id`,`payer`,`id`);--> statement-breakpoint
CREATE INDEX `payments_method_idx` ON `payments` (`account_id`,`payment_method_id`,`id`) WHERE voided_at IS NULL;--> statement-breakpoint
CREATE INDEX `payments_amount_idx` ON `payments` (`account_id`,`amount_minor`,`id`) WHERE voided_at IS NULL;--> statement-breakpoint
CREATE INDEX `payments_unallocated_idx` ON `payments` (`account_id`,`unallocated_minor`,`id`) WHERE voided_at IS NULL;