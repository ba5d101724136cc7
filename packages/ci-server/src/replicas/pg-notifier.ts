// PostgreSQL LISTEN/NOTIFY for replicas on one database: one dedicated connection LISTENs on the channels
// (a pooled connection cannot: LISTEN belongs to a session), and `send` calls pg_notify on a short-lived
// client of its own pool, after the data it announces was committed. The listening connection reconnects
// with a growing pause after a PostgreSQL outage; each (re)connection calls `onConnected`, because
// notifications sent while nobody listened are gone and the caller must resync from the store.
import pg from 'pg';

export interface PgNotifierOptions {
  url: string;
  channels: string[];
  onNotification(channel: string, payload: string): void;
  /** After the first connection and after every reconnection (resync: notifications may have been lost). */
  onConnected?(): void;
  log: { warn(obj: object, msg: string): void };
  /** First and largest pause between reconnection attempts; 250 ms and 5 s. */
  retryMs?: { first: number; max: number };
}

/** NOTIFY payloads are limited to 8000 bytes by PostgreSQL; senders split above this. */
export const MAX_PAYLOAD_BYTES = 7_500;

export class PgNotifier {
  private listener?: pg.Client;
  private readonly pool: pg.Pool;
  private stopped = false;
  private retryTimer?: NodeJS.Timeout;
  private pause: number;
  private connecting?: Promise<void>;

  constructor(private readonly options: PgNotifierOptions) {
    this.pause = options.retryMs?.first ?? 250;
    // A pool of its own, so notifications never queue behind the main pool's long transactions; of one
    // connection, so they are sent (and delivered) in the order they were made.
    this.pool = new pg.Pool({ connectionString: options.url, max: 1, connectionTimeoutMillis: 5_000 });
    this.pool.on('error', () => {});
    this.pool.on('connect', (client) => client.on('error', () => {}));
  }

  /** True while the listening connection is up. */
  get listening(): boolean {
    return this.listener !== undefined;
  }

  /** Connects (retrying in the background when the database is down); resolves after the first attempt. */
  start(): Promise<void> {
    this.stopped = false;
    return this.connect();
  }

  private connect(): Promise<void> {
    if (this.connecting) return this.connecting;
    this.connecting = this.attempt().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async attempt(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.options.url, connectionTimeoutMillis: 5_000 });
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      if (this.listener === client) this.listener = undefined;
      client.removeAllListeners('notification');
      void client.end().catch(() => {});
      if (!this.stopped) {
        this.options.log.warn({ err: err?.message }, 'replica notifications: connection lost, reconnecting');
        this.retryLater();
      }
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    try {
      await client.connect();
      for (const channel of this.options.channels) await client.query(`LISTEN ${quoteIdent(channel)}`);
    } catch (err) {
      onLost(err as Error);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => {});
      return;
    }
    client.on('notification', (n) => {
      if (n.payload !== undefined) this.options.onNotification(n.channel, n.payload);
    });
    this.listener = client;
    this.pause = this.options.retryMs?.first ?? 250;
    this.options.onConnected?.();
  }

  private retryLater(): void {
    if (this.retryTimer || this.stopped) return;
    const wait = this.pause;
    this.pause = Math.min(this.pause * 2, this.options.retryMs?.max ?? 5_000);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect();
    }, wait);
    this.retryTimer.unref();
  }

  /** Sends one notification; a failure (database down) is reported to the caller, who may ignore it. */
  async send(channel: string, payload: string): Promise<void> {
    await this.pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
  }

  /**
   * Sends one notification per payload on `channel` in one statement (one round trip, one commit; each is
   * delivered on its own, so a listener sees exactly what `send` would have sent).
   */
  async sendMany(channel: string, payloads: string[]): Promise<void> {
    if (payloads.length === 1) return this.send(channel, payloads[0]);
    if (payloads.length === 0) return;
    await this.pool.query('SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p', [channel, payloads]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    await this.connecting;
    const client = this.listener;
    this.listener = undefined;
    if (client) {
      client.removeAllListeners('notification');
      await client.end().catch(() => {});
    }
    await this.pool.end().catch(() => {});
  }
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
