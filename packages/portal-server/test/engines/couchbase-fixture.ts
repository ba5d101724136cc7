// Shared setup of the Couchbase engine tests: the REST test double (test/doubles/couchbase.ts) with a small
// shop bucket, and the database routes with real policy hooks over five managed datasources (read-write,
// read-only, guarded, masked, hidden keyspace). Each test file starts its own double and harness.
import { CouchbaseDouble } from '../doubles/couchbase.js';
import { type GovernedHarness, governed, managedDs } from '../governance/policy-harness.js';
import { ADMIN, type ALICE } from '../query/harness.js';

export const BIG = 9007199254740993n;
export const KS = '`shop`.`inventory`';

export interface CouchbaseFixture {
  cb: CouchbaseDouble;
  h: GovernedHarness;
  connection: Record<string, unknown>;
  query(
    connectionId: string,
    sql: string,
    extra?: Record<string, unknown>,
    user?: typeof ADMIN | typeof ALICE,
  ): ReturnType<GovernedHarness['post']>;
  products(): Map<string, Record<string, unknown>>;
  close(): Promise<void>;
}

export async function couchbaseFixture(): Promise<CouchbaseFixture> {
  const cb = new CouchbaseDouble({
    user: 'portal',
    password: 'secret-pw',
    bucket: 'shop',
    data: {
      inventory: {
        products: {
          p1: { name: 'Lamp', price: 20, stock: BIG as unknown as number },
          p2: { name: 'Desk', price: 150, stock: 3 },
          p3: { name: 'Chair', price: 80, stock: 7 },
          p4: { name: 'Shelf', price: 60, stock: 1 },
          p5: { name: 'Rug', price: 35, stock: 0 },
        },
        customers: {
          c1: {
            name: 'Ada',
            email: 'ada@example.com',
            address: { city: 'London', zip: 'N1', email: 'home@example.com' },
          },
          c2: { name: 'Grace', email: 'grace@example.com', address: { city: 'Arlington', zip: '22201' } },
        },
        secrets: { s1: { token: 'do-not-show' } },
        noidx: { n1: { v: 1 } },
        slow: { x: { v: 1 } },
      },
    },
    unindexed: ['inventory.noidx'],
  });
  await cb.start();
  const connection = {
    type: 'couchbase',
    host: '127.0.0.1',
    port: cb.mgmtPort,
    user: 'portal',
    password: 'secret-pw',
    database: 'shop',
  };
  const h = await governed(
    [
      managedDs('rw', connection, { guardrails: false }),
      managedDs('ro', connection, { readOnly: true }),
      managedDs('guarded', connection, {}),
      managedDs('masked', connection, { guardrails: false, masking: [{ column: '*.email', rule: 'full' }] }),
      managedDs('hidden', connection, { guardrails: false, objectRules: { hidden: ['inventory.secrets'] } }),
    ],
    { storage: true },
  );
  return {
    cb,
    h,
    connection,
    query: (connectionId, sql, extra = {}, user = ADMIN) =>
      h.post('/api/db/query', { connectionId, sql, ...extra }, user),
    products: () => cb.collection({ bucket: 'shop', scope: 'inventory', collection: 'products' })!,
    async close() {
      await h.close();
      await cb.stop();
    },
  };
}
