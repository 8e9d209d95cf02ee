import { defineConfig } from 'drizzle-kit';
import { dialectOf } from './db/dialect';

// `npm run db:generate` runs drizzle-kit once per dialect; DATABASE_URL picks which.
const dialect = dialectOf(process.env.DATABASE_URL);

export default defineConfig({
  dialect: dialect === 'pg' ? 'postgresql' : 'sqlite',
  schema: './db/schema.ts',
  out: `./db/migrations/${dialect}`,
});
