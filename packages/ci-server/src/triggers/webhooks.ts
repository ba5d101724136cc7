// Turning one inbound webhook delivery into runs (decisions.md): find the projects whose git materials name
// the repository (any URL spelling), verify the signature against each one's `WEBHOOK_SECRET` (else the
// global secret of the host), and start one run (cause `webhook`, git_ref the branch or tag, revision the
// pushed commit) in every pipeline of a verified project whose material watches that branch and whose `on`
// admits the event. The delivery id is claimed in the transaction that creates the runs, and each
// (pipeline, revision) is claimed too, so a redelivery, or a poll that saw the same push, starts nothing.
// Every delivery is recorded with its outcome.
import { HttpError, type SecretBox } from '@app/kit';
import type { FastifyBaseLogger } from 'fastify';
import { normaliseBranch, normaliseGitUrl } from '../domain/index.js';
import type { RunEvents } from '../events/run-events.js';
import {
  decodeBody,
  deliveryKey,
  HOSTS,
  header,
  headerLabel,
  isSigned,
  type ParsedDelivery,
  PayloadError,
  type RefChange,
  redactHeaders,
  type ScmHost,
  verifyDelivery,
  wantsSkip,
} from '../scm/index.js';
import { openProjectSecrets } from '../services/secrets.js';
import type { StoreDb } from '../store/database.js';
import { newId, nowIso } from '../store/ids.js';
import type { ConfigRepos } from './config-repo.js';
import type { Deliveries, DeliveryStatus } from './deliveries.js';
import { decideForkRun, type ForkPolicy, forkPolicyOf } from './fork-policy.js';
import { type GitMaterialRow, materialsOfRepository } from './materials.js';
import { type ClaimedRunRequest, claimAndCreateRuns, publishRuns, triggerKey } from './start-runs.js';

/** Largest body accepted (GitHub and GitLab cap push payloads at 20 commits, Bitbucket at 5). */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;
export const PROJECT_SECRET_NAME = 'WEBHOOK_SECRET';

export interface WebhookInput {
  host: ScmHost;
  headers: Record<string, string | string[] | undefined>;
  /** null when the body was larger than WEBHOOK_BODY_LIMIT. */
  raw: Buffer | null;
  bytes: number;
}

export interface WebhookAnswer {
  status: number;
  runs: string[];
  error?: string;
  deliveryRecordId: string;
}

export interface WebhookDeps {
  db: StoreDb;
  box: SecretBox;
  events: RunEvents;
  deliveries: Deliveries;
  /** Projects whose pipelines live in their repository: a push there is read before runs start. */
  configRepos?: ConfigRepos;
  /** The global secret of each host (CI_CONFIG `webhooks.<host>.secret`, else CI_WEBHOOK_SECRET). */
  globalSecret: (host: ScmHost) => string | null;
  log: FastifyBaseLogger;
}

interface Outcome {
  status: DeliveryStatus;
  code: number;
  reason: string;
  runs: string[];
}

const refused = (code: number, reason: string): Outcome => ({ status: 'rejected', code, reason, runs: [] });
const ignored = (reason: string, runs: string[] = []): Outcome => ({
  status: 'ignored',
  code: 200,
  reason,
  runs,
});

export class WebhookService {
  constructor(private readonly deps: WebhookDeps) {}

  async handle(input: WebhookInput): Promise<WebhookAnswer> {
    const info = HOSTS[input.host];
    const event = header(input.headers, info.eventHeader);
    const delivery = input.raw ? deliveryKey(info, input.headers, input.raw) : null;
    const secrets: string[] = [];
    let parsed: ParsedDelivery | null = null;
    let outcome: Outcome;
    try {
      if (input.raw === null) outcome = refused(413, `the body is larger than ${WEBHOOK_BODY_LIMIT} bytes`);
      else if (event === null)
        outcome = refused(400, `the ${headerLabel(info.eventHeader)} header is missing`);
      else {
        parsed = info.parse(event, decodeBody(input.raw, header(input.headers, 'content-type')));
        outcome = await this.verifyAndRun(input, parsed, delivery!, secrets);
      }
    } catch (err) {
      if (!(err instanceof PayloadError)) throw err;
      outcome = refused(400, err.message);
    }
    const first = parsed?.changes[0];
    const recordId = await this.deps.deliveries.record({
      scm: input.host,
      event: event ?? '',
      delivery_id: delivery?.id ?? header(input.headers, info.deliveryHeader),
      status: outcome.status,
      status_code: outcome.code,
      reason: outcome.reason,
      repository: parsed?.repository ?? parsed?.repositoryUrls[0] ?? null,
      ref: first?.gitRef ?? null,
      revision: first?.revision ?? null,
      run_ids: outcome.runs,
      headers: redactHeaders(input.headers),
      raw: input.raw,
      bytes: input.bytes,
      secrets,
      received_at: nowIso(),
    });
    if (outcome.status === 'rejected')
      this.deps.log.warn({ scm: input.host, delivery: recordId, reason: outcome.reason }, 'webhook refused');
    return {
      status: outcome.code,
      runs: outcome.runs,
      error: outcome.status === 'rejected' ? outcome.reason : undefined,
      deliveryRecordId: recordId,
    };
  }

