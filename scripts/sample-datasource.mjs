// The portal's managed datasources for `npm start` when PORTAL_DATASOURCES is not set: a datasources file
// in the portal's data folder, written once with one sample SQLite shop (customers, products, orders and
// their items, a view; foreign keys for the ER diagram) whose policy holds writes for approval, lets the
// second local account review them and masks the customers' e-mail addresses, so a new user can try the
// IDE, an approval between two people and masking without writing YAML first. The file is the user's to
// edit afterwards (the portal re-reads it on change); it is never overwritten.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SHOP_SQL = `
  CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL, city TEXT);
  CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL NOT NULL);
  CREATE TABLE orders (
    id INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers (id),
    placed_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'placed'
  );
  CREATE TABLE order_items (
    order_id INTEGER NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    product_id INTEGER NOT NULL REFERENCES products (id),
    quantity INTEGER NOT NULL,
    PRIMARY KEY (order_id, product_id)
  );
  CREATE INDEX orders_customer ON orders (customer_id);
  CREATE VIEW order_totals AS
    SELECT o.id AS order_id, c.name AS customer, SUM(i.quantity * p.price) AS total
    FROM orders o JOIN customers c ON c.id = o.customer_id
    JOIN order_items i ON i.order_id = o.id JOIN products p ON p.id = i.product_id
    GROUP BY o.id, c.name;
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
    INSERT INTO customers SELECT i, 'Customer ' || i, 'customer' || i || '@example.com',
      CASE i % 4 WHEN 0 THEN 'London' WHEN 1 THEN 'Paris' WHEN 2 THEN 'Berlin' ELSE NULL END FROM n;
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40)
    INSERT INTO products SELECT i, 'Product ' || i, ROUND(2.5 + (i * 7919 % 100) / 4.0, 2) FROM n;
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
    INSERT INTO orders SELECT i, 1 + (i * 37) % 200, date('2026-01-01', '+' || (i % 300) || ' days'),
      CASE i % 10 WHEN 0 THEN 'cancelled' WHEN 1 THEN 'placed' ELSE 'shipped' END FROM n;
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
    INSERT OR IGNORE INTO order_items SELECT 1 + (i - 1) / 3, 1 + (i * 13) % 40, 1 + i % 5 FROM n;
`;

/** Answers the datasources file to hand to the portal, creating the sample on the first start. */
export async function ensureSampleDatasources(portalDataDir) {
  const file = join(portalDataDir, 'datasources.yaml');
  if (existsSync(file)) return file;
  const dir = join(portalDataDir, 'sample');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const dbFile = join(dir, 'shop.db');
  if (!existsSync(dbFile)) {
    // Loaded here, not at the top: start.mjs imports this file before it installs missing dependencies.
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(dbFile);
    try {
      db.exec(SHOP_SQL);
    } finally {
      db.close();
    }
  }
  writeFileSync(
    file,
    `# Managed datasources of this portal (docs/portal-storage.md, "Managed datasources"). Written once by
# \`npm start\` with a sample SQLite shop; edit or replace it freely (the portal re-reads it on change), or set
# PORTAL_DATASOURCES to use another file.
datasources:
  - id: sample
    name: Sample shop
    type: sqlite
    database: ${JSON.stringify(dbFile)}
    environment: staging
    roles: [admin, user]
    policy:
      writeApproval: true
      approverRoles: [admin, user]
      masking: [{ column: customers.email, rule: partial }]
`,
    { mode: 0o600 },
  );
  return file;
}
