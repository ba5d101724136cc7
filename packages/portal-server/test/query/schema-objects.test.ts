// Inventory and counts shared by the schema-level engines (SQL Server, Oracle).
import { describe, expect, it } from 'vitest';
import { countBySchemaAndKind, schemaInventory } from '../../src/providers/schema-objects.js';

const objects = [
  { path: ['dbo', 'a'], name: 'a', kind: 'table' },
  { path: ['dbo', 'b'], name: 'b', kind: 'table' },
  { path: ['dbo', 'v'], name: 'v', kind: 'view' },
  { path: ['sales', 'c'], name: 'c', kind: 'table' },
];

describe('schema-level object helpers', () => {
  it('lists each schema once as a container', () => {
    const inv = schemaInventory(objects, false);
    expect(inv.containers).toEqual([
      { path: ['dbo'], name: 'dbo', kind: 'schema' },
      { path: ['sales'], name: 'sales', kind: 'schema' },
    ]);
    expect(inv.objects).toBe(objects);
    expect(inv.truncated).toBe(false);
  });

  it('counts objects per schema and kind', () => {
    expect(countBySchemaAndKind(objects)).toEqual([
      { path: ['dbo'], kind: 'table', count: 2 },
      { path: ['dbo'], kind: 'view', count: 1 },
      { path: ['sales'], kind: 'table', count: 1 },
    ]);
  });
});