  private async verifyAndRun(
    input: WebhookInput,
    parsed: ParsedDelivery,
    delivery: { id: string | null; key: string },
    secrets: string[],
  ): Promise<Outcome> {
    const info = HOSTS[input.host];
    const raw = input.raw as Buffer;
    const repoKeys = parsed.repositoryUrls.map(normaliseGitUrl);
    const materials = await materialsOfRepository(this.deps.db, repoKeys);
    const projectIds = [...new Set(materials.map((m) => m.projectId))];
    const own = await Promise.all(
      projectIds.map((id) => openProjectSecrets(this.deps.db, this.deps.box, id, [PROJECT_SECRET_NAME])),
    );
    const global = this.deps.globalSecret(input.host);
    for (const s of [...own.map((m) => m.get(PROJECT_SECRET_NAME)), global]) if (s) secrets.push(s);
    if (!isSigned(info, input.headers))
      return refused(401, `the ${headerLabel(info.signatureHeader)} header is missing`);
    if (projectIds.length === 0) {
      if (global === null)
        return refused(
          401,
          'no project watches this repository and no global webhook secret is configured, so the delivery cannot be verified',
        );
      if (!verifyDelivery(info, input.headers, raw, global))
        return refused(
          401,
          `the ${headerLabel(info.signatureHeader)} header does not match the global webhook secret`,
        );
      return ignored('no project watches this repository');
    }
    const verified = new Set<string>();
    projectIds.forEach((id, i) => {
      const secret = own[i].get(PROJECT_SECRET_NAME) ?? global;
      if (secret && verifyDelivery(info, input.headers, raw, secret)) verified.add(id);
    });
    if (verified.size === 0)
      return refused(
        401,
        `the ${headerLabel(info.signatureHeader)} header does not match the webhook secret of any project watching this repository`,
      );
    if (parsed.ignored) return ignored(parsed.ignored);
    const synced = await this.syncDefinitions(parsed, repoKeys, verified);
    const current = synced ? await materialsOfRepository(this.deps.db, repoKeys) : materials;
    return this.startRuns(
      input.host,
      parsed,
      delivery,
      current.filter((m) => verified.has(m.projectId)),
    );
  }

  /**
   * Pipelines as code: a push to the branch a verified project keeps its definition on is applied first
   * (triggers/config-repo.ts), so its runs follow the definition of that commit. True when one was read.
   */
  private async syncDefinitions(parsed: ParsedDelivery, repoKeys: string[], verified: Set<string>) {
    const repos = this.deps.configRepos;
    if (!repos) return false;
    let read = false;
    for (const change of parsed.changes) {
      if (change.kind !== 'push' || !change.branch || !change.revision) continue;
      for (const projectId of await repos.boundTo(repoKeys, change.branch)) {
        if (!verified.has(projectId)) continue;
        const outcome = await repos.sync(projectId, change.revision);
        if (outcome.error)
          this.deps.log.warn({ projectId, error: outcome.error }, 'pipeline definition not applied');
        read = true;
      }
    }
    return read;
  }

