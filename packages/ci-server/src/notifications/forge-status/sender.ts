// Sending one commit-status row of the outbox to its forge. The token is read here, at send time: the project
// secret COMMIT_STATUS_TOKEN, else the SCM credential covering the material's URL (admin settings); it goes
// only into the request's auth header and is cut out of any error kept. Order: a forge keeps the last status
// posted per name, so a row with a later status of the same run is not sent (superseded), and when an older
// status lands after a newer one (two replicas, a slow retry), the newest is queued again.
import type { SecretBox } from '@app/kit';
import { FORGE_STATUS_KIND, FORGE_STATUS_TOKEN_SECRET, type ForgeHost } from '../../domain/forge-status.js';
import { projectSecretAad } from '../../store/auth-secrets.js';
import type { StoreDb } from '../../store/database.js';
import type { ForgeStatusPayload } from '../../store/forge-status-outbox.js';
import { nowIso } from '../../store/ids.js';
import type { NotificationOutboxTable } from '../../store/operations-schema.js';
import type { ScmCredentials } from '../../triggers/credentials.js';
import type { SendResult } from '../channels.js';
import { bitbucketStatusRequest } from './bitbucket.js';
import { githubStatusRequest } from './github.js';
import { gitlabStatusRequest } from './gitlab.js';
import type { StatusInput, StatusRequest } from './request.js';

const TIMEOUT_MS = 10_000;

const BUILD: Record<ForgeHost, (input: StatusInput) => StatusRequest> = {
  github: githubStatusRequest,
  gitlab: gitlabStatusRequest,
  bitbucket: bitbucketStatusRequest,
};

const DISPLAY: Record<ForgeHost, string> = { github: 'GitHub', gitlab: 'GitLab', bitbucket: 'Bitbucket' };

/** Usernames that mean "the password is a token" rather than an account (GitHub, Bitbucket access tokens). */
const TOKEN_USERS = new Set(['x-access-token', 'x-token-auth', 'oauth2']);

export class ForgeStatusSender {
  /**
   * `credentials`: the SCM credentials (triggers/credentials.ts), the token when a project has none of its
   * own; server.ts hands in the one instance, so notifications/ does not reach up into triggers/.
   */
  constructor(
    private readonly db: StoreDb,
    private readonly box: SecretBox,
    private readonly credentials: Pick<ScmCredentials, 'credentialsFor'>,
  ) {}

  /** Later statuses of the same run, newest last (ids are time-ordered). */
  private later(row: NotificationOutboxTable) {
    return this.db
      .selectFrom('notification_outbox')
      .select(['id', 'status'])
      .where('project_id', '=', row.project_id)
      .where('created_at', '>=', row.created_at)
      .where('run_id', '=', row.run_id)
      .where('channel_kind', '=', FORGE_STATUS_KIND)
      .where('id', '>', row.id)
      .orderBy('id')
      .execute();
  }

  /**
   * Before a row is claimed: true when a later status of the run exists, so this one is recorded as not sent
   * (the forge would only show it until the later one arrives) and the deliverer moves on.
   */
  async supersede(row: NotificationOutboxTable): Promise<boolean> {
    if ((await this.later(row)).length === 0) return false;
    await this.db
      .updateTable('notification_outbox')
      .set({
        status: 'failed',
        last_error: 'superseded: a later status of this run replaced it before it was sent',
      })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .execute();
    return true;
  }

  private async token(
    row: NotificationOutboxTable,
    payload: ForgeStatusPayload,
  ): Promise<{ token: string; username: string | null } | null> {
    const secret = await this.db
      .selectFrom('project_secrets')
      .select('value_sealed')
      .where('project_id', '=', row.project_id)
      .where('name', '=', FORGE_STATUS_TOKEN_SECRET)
      .executeTakeFirst();
    if (secret)
      return {
        token: this.box.open(
          secret.value_sealed,
          projectSecretAad(row.project_id, FORGE_STATUS_TOKEN_SECRET),
        ),
        username: payload.username,
      };
    if (!payload.material_url) return null;
    const scm = await this.credentials.credentialsFor(payload.material_url);
    if (!scm) return null;
    const user = TOKEN_USERS.has(scm.username.toLowerCase()) ? null : scm.username;
    return { token: scm.password, username: payload.username ?? user };
  }

  async send(row: NotificationOutboxTable, payload: ForgeStatusPayload): Promise<SendResult> {
    const host = DISPLAY[payload.host];
    if (!host) return { outcome: 'failed', error: `unknown forge ${payload.host}` };
    const auth = await this.token(row, payload);
    if (!auth)
      return {
        outcome: 'failed',
        error: `no token for ${host}: set the project secret ${FORGE_STATUS_TOKEN_SECRET} (PUT /api/v1/projects/{slug}/commit-status with a token) or an SCM credential covering the repository`,
      };
    const request = BUILD[payload.host]({
      apiUrl: payload.api_url,
      repository: payload.repository,
      sha: payload.sha,
      state: payload.state,
      description: payload.description,
      context: payload.context,
      targetUrl: payload.run.url ?? '',
      token: auth.token,
      username: payload.host === 'bitbucket' ? auth.username : null,
    });
    const hide = (text: string) => (auth.token === '' ? text : text.split(auth.token).join('[masked]'));
    let res: Response;
    let text: string;
    try {
      res = await fetch(request.url, {
        method: 'POST',
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      text = await res.text().catch(() => '');
    } catch (err) {
      return { outcome: 'retry', error: hide(`${host} request failed: ${(err as Error).message}`) };
    }
    if (res.status >= 200 && res.status < 300) {
      await this.requeueNewer(row);
      return { outcome: 'delivered', status: res.status };
    }
    const retry = res.status >= 500 || res.status === 408 || res.status === 429;
    const said = hostMessage(text);
    return {
      outcome: retry ? 'retry' : 'failed',
      status: res.status,
      error: hide(`${host} answered ${res.status}${said ? `: ${said}` : ''}`),
    };
  }

  /** This older status reached the forge after a newer one did: queue the newest again, due now. */
  private async requeueNewer(row: NotificationOutboxTable): Promise<void> {
    const later = await this.later(row);
    const newest = later.at(-1);
    if (newest?.status !== 'delivered') return;
    await this.db
      .updateTable('notification_outbox')
      .set({ status: 'pending', next_attempt_at: nowIso(), delivered_at: null })
      .where('id', '=', newest.id)
      .where('status', '=', 'delivered')
      .execute();
  }
}

/** The error message of a host's JSON answer (`{message}`, GitLab `{error}`, Bitbucket `{error: {message}}`). */
function hostMessage(text: string): string | null {
  try {
    const body = JSON.parse(text) as { message?: unknown; error?: unknown };
    const error = body.error as { message?: unknown } | string | undefined;
    const message =
      typeof body.message === 'string'
        ? body.message
        : typeof error === 'string'
          ? error
          : typeof error?.message === 'string'
            ? error.message
            : null;
    return message?.slice(0, 300) ?? null;
  } catch {
    return text.trim() === '' ? null : text.trim().slice(0, 200);
  }
}
