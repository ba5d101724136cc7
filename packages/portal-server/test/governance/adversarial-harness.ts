// The adversarial corpus runner (issue 27 "prove it"): one portal (the bot harness: SQLite storage, admin and
// user sessions, service tokens) with four managed datasources per engine — read-only, write approval,
// guardrails only, and object rules plus masking — and a corpus of forms sent to them as a user would. Each
// form says what it is: a `write` (refused on read-only, held on the others, never run), a `leak` (a file,
// a credential, a hidden object or a masked value: the answer never holds the secret the test read from the
// engine itself), or a harmless `read` (runs, also on the read-only datasource). The engine is read directly
// before and after (the caller's snapshot) and must be unchanged. A representative subset also goes through
// multi-query, export and the bot API.
import type { LightMyRequestResponse } from 'fastify';
import { RateLimiter } from '../../src/auth/rate-limit.js';
import { ORIGIN } from '../auth/helpers.js';
import { type BotHarness, botPortal } from '../bot/harness.js';

/**
 * `write`: held on every gated datasource, guardrails-only included (the most dangerous class and guarded
 * writes); `change`: an ordinary write (refused on read-only, held under write approval, never sent to the
 * guardrails-only datasource, where it would run); `leak` and `read` as above.
 */
export type FormKind = 'write' | 'change' | 'leak' | 'read';

export interface Form {
  sql: string;
  kind: FormKind;
  /** The guardrail the guardrails-only datasource must name when it holds the form (writes). */
  guardrail?: string;
}

export const w = (sql: string, guardrail?: string): Form => ({
  sql,
  kind: 'write',
  ...(guardrail ? { guardrail } : {}),
});
export const change = (sql: string): Form => ({ sql, kind: 'change' });
export const leak = (sql: string): Form => ({ sql, kind: 'leak' });
export const read = (sql: string): Form => ({ sql, kind: 'read' });

/** The four datasources of one engine: their ids are `<prefix>-ro`, `-gated`, `-guard` and `-rules`. */
export function engineEntries(
  prefix: string,
  entry: (id: string, policy: string) => string,
  rules: { hidden: string[]; defaultSchema: string; masked: string },
): string {
  return [
    entry(`${prefix}-ro`, '{ readOnly: true }'),
    entry(`${prefix}-gated`, '{ writeApproval: true, approverRoles: [admin] }'),
    entry(`${prefix}-guard`, '{ guardrails: true }'),
    entry(
      `${prefix}-rules`,
      `{ readOnly: true, objectRules: { hidden: ${JSON.stringify(rules.hidden)}, defaultSchema: ${JSON.stringify(rules.defaultSchema)} }, masking: [{ column: ${JSON.stringify(rules.masked)}, rule: full }] }`,
    ),
  ].join('');
}

export async function corpusPortal(datasources: string): Promise<BotHarness> {
  const h = await botPortal({ datasources: () => datasources });
  // Hundreds of requests from one person: lift the per-person budget of database routes for this test.
  const auth = (h.server.app as unknown as { portalAuth: { limits: Record<string, RateLimiter> } })
    .portalAuth;
  auth.limits.database = new RateLimiter({ max: 1_000_000, windowMs: 60_000 });
  return h;
}

export function post(
  h: BotHarness,
  url: string,
  payload: Record<string, unknown>,
  who: 'admin' | 'user' = 'user',
) {
  const cookie = `auth-token=${who === 'admin' ? h.adminCookie : h.userCookie}`;
  return h.server.app.inject({ method: 'POST', url, payload, headers: { origin: ORIGIN, cookie } });
}

/** Refusals before governance that run nothing (transaction control, several statements on one-statement routes). */
function refusedEarly(r: LightMyRequestResponse): boolean {
  const code = (r.json() as { code?: string }).code ?? '';
  return r.statusCode === 400 && ['TRANSACTION_CONTROL', 'MULTIPLE_STATEMENTS', 'BAD_REQUEST'].includes(code);
}

export interface Outcome {
  tried: number;
  refused: number;
  held: number;
  ran: number;
  failures: string[];
}

/**
 * Sends every form to the engine's datasources on /api/db/query (and every `subsetEvery`-th also on
 * multi-query, export and the bot API) and collects what went against the form's kind. `secrets` are texts
 * read from the engine directly: `anywhere` no answer may hold (files, credentials), `rules` no answer of the
 * object-rules-and-masking datasource may hold (hidden rows, masked values).
 */
