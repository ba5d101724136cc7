// Account provisioning behind its routes: resolves the datasource (404 unknown, 503 unavailable, 403 other
// engine family), connects as the datasource's account or the bootstrap one, reads the inventory, builds
// the plan with fresh passwords, and — for a run — refuses on blockers (409) or without a vault (409),
// writes the passwords to the vault first (502 when it refuses; nothing runs then), and runs the statements
// one by one: `ran`, `refused` (stops the run unless optional) or `skipped`. Passwords never leave the
// server except to the vault; engine messages are scrubbed of them. Audited `account_provisioning`.
import { randomBytes } from 'node:crypto';
import { HttpError } from '@app/kit';
import type { ManagedEntry } from '../datasources/types.js';
import type { ProviderCache } from '../providers/cache.js';
import type { ConnectionDescriptor, Provider } from '../providers/types.js';
import { familyTarget } from '../seed/family.js';
import type { SeedAudit } from '../seed/service.js';
import { readInventory } from './inventory.js';
import { accountNames, buildAccountPlan, MASK, type Statement } from './statements.js';
import type { AccountInventory, AccountPlan, AccountRequest, Destination, RanStatement } from './types.js';
import { VaultRefused, type VaultSettings, writeKvSecret } from './vault.js';

export interface AccountServiceDeps {
  datasources: { resolve(id: string): ManagedEntry | undefined };
  providers: ProviderCache;
  audit: SeedAudit;
  /** Undefined when VAULT_ADDR / VAULT_TOKEN are not set. */
  vault?: VaultSettings;
}

export interface PlanAnswer {
  inventory: AccountInventory;
  plan: AccountPlan;
  destination: Destination;
}

export interface RunAnswer extends PlanAnswer {
  plan: AccountPlan & { statements: RanStatement[] };
  completed: boolean;
}

const generatePassword = () => randomBytes(24).toString('base64url');

export class AccountService {
  constructor(private readonly d: AccountServiceDeps) {}

  private target(id: string) {
    const t = familyTarget(
      this.d.datasources,
      id,
      'Account provisioning supports PostgreSQL-style and MySQL/MariaDB engines only',
    );
    return { ...t, engine: t.ds.type, host: t.ds.connection.host, port: t.ds.connection.port };
  }

  /** Runs `fn` connected as the datasource's account, or as the bootstrap account on a pool closed after. */
  private async connect<T>(
    descriptor: ConnectionDescriptor,
    req: AccountRequest,
    fn: (p: Provider) => Promise<T>,
  ): Promise<T> {
    if (!req.bootstrap) return this.d.providers.use(descriptor, fn);
    const boot = {
      ...descriptor,
      user: req.bootstrap.user,
      password: req.bootstrap.password,
      connectionString: undefined,
    };
    let identity: string | undefined;
    try {
      return await this.d.providers.use(boot, (p, id) => {
        identity = id;
        return fn(p);
      });
    } finally {
      // Bootstrap credentials are for this request only: their pool does not outlive it.
      if (identity) await this.d.providers.evict(identity);
    }
  }

  private destination(req: AccountRequest): Destination {
    if (!req.vaultPath)
      return { kind: 'none', reason: 'no vaultPath given: generated passwords would have nowhere to go' };
    if (!this.d.vault)
      return {
        kind: 'none',
        path: req.vaultPath,
        reason: 'no vault is configured (VAULT_ADDR and VAULT_TOKEN)',
      };
    return { kind: 'vault', path: `${this.d.vault.mount}/${req.vaultPath}` };
  }

  private async prepare(id: string, req: AccountRequest, p: Provider) {
    const t = this.target(id);
    const names = accountNames(id, req.profile);
    const accounts = req.agent ? [names.roleName, names.agentRoleName] : [names.roleName];
    const inventory = await readInventory(p, t.family, t.engine, req.schemas, accounts);
    const passwords = new Map(accounts.map((a) => [a, generatePassword()]));
    const built = buildAccountPlan(t.family, req, inventory, names, passwords);
    return { t, inventory, passwords, ...built };
  }

  async plan(id: string, req: AccountRequest, actor: string): Promise<PlanAnswer> {
    const t = this.target(id);
    const answer = await this.connect(t.descriptor, req, async (p) => {
      const { inventory, plan } = await this.prepare(id, req, p);
      return { inventory, plan, destination: this.destination(req) };
    });
    await this.d.audit.record({
      type: 'account_provisioning',
      actor,
      connection: id,
      result: 'success',
      action: 'plan',
      profile: req.profile,
      schemas: req.schemas.length,
      agent: req.agent,
    });
    return answer;
  }

