import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes a new SQL migration into server/db/migrations from schema changes.
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema.ts',
  out: './server/db/migrations',
});