export async function runCorpus(
  h: BotHarness,
  prefix: string,
  forms: Form[],
  secrets: { anywhere: string[]; rules: string[] },
  subsetEvery = 5,
): Promise<Outcome> {
  const out: Outcome = { tried: 0, refused: 0, held: 0, ran: 0, failures: [] };
  const token = (await h.token({ name: `${prefix}-corpus` })).secret;
  // Files and credentials never leave the server; hidden rows and masked values not where the rules hold.
  const leaked = (body: string, ds = '') =>
    [...secrets.anywhere, ...(ds === 'rules' ? secrets.rules : [])].find((s) => s !== '' && body.includes(s));
  for (const [i, f] of forms.entries()) {
    out.tried++;
    const subset = i % subsetEvery === 0;
    const label = (ds: string, route: string, r: { statusCode: number; body: string }) =>
      `${f.kind} ${ds} ${route} ${JSON.stringify(f.sql)} → ${r.statusCode} ${r.body.slice(0, 160)}`;
    if (f.kind === 'read') {
      for (const ds of ['ro', 'guard']) {
        const r = await post(h, '/api/db/query', { connectionId: `${prefix}-${ds}`, sql: f.sql });
        if (r.statusCode !== 200) out.failures.push(label(ds, 'query', r));
        else out.ran++;
      }
      if (subset) {
        const e = await post(h, '/api/db/export', {
          connectionId: `${prefix}-ro`,
          sql: f.sql,
          format: 'json',
        });
        // A harmless read is exported too (the allowlist, not the export's SELECT reader, judges it).
        if (e.statusCode !== 200) out.failures.push(label('ro', 'export', e));
      }
      continue;
    }
    const routes: Array<[string, string]> = [['/api/db/query', 'query']];
    if (subset) routes.push(['/api/db/multi-query', 'multi'], ['/api/db/export', 'export']);
    for (const [url, route] of routes) {
      for (const ds of ['ro', 'gated', 'guard', 'rules']) {
        if (ds === 'guard' && f.kind === 'change') continue;
        const payload: Record<string, unknown> = { connectionId: `${prefix}-${ds}`, sql: f.sql };
        if (route === 'export') payload.format = 'json';
        const r = await post(h, url, payload);
        const body = r.json() as { code?: string; guardrail?: string };
        const secret = leaked(r.body, ds);
        if (secret) {
          out.failures.push(`${label(ds, route, r)} LEAKED ${secret}`);
          continue;
        }
        if (f.kind === 'leak') {
          // A leak form may run only where its answer holds nothing secret (masked whole, filtered); never a 500.
          if (r.statusCode >= 500) out.failures.push(label(ds, route, r));
          if (r.statusCode === 200) out.ran++;
          else out.refused++;
          continue;
        }
        if (refusedEarly(r)) {
          out.refused++;
          continue;
        }
        if (ds === 'ro' || ds === 'rules' || route === 'export') {
          if (r.statusCode === 403 || r.statusCode === 400) out.refused++;
          else out.failures.push(label(ds, route, r));
        } else if (r.statusCode === 403 && body.code === 'APPROVAL_REQUIRED') {
          out.held++;
          // `unverifiable` is the most dangerous class: a form held by it is held whatever guardrail its
          // spelling names. A form expected as `drop` (code the classifier cannot follow) may instead name the
          // guardrail of the statement it carries (`PREPARE s FROM 'DELETE FROM t'`): held all the same.
          const accepted =
            body.guardrail === f.guardrail ||
            body.guardrail === 'unverifiable' ||
            (f.guardrail === 'drop' &&
              ['truncate', 'delete_without_where', 'update_without_where'].includes(body.guardrail ?? ''));
          if (ds === 'guard' && f.guardrail && !accepted)
            out.failures.push(
              `${label(ds, route, r)} (guardrail ${body.guardrail}, expected ${f.guardrail})`,
            );
        } else out.failures.push(label(ds, route, r));
      }
    }
    if (subset) {
      for (const ds of ['ro', 'gated', 'rules']) {
        const r = await h.submit(token, {
          datasourceId: `${prefix}-${ds}`,
          statement: f.sql,
          onBehalfOf: 'user@example.test',
        });
        const secret = leaked(r.body, ds);
        if (secret) out.failures.push(`${label(ds, 'bot', r)} LEAKED ${secret}`);
        else if (f.kind !== 'leak' && ![202, 400, 403].includes(r.statusCode))
          out.failures.push(label(ds, 'bot', r));
      }
    }
  }
  // Nothing a form queued may run later: the held approvals are never approved; the queue is drained.
  await h.drain();
  return out;
}

/** Object listings of the rules datasource as the user never name the hidden object; the administrator's do. */
export async function listingsHide(h: BotHarness, prefix: string, hidden: string): Promise<string[]> {
  const problems: string[] = [];
  for (const route of ['/api/db/objects/list', '/api/db/objects/inventory']) {
    const user = await post(h, route, { connectionId: `${prefix}-rules` });
    const admin = await post(h, route, { connectionId: `${prefix}-rules` }, 'admin');
    if (user.statusCode !== 200) problems.push(`${route} user ${user.statusCode} ${user.body.slice(0, 200)}`);
    if (user.body.includes(hidden)) problems.push(`${route} names ${hidden} to the user`);
    if (admin.statusCode === 200 && !admin.body.includes(hidden))
      problems.push(
        `${route} does not name ${hidden} to the administrator either (the check proves nothing)`,
      );
  }
  return problems;
}
