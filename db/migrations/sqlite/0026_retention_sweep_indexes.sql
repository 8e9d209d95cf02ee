CREATE INDEX `webhook_messages_sweep_idx` ON `webhook_messages` (`status`,`updated_at`);--> statement-breakpoint
CREATE INDEX `deleted_entities_sweep_idx` ON `deleted_entities` (`deleted_at`);--> statement-breakpoint
CREATE INDEX `events_sweep_idx` ON `events` (`occurred_at`);--> statement-breakpoint
CREATE INDEX `idempotency_keys_sweep_idx` ON `idempotency_keys` (`created_at`);