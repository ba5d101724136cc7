// Fleet health warns when a datasource's account is privileged (issue 27): the real PostgreSQL, MariaDB,
// ClickHouse and Redis the suite starts run as administrators, so each is reported with what it holds and
// the pointer to account provisioning; least-privilege MariaDB and Redis accounts created for the test are
// not. The per-engine readers of SHOW GRANTS / ACL GETUSER are checked on their own words too.
import { randomBytes } from 'node:crypto';
import { createMariadbDatabase } from '@app/kit/testing';
import { Redis } from 'ioredis';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { PortalServer } from '../../src/index.js';
import { clickhousePrivilegeWarnings } from '../../src/providers/clickhouse/privileges.js';
import { mysqlPrivilegeWarnings } from '../../src/providers/mysql/privileges.js';
import { redisPrivilegeWarnings } from '../../src/providers/redis/privileges.js';
import { ADMIN, ORIGIN, portal, sessionFor } from '../auth/helpers.js';

const LP_USER = `adv_lp_${process.pid}`;
const LP_PASS = randomBytes(10).toString('hex');
let server: PortalServer;
let admin: string;
let myUrl: URL;
let redisUrl: URL;

beforeAll(async () => {
  server = await portal();
  admin = `auth-token=${await sessionFor(server, ADMIN)}`;
  myUrl = new URL(await createMariadbDatabase(inject('services').mariadbUrl, 'priv'));
  const c = await mysql.createConnection(myUrl.toString());
  await c.query(`CREATE USER '${LP_USER}'@'%' IDENTIFIED BY '${LP_PASS}'`);
  await c.query(`GRANT SELECT ON \`${myUrl.pathname.slice(1)}\`.* TO '${LP_USER}'@'%'`);
  await c.end();
  redisUrl = new URL(inject('services').redisUrl);
  const r = new Redis({ host: redisUrl.hostname, port: Number(redisUrl.port) });
  await r.call(
    'ACL',
    'SETUSER',
    LP_USER,
    'reset',
    'on',
    `>${LP_PASS}`,
    '~*',
    '-@all',
    '+@read',
    '-@dangerous',
    '+acl|whoami',
    '+acl|getuser',
    '+ping',
    '+info',
  );
  r.disconnect();
});
afterAll(async () => {
  await server?.close();
  const c = await mysql.createConnection(myUrl.toString());
  await c.query(`DROP USER IF EXISTS '${LP_USER}'@'%'`);
  await c.end();
  const r = new Redis({ host: redisUrl.hostname, port: Number(redisUrl.port) });
  await r.call('ACL', 'DELUSER', LP_USER);
  r.disconnect();
});

const fleet = (connections: unknown[]) =>
  server.app.inject({
    method: 'POST',
    url: '/api/admin/fleet-health',
    payload: { connections },
    headers: { origin: ORIGIN, cookie: admin },
  });

describe('fleet health: privileged datasource accounts', () => {
  it('warns per engine on administrator accounts and points to account provisioning; least-privilege ones pass', async () => {
    const pg = new URL(inject('services').postgresUrl);
    const ch = new URL(inject('services').clickhouseUrl);
    const my = {
      type: 'mysql',
      host: myUrl.hostname,
      port: Number(myUrl.port),
      database: myUrl.pathname.slice(1),
    };
    const r = await fleet([
      {
        id: 'pg-admin',
        type: 'postgres',
        host: pg.hostname,
        port: Number(pg.port),
        user: decodeURIComponent(pg.username),
        password: decodeURIComponent(pg.password),
        database: pg.pathname.slice(1),
      },
      {
        id: 'my-admin',
        ...my,
        user: decodeURIComponent(myUrl.username),
        password: decodeURIComponent(myUrl.password),
      },
      { id: 'my-lp', ...my, user: LP_USER, password: LP_PASS },
      { id: 'ch-default', type: 'clickhouse', host: ch.hostname, port: Number(ch.port) },
      { id: 'redis-default', type: 'redis', host: redisUrl.hostname, port: Number(redisUrl.port) },
      {
        id: 'redis-lp',
        type: 'redis',
        host: redisUrl.hostname,
        port: Number(redisUrl.port),
        user: LP_USER,
        password: LP_PASS,
      },
    ]);
    expect(r.statusCode, r.body).toBe(200);
    const by = Object.fromEntries(
      (
        r.json().results as Array<{
          connectionId: string;
          status: string;
          privileges?: string[];
          warning?: string;
        }>
      ).map((x) => [x.connectionId, x]),
    );
    for (const id of ['pg-admin', 'my-admin', 'my-lp', 'ch-default', 'redis-default', 'redis-lp'])
      expect(by[id].status, JSON.stringify(by[id])).toBe('ok');
    expect(by['pg-admin'].privileges).toContain('superuser');
    expect(by['my-admin'].privileges).toEqual(expect.arrayContaining(['ALL PRIVILEGES']));
    expect(by['ch-default'].privileges?.length).toBeGreaterThan(0);
    expect(by['redis-default'].privileges).toEqual(expect.arrayContaining(['+@all']));
    for (const id of ['pg-admin', 'my-admin', 'ch-default', 'redis-default'])
      expect(by[id].warning).toMatch(/account provisioning .*docs\/portal-seed-and-accounts\.md/);
    expect(by['my-lp'].privileges).toBeUndefined();
    expect(by['redis-lp'].privileges).toBeUndefined();
  });
});

describe('privilege readers', () => {
  it('MySQL: global FILE/SUPER/ALL and GRANT OPTION anywhere; database-level SELECT is fine', () => {
    expect(mysqlPrivilegeWarnings(['GRANT SELECT ON `shop`.* TO `app`@`%`'])).toEqual([]);
    expect(mysqlPrivilegeWarnings(['GRANT FILE, PROCESS ON *.* TO `app`@`%`'])).toEqual(['FILE', 'PROCESS']);
    expect(mysqlPrivilegeWarnings(['GRANT ALL PRIVILEGES ON *.* TO `root`@`%` WITH GRANT OPTION'])).toEqual([
      'GRANT OPTION',
      'ALL PRIVILEGES',
    ]);
    expect(mysqlPrivilegeWarnings(['GRANT SELECT ON `shop`.* TO `app`@`%` WITH GRANT OPTION'])).toEqual([
      'GRANT OPTION',
    ]);
  });

  it('ClickHouse: ALL on *.*, FILE, URL, REMOTE, access management', () => {
    expect(clickhousePrivilegeWarnings(['GRANT SELECT ON shop.* TO app'])).toEqual([]);
    expect(clickhousePrivilegeWarnings(['GRANT SELECT, URL, REMOTE ON *.* TO app'])).toEqual([
      'URL',
      'REMOTE',
    ]);
    expect(clickhousePrivilegeWarnings(['GRANT ALL ON *.* TO default WITH GRANT OPTION'])).toEqual([
      'GRANT OPTION',
      'ALL',
    ]);
  });

  it('Redis: every command, admin, dangerous or scripting categories, no password', () => {
    expect(redisPrivilegeWarnings(['on'], '-@all +@read -@dangerous')).toEqual([]);
    expect(redisPrivilegeWarnings(['on', 'nopass', 'allkeys', 'allcommands'], '+@all')).toEqual([
      '+@all',
      'allcommands',
      'nopass',
    ]);
    expect(redisPrivilegeWarnings(['on'], '-@all +@read +eval')).toEqual(['+eval']);
  });
});
