// The table the portal benchmarks read (portal-query and portal-footprint): `bench_rows` with a mix of column
// types (integer key, text, numeric, timestamptz, boolean, a sometimes-null text holding a comma and quotes
// so the CSV writer quotes it), seeded server-side with generate_series and analysed so plans are stable.
import pg from 'pg';

export async function seedBenchRows(url: string, rows: number): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    console.log(`seeding ${rows} rows…`);
    await admin.query(
      `CREATE TABLE bench_rows (id int PRIMARY KEY, name text NOT NULL, amount numeric(12,2), created timestamptz, flag boolean, note text)`,
    );
    await admin.query(
      `INSERT INTO bench_rows SELECT g, 'name ' || g, g * 0.25, '2024-01-01'::timestamptz + g * interval '1 second', g % 3 = 0,
            CASE WHEN g % 10 = 0 THEN 'has, a "quote"' END FROM generate_series(1, $1) g`,
      [rows],
    );
    await admin.query('VACUUM ANALYZE bench_rows');
  } finally {
    await admin.end();
  }
}
