import { table, text } from '../dialect';

/** Server-wide values shared by every process on the database (e.g. the cursor signing secret). */
export const settings = table('settings', {
  key: text().primaryKey(),
  value: text().notNull(),
});
