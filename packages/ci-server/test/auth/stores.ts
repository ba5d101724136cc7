// The two stores every auth flow is proven on: SQLite (embedded default) and a fresh PostgreSQL database.
import { createPostgresDatabase } from '@app/kit/testing';
import { inject } from 'vitest';

export const STORES: Array<[string, () => Promise<Record<string, string>>]> = [
  ['SQLite', async () => ({})],
  [
    'PostgreSQL',
    async () => ({ CI_DATABASE_URL: await createPostgresDatabase(inject('services').postgresUrl, 'auth') }),
  ],
];
