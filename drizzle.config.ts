import { defineConfig } from 'drizzle-kit';

// Migrations are generated from db/schema and committed; they are applied by
// `npm run db:migrate` (production) or automatically on start in development.
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema/index.ts',
  out: './db/migrations',
  casing: 'snake_case',
});
