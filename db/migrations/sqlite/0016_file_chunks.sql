CREATE TABLE `file_chunks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`file_key` text NOT NULL,
	`seq` integer NOT NULL,
	`data` blob NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `file_chunks_key_seq_uq` ON `file_chunks` (`file_key`,`seq`);