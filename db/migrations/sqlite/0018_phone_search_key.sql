-- Phone search compares numbers.search_key (server/values/phone.ts): E.164, or the digits of a number that does not parse.
ALTER TABLE `numbers` ADD `search_key` text;--> statement-breakpoint
CREATE INDEX `numbers_search_key_idx` ON `numbers` (`account_id`,`search_key`);--> statement-breakpoint
-- Backfill: every number the API stored has intl_number, its E.164 form from libphonenumber-js; a row without one
-- keeps its digits (0-9 only, as phoneSearchKey does). Only rows without a key: running it again changes nothing.
UPDATE `numbers` SET `search_key` = coalesce(`intl_number`, (
  WITH RECURSIVE `c`(`i`, `d`) AS (
    SELECT 1, ''
    UNION ALL
    SELECT `i` + 1, `d` || CASE WHEN substr(`numbers`.`number`, `i`, 1) GLOB '[0-9]' THEN substr(`numbers`.`number`, `i`, 1) ELSE '' END
    FROM `c` WHERE `i` <= length(`numbers`.`number`)
  )
  SELECT nullif(`d`, '') FROM `c` ORDER BY `i` DESC LIMIT 1
)) WHERE `search_key` IS NULL;
