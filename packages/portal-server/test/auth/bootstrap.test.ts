// First-boot secrets: generated into PORTAL_DATA_DIR/auth-bootstrap.json (mode 0600), printed once, reused;
// AUTH_BOOTSTRAP off makes missing ones a startup error; a short JWT_SECRET exits with code 1.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '@app/kit';
import { serviceArgs, tempDir } from '@app/kit/testing';
import { describe, expect, it } from 'vitest';
import { AUTH_BOOTSTRAP_FILE, bootstrapAuthSecrets, StartupError } from '../../src/bootstrap.js';
import { createPortalServer, loadPortalSettings } from '../../src/index.js';

const ROOT = resolve(import.meta.dirname, '../../../..');

function settings(env: Record<string, string>) {
  return loadPortalSettings({ PORTAL_DATA_DIR: tempDir('portal-boot-'), ...env });
}

describe('bootstrapAuthSecrets', () => {
  it('generates both secrets once into a 0600 JSON file and reuses them on the next boot', () => {
    const s = settings({});
    const first = bootstrapAuthSecrets(s);
    const path = join(s.dataDir, AUTH_BOOTSTRAP_FILE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(path, 'utf8'));
    expect(stored).toEqual({ JWT_SECRET: first.jwtSecret, ADMIN_PASSWORD: first.adminPassword });
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(first.adminPassword.length).toBeGreaterThanOrEqual(16);
    expect(first.announcements.join('\n')).toContain(first.adminPassword);
    expect(first.announcements.join('\n')).not.toContain(first.jwtSecret);

    const second = bootstrapAuthSecrets(s);
    expect(second).toEqual({
      jwtSecret: first.jwtSecret,
      adminPassword: first.adminPassword,
      announcements: [],
    });
  });

  it('takes values from the environment and generates only the missing one', () => {
    const s = settings({ ADMIN_PASSWORD: 'chosen-password' });
    const out = bootstrapAuthSecrets(s);
    expect(out.adminPassword).toBe('chosen-password');
    const stored = JSON.parse(readFileSync(join(s.dataDir, AUTH_BOOTSTRAP_FILE), 'utf8'));
    expect(stored).toEqual({ JWT_SECRET: out.jwtSecret });
    expect(out.announcements).toHaveLength(1);
    expect(out.announcements[0]).toMatch(/JWT_SECRET/);
  });

  it('writes nothing when both are given', () => {
    const s = settings({ ADMIN_PASSWORD: 'pw', JWT_SECRET: 'x'.repeat(32) });
    expect(bootstrapAuthSecrets(s).announcements).toEqual([]);
    expect(existsSync(join(s.dataDir, AUTH_BOOTSTRAP_FILE))).toBe(false);
  });

  it.each(['off', 'false', '0'])(
    'AUTH_BOOTSTRAP=%s makes missing secrets a startup error naming them',
    (v) => {
      const s = settings({ AUTH_BOOTSTRAP: v });
      expect(() => bootstrapAuthSecrets(s)).toThrow(ConfigError);
      expect(() => bootstrapAuthSecrets(s)).toThrow(/JWT_SECRET[\s\S]*ADMIN_PASSWORD/);
      expect(existsSync(join(s.dataDir, AUTH_BOOTSTRAP_FILE))).toBe(false);
      const onlyPassword = settings({ AUTH_BOOTSTRAP: v, JWT_SECRET: 'y'.repeat(40) });
      expect(() => bootstrapAuthSecrets(onlyPassword)).toThrow(/ADMIN_PASSWORD/);
    },
  );

  it('refuses a JWT_SECRET under 32 characters, from the environment or the file', () => {
    expect(() => bootstrapAuthSecrets(settings({ JWT_SECRET: 'z'.repeat(31), ADMIN_PASSWORD: 'p' }))).toThrow(
      StartupError,
    );
    const s = settings({});
    writeFileSync(join(s.dataDir, AUTH_BOOTSTRAP_FILE), JSON.stringify({ JWT_SECRET: 'short' }), {
      mode: 0o600,
    });
    expect(() => bootstrapAuthSecrets(s)).toThrow(/at least 32 characters/);
  });

  it('lets the generated administrator sign in', async () => {
    const s = settings({});
    const { adminPassword } = bootstrapAuthSecrets(s);
    const server = await createPortalServer(s, { logger: false });
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'admin@localhost', password: adminPassword },
    });
    expect(res.json()).toEqual({ success: true, role: 'admin' });
    await server.close();
  });
});

/**
 * Runs the real entry point (its bundle, as `npm start` and production run it) until it listens (then stops
 * it) or exits; returns its output and exit code.
 */
function runMain(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, serviceArgs('portal'), {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('database portal listening')) child.kill('SIGTERM');
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', fail);
    child.on('exit', (code) => done({ code, output }));
  });
}

describe('the portal process', () => {
  it('exits with code 1 when JWT_SECRET is under 32 characters', async () => {
    const { code, output } = await runMain({
      PORTAL_DATA_DIR: tempDir('portal-main-'),
      JWT_SECRET: 'too-short-secret',
      ADMIN_PASSWORD: 'pw',
    });
    expect(code).toBe(1);
    expect(output).toMatch(/JWT_SECRET .*at least 32 characters/);
    expect(output).not.toContain('too-short-secret');
  });

  it.each([
    ['JWT_SECRET missing', { ADMIN_PASSWORD: 'given-password' }],
    ['ADMIN_PASSWORD missing', { JWT_SECRET: 'k'.repeat(40) }],
  ])('exits with code 1 when AUTH_BOOTSTRAP=off and %s', async (_name, env) => {
    const dataDir = tempDir('portal-main-');
    const { code, output } = await runMain({ PORTAL_DATA_DIR: dataDir, AUTH_BOOTSTRAP: 'off', ...env });
    expect(code).toBe(1);
    expect(output).toMatch(/required because AUTH_BOOTSTRAP is off/);
    expect(output).not.toContain('database portal listening');
    expect(existsSync(join(dataDir, AUTH_BOOTSTRAP_FILE))).toBe(false);
  });

  it('prints the generated administrator password on the first boot only', async () => {
    const dataDir = tempDir('portal-main-');
    const first = await runMain({ PORTAL_DATA_DIR: dataDir });
    expect(first.output).toContain('database portal listening');
    const stored = JSON.parse(readFileSync(join(dataDir, AUTH_BOOTSTRAP_FILE), 'utf8'));
    expect(statSync(join(dataDir, AUTH_BOOTSTRAP_FILE)).mode & 0o777).toBe(0o600);
    const printed = first.output.split('\n').filter((l) => l.includes(stored.ADMIN_PASSWORD));
    expect(printed).toHaveLength(1);
    expect(JSON.parse(printed[0]).level).toBe(40); // a warning, which `npm start` echoes
    expect(first.output).not.toContain(stored.JWT_SECRET);

    const second = await runMain({ PORTAL_DATA_DIR: dataDir });
    expect(second.output).toContain('database portal listening');
    expect(second.output).not.toContain(stored.ADMIN_PASSWORD);
    expect(second.output).not.toContain('Generated');
  });
});
