// The second factor: RFC 6238 codes with one step of skew, replay refusal, the two distinct replies, and
// that it also guards local login when OIDC mode is on.
import { Secret, TOTP } from 'otpauth';
import { afterEach, describe, expect, it } from 'vitest';
import { TotpVerifier } from '../../src/auth/totp.js';
import type { PortalServer } from '../../src/index.js';
import { ADMIN, login, portal, USER } from './helpers.js';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const totp = new TOTP({ secret: Secret.fromBase32(SECRET), algorithm: 'SHA1', digits: 6, period: 30 });
const code = (timestamp: number) => totp.generate({ timestamp });

/** A six-digit code that is valid for none of the steps around `timestamp`. */
function wrongCode(timestamp: number): string {
  const valid = new Set([-2, -1, 0, 1, 2].map((d) => code(timestamp + d * 30_000)));
  for (let n = 0; ; n++) {
    const c = String(n).padStart(6, '0');
    if (!valid.has(c)) return c;
  }
}

describe('TotpVerifier (fixed clock)', () => {
  const T = Date.UTC(2030, 0, 1, 12, 0, 10); // 10 s into a step
  it('accepts the current step and one step either side, refuses two steps away', async () => {
    const v = new TotpVerifier(() => T);
    expect(await v.check('admin', SECRET, code(T))).toBe('accepted');
    expect(await v.check('admin', SECRET, code(T - 30_000))).toBe('accepted');
    expect(await v.check('admin', SECRET, code(T + 30_000))).toBe('accepted');
    expect(await v.check('admin', SECRET, code(T - 60_000))).toBe('invalid');
    expect(await v.check('admin', SECRET, code(T + 60_000))).toBe('invalid');
  });

  it('never accepts a code of the same account and step twice, also inside the skew window', async () => {
    let now = T;
    const v = new TotpVerifier(() => now);
    const c = code(T);
    expect(await v.check('admin', SECRET, c)).toBe('accepted');
    expect(await v.check('admin', SECRET, c)).toBe('reused');
    now = T + 30_000; // the code is now the previous step's, still inside the window
    expect(await v.check('admin', SECRET, c)).toBe('reused');
    // Another account with the same secret keeps its own record.
    expect(await v.check('user', SECRET, c)).toBe('accepted');
  });

  it('refuses malformed codes', async () => {
    const v = new TotpVerifier(() => T);
    for (const bad of ['', '12345', '1234567', 'abcdef', `${code(T)} `]) {
      expect(await v.check('admin', SECRET, bad)).toBe('invalid');
    }
  });

  it('rejects a secret that is not base32 at start, naming the variable', async () => {
    await expect(portal({ ADMIN_TOTP_SECRET: 'not base32!' })).rejects.toThrow(/ADMIN_TOTP_SECRET/);
    await expect(portal({ USER_TOTP_SECRET: 'JBSWY3DP' })).rejects.toThrow(/USER_TOTP_SECRET/);
  });
});

let server: PortalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('login with a second factor', () => {
  it('distinguishes code required from invalid code, accepts a valid code once', async () => {
    server = await portal({ ADMIN_TOTP_SECRET: SECRET });
    const required = await login(server, ADMIN);
    expect(required.statusCode).toBe(401);
    expect(required.json()).toEqual({
      success: false,
      message: 'Two-factor code required',
      totpRequired: true,
    });
    expect(required.headers['set-cookie']).toBeUndefined();

    const wrong = await login(server, { ...ADMIN, code: wrongCode(Date.now()) });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().success).toBe(false);
    expect(wrong.json().message).not.toBe(required.json().message);
    expect(wrong.headers['set-cookie']).toBeUndefined();

    const c = code(Date.now());
    const ok = await login(server, { ...ADMIN, code: c });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ success: true, role: 'admin' });

    const reused = await login(server, { ...ADMIN, code: c });
    expect(reused.statusCode).toBe(401);
    expect(reused.json().message).toBe(wrong.json().message);
  });

  it('does not reveal the second factor before the password is right', async () => {
    server = await portal({ ADMIN_TOTP_SECRET: SECRET });
    const res = await login(server, { email: ADMIN.email, password: 'wrong', code: code(Date.now()) });
    expect(res.json()).toEqual({ success: false, message: 'Invalid email or password' });
  });

  it('guards only the account whose secret is set', async () => {
    server = await portal({ USER_EMAIL: USER.email, USER_PASSWORD: USER.password, USER_TOTP_SECRET: SECRET });
    expect((await login(server, ADMIN)).statusCode).toBe(200);
    expect((await login(server, USER)).json().totpRequired).toBe(true);
    expect((await login(server, { ...USER, code: code(Date.now()) })).json()).toEqual({
      success: true,
      role: 'user',
    });
  });

  it('also guards local login when OIDC mode is on', async () => {
    server = await portal({
      ADMIN_TOTP_SECRET: SECRET,
      PUBLIC_AUTH_PROVIDER: 'oidc',
      OIDC_ISSUER: 'http://127.0.0.1:9/',
      OIDC_CLIENT_ID: 'portal',
      OIDC_CLIENT_SECRET: 'secret',
    });
    expect((await login(server, ADMIN)).json()).toMatchObject({ totpRequired: true });
    expect((await login(server, { ...ADMIN, code: code(Date.now()) })).statusCode).toBe(200);
  });
});
