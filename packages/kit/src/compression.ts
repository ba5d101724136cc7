// Response compression for both services: a JSON (or other text) body above a size threshold is sent brotli-
// or gzip-compressed when the client accepts it. Only bodies already in memory (strings, Buffers) are
// touched: streams — log SSE, exports, static files — pass as they are (the web UIs' assets are compressed at
// build and served pre-compressed by @fastify/static). Compression runs on the thread pool (async zlib),
// with a middling brotli quality: a response's bytes shrink ~5-10x at a few milliseconds.
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Bodies below this many bytes go as they are: compressing them saves nothing worth a round of CPU. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

const COMPRESSIBLE = /^(application\/(json|problem\+json|javascript|xml)|text\/|image\/svg\+xml)/i;

/** The encoding to use for an Accept-Encoding header: brotli, then gzip; q=0 refuses one. */
export function chooseEncoding(header: string | undefined): 'br' | 'gzip' | undefined {
  if (!header) return undefined;
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    accepted.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return undefined;
}

export function registerCompression(app: FastifyInstance, threshold = COMPRESS_THRESHOLD_BYTES): void {
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (request.method === 'HEAD' || reply.getHeader('content-encoding')) return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    if (!COMPRESSIBLE.test(type)) return payload;
    // Caches must keep one copy per encoding whether or not this response is compressed.
    reply.header('vary', varyWith(reply.getHeader('vary')));
    // The size is counted, not encoded: a body sent as it is (most API answers, below the threshold or to a
    // client without compression) is encoded once, when it is written.
    const size = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
    if (size < threshold) return payload;
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    if (!encoding) return payload;
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    const compressed =
      encoding === 'br'
        ? await brotli(body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: 5,
              [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          })
        : await gz(body, { level: 6 });
    reply.header('content-encoding', encoding);
    reply.header('content-length', compressed.length);
    return compressed;
  });
}

function varyWith(current: unknown): string {
  const list = String(current ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  if (!list.some((v) => v.toLowerCase() === 'accept-encoding' || v === '*')) list.push('Accept-Encoding');
  return list.join(', ');
}
