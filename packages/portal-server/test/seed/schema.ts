// The seed tests' schema, for PostgreSQL and MariaDB: 20 tables with foreign-key chains (countries → cities
// → customers → orders → order_items …), self-references (categories, customers, employees), a two-table
// cycle (teams.lead_id → members, members.team_id → teams), one-to-one keys (payments.order_id), composite
// keys, unique constraints, enums, and check constraints of every form the generator reads.

export const TABLE_COUNT = 20;

/** Inline `col … REFERENCES t(id)` as a table-level FOREIGN KEY (MySQL ignores inline references). */
function tableLevelKeys(sql: string): string {
  const keys: string[] = [];
  const body = sql.replace(/(\w+) (INT[^,()]*?) REFERENCES (\w+)\(id\)/g, (_m, col, type, ref) => {
    keys.push(`FOREIGN KEY (${col}) REFERENCES ${ref}(id)`);
    return `${col} ${type}`;
  });
  return keys.length ? `${body.slice(0, body.lastIndexOf(')'))}, ${keys.join(', ')})` : body;
}

export function schemaSql(family: 'postgres' | 'mysql'): string[] {
  return schemaStatements(family).map((s) => (s.startsWith('CREATE TABLE') ? tableLevelKeys(s) : s));
}

function schemaStatements(family: 'postgres' | 'mysql'): string[] {
  const pg = family === 'postgres';
  const id = pg ? 'id SERIAL PRIMARY KEY' : 'id INT AUTO_INCREMENT PRIMARY KEY';
  const ts = pg ? 'TIMESTAMP' : 'DATETIME';
  const status = pg ? 'product_status' : "ENUM('draft','active','retired')";
  return [
    ...(pg ? ["CREATE TYPE product_status AS ENUM ('draft', 'active', 'retired')"] : []),
    `CREATE TABLE countries (${id}, code CHAR(2) NOT NULL UNIQUE, name VARCHAR(100) NOT NULL)`,
    `CREATE TABLE cities (${id}, country_id INT NOT NULL REFERENCES countries(id), name VARCHAR(80) NOT NULL)`,
    `CREATE TABLE customers (${id}, email VARCHAR(120) NOT NULL UNIQUE, first_name VARCHAR(50), last_name VARCHAR(50),
       age INT CHECK (age >= 18 AND age <= 120), city_id INT REFERENCES cities(id), referred_by INT NULL,
       FOREIGN KEY (referred_by) REFERENCES customers(id))`,
    `CREATE TABLE addresses (${id}, customer_id INT NOT NULL REFERENCES customers(id), street VARCHAR(120), zip VARCHAR(10))`,
    `CREATE TABLE categories (${id}, name VARCHAR(60) NOT NULL UNIQUE, parent_id INT NULL, FOREIGN KEY (parent_id) REFERENCES categories(id))`,
    `CREATE TABLE suppliers (${id}, company VARCHAR(100) NOT NULL, country_id INT REFERENCES countries(id))`,
    `CREATE TABLE products (${id}, sku VARCHAR(20) NOT NULL UNIQUE, name VARCHAR(100) NOT NULL,
       price DECIMAL(10,2) NOT NULL CHECK (price > 0), stock INT NOT NULL CHECK (stock >= 0),
       category_id INT NOT NULL REFERENCES categories(id), supplier_id INT NOT NULL REFERENCES suppliers(id),
       status ${status} NOT NULL)`,
    `CREATE TABLE warehouses (${id}, city_id INT NOT NULL REFERENCES cities(id), name VARCHAR(60) NOT NULL)`,
    `CREATE TABLE inventory (warehouse_id INT NOT NULL REFERENCES warehouses(id), product_id INT NOT NULL REFERENCES products(id),
       qty INT NOT NULL CHECK (qty BETWEEN 0 AND 10000), PRIMARY KEY (warehouse_id, product_id))`,
    `CREATE TABLE employees (${id}, email VARCHAR(120) NOT NULL UNIQUE, warehouse_id INT NOT NULL REFERENCES warehouses(id),
       manager_id INT NULL, FOREIGN KEY (manager_id) REFERENCES employees(id))`,
    `CREATE TABLE orders (${id}, customer_id INT NOT NULL REFERENCES customers(id), placed_at ${ts} NOT NULL, shipped_at ${ts} NULL,
       status VARCHAR(10) NOT NULL CHECK (status IN ('new', 'paid', 'shipped')), total DECIMAL(12,2) NOT NULL CHECK (total >= 0),
       CHECK (shipped_at >= placed_at))`,
    `CREATE TABLE order_items (${id}, order_id INT NOT NULL REFERENCES orders(id), product_id INT NOT NULL REFERENCES products(id),
       quantity INT NOT NULL CHECK (quantity > 0), unit_price DECIMAL(10,2) NOT NULL, UNIQUE (order_id, product_id))`,
    `CREATE TABLE payments (${id}, order_id INT NOT NULL UNIQUE REFERENCES orders(id), amount DECIMAL(12,2) NOT NULL CHECK (amount > 0),
       paid_at ${ts} NOT NULL)`,
    `CREATE TABLE shipments (${id}, order_id INT NOT NULL REFERENCES orders(id), warehouse_id INT NOT NULL REFERENCES warehouses(id),
       tracking_code VARCHAR(30) NOT NULL UNIQUE, starts DATE NOT NULL, ends DATE NOT NULL, CHECK (ends >= starts))`,
    `CREATE TABLE reviews (${id}, product_id INT NOT NULL REFERENCES products(id), customer_id INT NOT NULL REFERENCES customers(id),
       rating SMALLINT NOT NULL CHECK (rating BETWEEN 1 AND 5), body TEXT)`,
    `CREATE TABLE coupons (${id}, code VARCHAR(16) NOT NULL UNIQUE CHECK (char_length(code) >= 6),
       discount INT NOT NULL CHECK (discount BETWEEN 1 AND 90))`,
    `CREATE TABLE order_coupons (order_id INT NOT NULL REFERENCES orders(id), coupon_id INT NOT NULL REFERENCES coupons(id),
       PRIMARY KEY (order_id, coupon_id))`,
    `CREATE TABLE teams (${id}, name VARCHAR(60) NOT NULL, lead_id INT NULL)`,
    `CREATE TABLE members (${id}, team_id INT NOT NULL REFERENCES teams(id), email VARCHAR(120) NOT NULL UNIQUE)`,
    'ALTER TABLE teams ADD CONSTRAINT teams_lead_fk FOREIGN KEY (lead_id) REFERENCES members(id)',
    `CREATE TABLE audit_notes (id ${pg ? 'BIGSERIAL' : 'BIGINT AUTO_INCREMENT'} PRIMARY KEY, employee_id INT NOT NULL REFERENCES employees(id),
       note TEXT NOT NULL, created_at ${ts} NOT NULL DEFAULT CURRENT_TIMESTAMP)`,
  ];
}