  private async startRuns(
    host: ScmHost,
    parsed: ParsedDelivery,
    delivery: { key: string },
    materials: GitMaterialRow[],
  ): Promise<Outcome> {
    const requests: ClaimedRunRequest[] = [];
    const modifications: { m: GitMaterialRow; c: RefChange }[] = [];
    const notes: string[] = [];
    const triggeredBy = `${host}:${parsed.sender ?? 'webhook'}`.slice(0, 200);
    const policies = new Map<string, ForkPolicy>();
    const policyOf = async (projectId: string) => {
      const known = policies.get(projectId);
      if (known) return known;
      const read = await forkPolicyOf(this.deps.db, projectId);
      policies.set(projectId, read);
      return read;
    };
    for (const change of parsed.changes) {
      if (change.kind === 'push' && wantsSkip(change.message)) {
        notes.push(`${change.gitRef}: skipped by the commit message ([skip ci])`);
        continue;
      }
      const watching = materials.filter(
        (m) =>
          m.on.includes(change.kind) &&
          (change.branch === null || normaliseBranch(m.branch) === change.branch),
      );
      if (watching.length === 0) {
        notes.push(
          `no pipeline watches ${change.kind === 'tag' ? 'tags' : `branch ${change.branch}`} for ${change.kind} events`,
        );
        continue;
      }
      const seen = new Set<string>();
      for (const m of watching) {
        if (seen.has(m.pipelineId)) continue;
        seen.add(m.pipelineId);
        // A fork's pull request runs someone else's code: the project's fork policy decides (fork-policy.ts).
        const origin = change.pullRequest;
        const fork = origin?.fromFork
          ? decideForkRun(await policyOf(m.projectId), origin.author, origin.headRepository)
          : null;
        if (fork && !fork.start) {
          notes.push(`pipeline ${m.pipelineId}: ${fork.reason}`);
          continue;
        }
        if (change.kind === 'push') modifications.push({ m, c: change });
        const key =
          change.kind === 'push'
            ? triggerKey('git', m.fingerprint, change.revision)
            : triggerKey(change.kind, normaliseGitUrl(m.url), change.gitRef, change.revision);
        requests.push({
          pipelineId: m.pipelineId,
          cause: 'webhook',
          triggeredBy,
          ref: { gitRef: change.gitRef, revision: change.revision },
          event: change.kind,
          branch: change.branch,
          files: change.files ?? null,
          labels: origin?.labels,
          key,
          source: 'webhook',
          detail: `${change.gitRef}@${change.revision}`,
          fork:
            fork?.start && origin
              ? {
                  headRepository: origin.headRepository,
                  author: origin.author,
                  reason: fork.reason,
                  awaitingApproval: fork.awaitingApproval,
                  secretsWithheld: fork.secretsWithheld,
                }
              : undefined,
        });
      }
    }
    const created = await this.deps.db.transaction().execute(async (trx) => {
      const claimed = await trx
        .insertInto('webhook_delivery_claims')
        .values({ scm: host, delivery_key: delivery.key, claimed_at: nowIso() })
        .onConflict((oc) => oc.columns(['scm', 'delivery_key']).doNothing())
        .returning('delivery_key')
        .executeTakeFirst();
      if (!claimed) return null;
      for (const { m, c } of modifications) {
        await trx
          .insertInto('material_modifications')
          .values({
            id: newId(),
            fingerprint: m.fingerprint,
            url: normaliseGitUrl(m.url),
            branch: c.branch ?? '',
            revision: c.revision,
            author: c.author?.slice(0, 500) ?? null,
            message: c.message,
            committed_at:
              c.committedAt && !Number.isNaN(Date.parse(c.committedAt))
                ? new Date(c.committedAt).toISOString()
                : null,
            source: 'webhook',
            detected_at: nowIso(),
          })
          .onConflict((oc) => oc.columns(['fingerprint', 'revision']).doNothing())
          .execute();
      }
      return claimAndCreateRuns(trx, requests);
    });
    if (created === null) return ignored(`delivery ${delivery.key} was already processed`);
    publishRuns(this.deps.events, created);
    const runs = created.map((r) => r.id);
    if (runs.length > 0)
      return {
        status: 'accepted',
        code: 200,
        reason: notes.join('; ') || `started ${runs.length} run(s)`,
        runs,
      };
    if (requests.length > 0) notes.push('the pipelines already ran for this revision');
    return ignored(notes.join('; ') || 'nothing to build');
  }
}

/** The error a refused delivery answers with (the route throws it so the error handler shapes the body). */
export function refusal(answer: WebhookAnswer): HttpError {
  return new HttpError(answer.status, answer.error ?? 'refused');
}
