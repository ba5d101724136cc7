// A real smart-HTTP git server for tests: Node's HTTP server in front of `git http-backend` (CGI), with
// optional Basic authentication, on a loopback port.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { dirname } from 'node:path';
import { freePort } from '@app/kit';

export interface GitHttpServer {
  /** `http://127.0.0.1:<port>/<repo name>` */
  urlFor(repoDir: string, auth?: { user: string; password: string }): string;
  /** Authorization headers received (to check that credentials were sent). */
  authHeaders: string[];
  close(): Promise<void>;
}

export async function startGitHttpServer(
  projectRoot: string,
  auth?: { user: string; password: string },
): Promise<GitHttpServer> {
  const authHeaders: string[] = [];
  const expected = auth
    ? `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}`
    : undefined;
  const server: Server = createServer((req, res) => {
    if (req.headers.authorization) authHeaders.push(req.headers.authorization);
    if (expected && req.headers.authorization !== expected) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const cgi = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: projectRoot,
        GIT_HTTP_EXPORT_ALL: '1',
        REQUEST_METHOD: req.method,
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
        REMOTE_USER: auth?.user ?? '',
        REMOTE_ADDR: '127.0.0.1',
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    req.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let headersDone = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      headersDone = true;
      let status = 200;
      for (const line of head.subarray(0, end).toString().split('\r\n')) {
        const i = line.indexOf(':');
        const name = line.slice(0, i).trim();
        const value = line.slice(i + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else res.setHeader(name, value);
      }
      res.writeHead(status);
      res.write(head.subarray(end + 4));
    });
    cgi.stdout.on('end', () => res.end());
  });
  const port = await freePort();
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  return {
    authHeaders,
    urlFor(repoDir, creds) {
      if (dirname(repoDir) !== projectRoot)
        throw new Error('repository must live directly in the project root');
      const userinfo = creds
        ? `${encodeURIComponent(creds.user)}:${encodeURIComponent(creds.password)}@`
        : '';
      return `http://${userinfo}127.0.0.1:${port}/${repoDir.slice(projectRoot.length + 1)}`;
    },
    close: () => new Promise((done) => server.close(() => done())),
  };
}
