/**
 * Apostrophes in trigram searches (PostgreSQL). pg_trgm keeps only letters and digits in its words, so
 * `O'Neill` is indexed as the words "o" and "neill", and `contains:o'n` could only ask the index for
 * names with a word "o" and a word starting "n": 35,789 candidates, each rechecked in the table, for 5,557
 * matches in a 600,000-patient clinic (its count took 60 ms). The trigram indexes of searchable
 * attributes are built on the text with its apostrophes swapped for modifier letters, which pg_trgm keeps
 * in words, and a search swaps its pattern the same way: `o'n` becomes one word with the trigram "oʼn".
 *
 * The swap is a bijection of characters (each apostrophe and the letter it turns into trade places), so
 * a swapped pattern matches a swapped value exactly when the pattern matches the value: what a search
 * finds does not change, only how many rows PostgreSQL reads to find it. Straight and curly apostrophes
 * stay distinct, as they were. SQLite's trigram table keeps every character and needs no swap.
 *
 * The indexes' expression is this one (migration 0043); the filter plan tests check that searches are
 * read from them.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/** U+0027 ' and U+2019 ’, with the modifier letters U+02BC ʼ and U+02BB ʻ they trade places with. */
const FROM = "'\u2019\u02bc\u02bb";
const TO = "\u02bc\u02bb'\u2019";

const swaps = new Map([...FROM].map((c, i) => [c, TO[i]]));

/** The pattern as the swapped text is searched with. */
export const swapApostrophes = (pattern: string): string => [...pattern].map((c) => swaps.get(c) ?? c).join('');

/** The column's text with its apostrophes swapped: the trigram index's own expression. */
export const swappedText = (column: PgColumn): SQL =>
  sql`translate(${column}, ${sql.raw(`'${FROM.replace(/'/g, "''")}'`)}, ${sql.raw(`'${TO.replace(/'/g, "''")}'`)})`;
