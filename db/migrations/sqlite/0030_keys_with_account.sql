DROP INDEX `events_event_id_uq`;--> statement-breakpoint
CREATE UNIQUE INDEX `events_account_event_uq` ON `events` (`account_id`,`event_id`);--> statement-breakpoint
DROP INDEX `file_chunks_key_seq_uq`;--> statement-breakpoint
CREATE UNIQUE INDEX `file_chunks_account_key_seq_uq` ON `file_chunks` (`account_id`,`file_key`,`seq`);--> statement-breakpoint
DROP INDEX `api_keys_hash_uq`;--> statement-breakpoint
DROP INDEX `api_keys_previous_hash_idx`;--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash_uq` ON `api_keys` (`account_id`,`hash`);--> statement-breakpoint
CREATE INDEX `api_keys_previous_hash_idx` ON `api_keys` (`account_id`,`previous_hash`);--> statement-breakpoint
DROP INDEX `sessions_token_hash_uq`;--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_token_hash_uq` ON `sessions` (`account_id`,`token_hash`);--> statement-breakpoint
DROP INDEX `oauth_codes_hash_uq`;--> statement-breakpoint
CREATE UNIQUE INDEX `oauth_codes_hash_uq` ON `oauth_codes` (`account_id`,`code_hash`);--> statement-breakpoint
DROP INDEX `oauth_tokens_hash_uq`;--> statement-breakpoint
DROP INDEX `oauth_tokens_grant_idx`;--> statement-breakpoint
CREATE UNIQUE INDEX `oauth_tokens_hash_uq` ON `oauth_tokens` (`account_id`,`token_hash`);--> statement-breakpoint
CREATE INDEX `oauth_tokens_grant_idx` ON `oauth_tokens` (`account_id`,`grant_id`);