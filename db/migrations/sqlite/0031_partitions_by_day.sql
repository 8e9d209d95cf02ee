DROP INDEX `events_account_event_uq`;--> statement-breakpoint
CREATE INDEX `events_event_idx` ON `events` (`account_id`,`event_id`);