  /** Runs the plan; the answer's `completed` says whether every required statement ran. */
  async run(
    id: string,
    req: AccountRequest,
    actor: string,
  ): Promise<{ status: 200 | 409; body: RunAnswer | (RunAnswer & { error: string }) }> {
    const t = this.target(id);
    return this.connect(t.descriptor, req, async (p) => {
      const { inventory, plan, statements, passwords } = await this.prepare(id, req, p);
      const destination = this.destination(req);
      const skippedAll = (): RanStatement[] => plan.statements.map((s) => ({ ...s, outcome: 'skipped' }));
      const stop = async (error: string, code: string) => {
        await this.d.audit.record({
          type: 'account_provisioning',
          actor,
          connection: id,
          result: 'failure',
          action: 'run',
          reason: error,
        });
        return {
          status: 409 as const,
          body: {
            error,
            code,
            inventory,
            plan: { ...plan, statements: skippedAll() },
            destination,
            completed: false,
          },
        };
      };
      if (plan.blockers.length)
        return stop(`The plan has blockers: ${plan.blockers.join('; ')}`, 'PLAN_BLOCKED');
      if (destination.kind !== 'vault' || !this.d.vault || !req.vaultPath) {
        return stop(
          `There is no vault to write the generated passwords to (${destination.reason})`,
          'NO_VAULT',
        );
      }
      try {
        const written = await writeKvSecret(this.d.vault, `${req.vaultPath}`, {
          engine: t.engine,
          host: t.host ?? null,
          port: t.port ?? null,
          database: inventory.database,
          ...Object.fromEntries([...passwords].map(([user, password]) => [user, password])),
        });
        if (written.version !== undefined) destination.version = written.version;
      } catch (err) {
        if (!(err instanceof VaultRefused)) throw err;
        await this.d.audit.record({
          type: 'account_provisioning',
          actor,
          connection: id,
          result: 'failure',
          action: 'vault',
          reason: err.message,
        });
        throw new HttpError(502, err.message, 'VAULT_REFUSED');
      }
      const ran = await this.execute(p, statements, [...passwords.values()], { actor, id });
      const completed = ran.every((s) => s.outcome === 'ran' || (s.optional && s.outcome === 'refused'));
      await this.d.audit.record({
        type: 'account_provisioning',
        actor,
        connection: id,
        result: completed ? 'success' : 'failure',
        action: 'run',
        profile: req.profile,
        agent: req.agent,
        roleName: plan.roleName,
        vaultPath: destination.path,
        completed,
      });
      const body: RunAnswer = { inventory, plan: { ...plan, statements: ran }, destination, completed };
      return completed
        ? { status: 200, body }
        : { status: 409, body: { ...body, error: 'Stopped at a statement the database refused' } };
    });
  }

  private async execute(
    p: Provider,
    statements: Statement[],
    secrets: string[],
    who: { actor: string; id: string },
  ): Promise<RanStatement[]> {
    const out: RanStatement[] = [];
    let stopped = false;
    const scrub = (m: string) => secrets.reduce((acc, s) => acc.replaceAll(s, MASK), m).slice(0, 500);
    for (const s of statements) {
      const { sql, verify, ...shown } = s;
      if (stopped) {
        out.push({ ...shown, outcome: 'skipped' });
        continue;
      }
      try {
        await p.query(sql, [], { maxRows: 0 });
        if (verify) {
          const check = await p.query(verify.sql, verify.params, { maxRows: 1 });
          if (check.rows[0]?.ok !== true) {
            throw new Error(
              'the database granted nothing: the connecting account holds no grant option here',
            );
          }
        }
        out.push({ ...shown, outcome: 'ran' });
        await this.d.audit.record({
          type: 'account_provisioning',
          actor: who.actor,
          connection: who.id,
          result: 'success',
          action: 'statement',
          statement: s.shown,
        });
      } catch (err) {
        const error = scrub((err as Error).message);
        out.push({ ...shown, outcome: 'refused', error });
        await this.d.audit.record({
          type: 'account_provisioning',
          actor: who.actor,
          connection: who.id,
          result: 'failure',
          action: 'statement',
          statement: s.shown,
          error,
        });
        if (!s.optional) stopped = true;
      }
    }
    return out;
  }
}
