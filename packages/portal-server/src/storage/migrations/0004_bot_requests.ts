// The `bot_requests` table: one row per POST /api/v1/executions — who sent it (service token, onBehalfOf),
// what it asked (datasource, statement, review reason, trusted reviewers, reply thread, callback), where it
// stands (pending → approved/rejected, the job that runs it) and the bounded, masked outcome. Registered in
// index.ts as `0004_bot_requests` (the bot API's table; its queries are src/bot/store.ts).
import type { Migration } from 'kysely';

export const m0004BotRequests: Migration = {
  async up(db) {
    await db.schema
      .createTable('bot_requests')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('token_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('token_name', 'varchar(200)', (c) => c.notNull())
      .addColumn('datasource_id', 'varchar(200)', (c) => c.notNull())
      .addColumn('statement', 'text', (c) => c.notNull())
      .addColumn('on_behalf_of', 'varchar(320)', (c) => c.notNull())
      .addColumn('status', 'varchar(20)', (c) => c.notNull())
      .addColumn('hold', 'varchar(40)')
      .addColumn('approval_id', 'varchar(64)')
      .addColumn('guardrail', 'varchar(40)')
      .addColumn('review_reason', 'text')
      .addColumn('approved_by', 'text')
      .addColumn('ticket', 'varchar(120)')
      .addColumn('reply', 'text')
      .addColumn('callback_url', 'text')
      .addColumn('job_id', 'varchar(64)')
      .addColumn('rejection', 'varchar(40)')
      .addColumn('outcome', 'text')
      .addColumn('chat', 'text')
      .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
      .addColumn('started_at', 'varchar(40)')
      .addColumn('finished_at', 'varchar(40)')
      .addColumn('version', 'integer', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('bot_requests_token')
      .on('bot_requests')
      .columns(['token_id', 'created_at'])
      .execute();
    await db.schema.createIndex('bot_requests_approval').on('bot_requests').column('approval_id').execute();
    await db.schema
      .createIndex('bot_requests_status')
      .on('bot_requests')
      .columns(['status', 'updated_at'])
      .execute();
  },
};
