// Minimal server-rendered pages so sign-in works before the React UI exists: `/login` (local form, second
// factor, SSO button, `?error=` messages), and placeholders at `/` and `/admin` where sign-in lands. Scripts
// are served as files (`/login.js`) because the CSP forbids inline script.
import type { FastifyInstance } from 'fastify';
import { readSession } from '../http/guard.js';

const LOGIN_ERRORS: Record<string, string> = {
  oidc_not_enabled: 'Single sign-on is not enabled on this portal.',
  provider_unavailable: 'The identity provider could not be reached. Try again shortly.',
  invalid_state: 'The sign-in attempt expired or was tampered with. Please start again.',
  access_denied: 'The identity provider denied the sign-in.',
  provider_error: 'The identity provider reported an error.',
  missing_code: 'The identity provider did not return an authorization code.',
  token_exchange_failed: 'The sign-in could not be verified with the identity provider.',
};

function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

const STYLE = `body{font-family:system-ui,sans-serif;background:#f4f5f7;margin:0;display:flex;min-height:100vh;
align-items:center;justify-content:center}main{background:#fff;padding:2rem;border-radius:8px;width:22rem;
box-shadow:0 1px 4px rgba(0,0,0,.15)}h1{font-size:1.3rem;margin-top:0}label{display:block;margin:.8rem 0 .2rem}
input{width:100%;box-sizing:border-box;padding:.5rem}button,a.button{display:block;width:100%;margin-top:1rem;
padding:.6rem;box-sizing:border-box;text-align:center;background:#2454d6;color:#fff;border:0;border-radius:4px;
text-decoration:none;font-size:1rem;cursor:pointer}a.button{background:#444}.error{color:#b00020;min-height:1.2rem}
[hidden]{display:none}`;

function page(title: string, body: string, script = true): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Database Portal</title><style>${STYLE}</style></head>
<body><main>${body}</main>${script ? '<script src="/login.js"></script>' : ''}</body></html>`;
}

const LOGIN_SCRIPT = `'use strict';
(function () {
  var messages = ${JSON.stringify(LOGIN_ERRORS)};
  var form = document.getElementById('login-form');
  var out = document.getElementById('error');
  var params = new URLSearchParams(location.search);
  if (out && params.get('error')) out.textContent = messages[params.get('error')] || 'Sign-in failed.';
  if (form) form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    var body = { email: form.email.value, password: form.password.value };
    if (form.code.value) body.code = form.code.value;
    fetch('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body), credentials: 'same-origin' })
      .then(function (r) { return r.json(); })
      .then(function (res) {
        if (res.success) { location.href = res.role === 'admin' ? '/admin' : '/'; return; }
        if (res.totpRequired) { document.getElementById('code-row').hidden = false; form.code.focus(); }
        out.textContent = res.message || res.error || 'Sign-in failed.';
      })
      .catch(function () { out.textContent = 'The portal could not be reached.'; });
  });
  var logout = document.getElementById('logout');
  if (logout) logout.addEventListener('click', function () {
    fetch('/api/auth/logout', { method: 'POST', credentials: 'same-origin' })
      .then(function (r) { return r.json(); })
      .then(function (res) { location.href = res.redirectUrl || '/login'; });
  });
})();
`;

export async function registerAuthPages(app: FastifyInstance): Promise<void> {
  const { settings } = app.portalAuth;

  app.get('/login', async (_request, reply) => {
    const sso =
      settings.authProvider === 'oidc'
        ? '<a class="button" id="sso" href="/api/auth/oidc/login">Sign in with single sign-on</a>'
        : '';
    return reply.type('text/html; charset=utf-8').send(
      page(
        'Sign in',
        `<h1>Database Portal</h1>
<p id="error" class="error" role="alert"></p>
<form id="login-form" novalidate>
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<div id="code-row" hidden><label for="code">Two-factor code</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6"></div>
<button type="submit">Sign in</button>
</form>${sso}`,
      ),
    );
  });

  app.get('/login.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(LOGIN_SCRIPT),
  );

  const home = (who: { username: string; role: string }, heading: string) =>
    page(
      heading,
      `<h1>${escapeHtml(heading)}</h1>
<p>Signed in as <strong id="username">${escapeHtml(who.username)}</strong> (<span id="role">${escapeHtml(who.role)}</span>).</p>
<p>The portal's web application is served here once it is built.</p>
<button id="logout" type="button">Sign out</button>`,
    );

  app.get('/', async (request, reply) => {
    const session = await readSession(request);
    if (!session) return reply.redirect('/login', 302);
    return reply.type('text/html; charset=utf-8').send(home(session, 'Database Portal'));
  });

  app.get('/admin', async (request, reply) => {
    const session = await readSession(request);
    if (!session) return reply.redirect('/login', 302);
    if (session.role !== 'admin') return reply.redirect('/', 302);
    return reply.type('text/html; charset=utf-8').send(home(session, 'Administration'));
  });
}
