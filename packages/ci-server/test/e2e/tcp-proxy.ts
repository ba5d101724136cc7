// A loopback TCP proxy for fault tests: in front of PostgreSQL it can be cut (every connection dropped, new
// ones refused) and restored on the same port; in front of several control-plane replicas it is the load
// balancer agents connect through (gRPC pass-through: bytes only), each new connection going to the first
// target that accepts it, so an agent whose replica died lands on another when it reconnects.
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface ProxyTarget {
  host: string;
  port: number;
}

export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  /** Connections made to each target port (which replica the agents landed on). */
  readonly connections = new Map<number, number>();

  constructor(
    readonly port: number,
    private readonly targets: ProxyTarget[],
  ) {}

  async up(): Promise<void> {
    const server = createServer((client) => {
      this.track(client);
      client.pause();
      this.open(0, client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.server = server;
  }

  /** Connects `client` to target `i`, or the next one when it refuses; drops the client when none accepts. */
  private open(i: number, client: Socket): void {
    const target = this.targets[i];
    if (!target || client.destroyed) {
      client.destroy();
      return;
    }
    const back = connect(target.port, target.host);
    let connected = false;
    back.once('connect', () => {
      connected = true;
      this.connections.set(target.port, (this.connections.get(target.port) ?? 0) + 1);
      this.track(back);
      // One side gone (a replica SIGKILLed resets its sockets): the other goes too, as a balancer's would.
      back.once('close', () => client.destroy());
      client.once('close', () => back.destroy());
      client.pipe(back).pipe(client);
      client.resume();
    });
    back.once('error', () => {
      if (!connected) this.open(i + 1, client);
    });
  }

  private track(s: Socket): void {
    this.sockets.add(s);
    s.on('close', () => this.sockets.delete(s));
    s.on('error', () => undefined);
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}
