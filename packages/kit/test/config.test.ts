import { describe, expect, it } from 'vitest';
import { ConfigError, describeConfig, loadConfig } from '../src/config.js';

const spec = {
  host: { env: 'X_HOST', kind: 'string', default: '127.0.0.1' },
  port: { env: 'X_PORT', kind: 'port', default: 8153, yaml: 'http.port' },
  auth: { env: 'X_AUTH', kind: 'bool', default: true },
  mode: { env: 'X_MODE', kind: 'enum', values: ['a', 'b'], default: 'a' },
  token: { env: 'X_TOKEN', kind: 'string', secret: true },
} as const;

describe('loadConfig', () => {
  it('applies defaults', () => {
    expect(loadConfig(spec, {})).toEqual({
      host: '127.0.0.1',
      port: 8153,
      auth: true,
      mode: 'a',
      token: undefined,
    });
  });

  it('reads the environment over the file', () => {
    const cfg = loadConfig(spec, { X_PORT: '9000', X_AUTH: 'false' }, { http: { port: 7000 }, X_MODE: 'b' });
    expect(cfg.port).toBe(9000);
    expect(cfg.auth).toBe(false);
    expect(cfg.mode).toBe('b');
    expect(loadConfig(spec, {}, { http: { port: 7000 } }).port).toBe(7000);
  });

  it('names every bad setting and what was expected', () => {
    try {
      loadConfig(spec, { X_PORT: 'eighty', X_AUTH: 'maybe', X_MODE: 'c' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const msg = (err as Error).message;
      expect(msg).toContain('X_PORT (environment): expected an integer between 0 and 65535, got "eighty"');
      expect(msg).toContain('X_AUTH (environment): expected true or false');
      expect(msg).toContain('X_MODE (environment): expected one of a, b');
      expect((err as ConfigError).problems).toHaveLength(3);
    }
  });

  it('redacts secrets when described', () => {
    const cfg = loadConfig(spec, { X_TOKEN: 'abc' });
    expect(describeConfig(spec, cfg).X_TOKEN).toBe('[redacted]');
  });
});
