/**
 * The better-sqlite3 constructor for the running Node.js. No single major works on every Node we
 * support: 12 crashes on Node 24.19+ (its ObjectWrap statements abort the process when collected) and
 * 13 declares Node >= 22 and segfaults on Node 20. Both are installed (13 under the npm alias
 * `better-sqlite3-13`) and the running Node picks one here; everything else imports from this file.
 * See docs/decisions.md, "Node versions".
 */
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);

export const nodeMajor = Number(process.versions.node.split('.')[0]);

/** The package name loaded on this Node: `better-sqlite3` (12) on Node 20, `better-sqlite3-13` from 22 on. */
export const sqlitePackage = nodeMajor >= 22 ? 'better-sqlite3-13' : 'better-sqlite3';

const Database: typeof BetterSqlite3 = require(sqlitePackage);

export type SqliteDatabase = BetterSqlite3.Database;
export type SqliteStatement = BetterSqlite3.Statement;
export default Database;
