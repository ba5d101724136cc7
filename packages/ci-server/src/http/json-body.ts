// How the control plane reads JSON request bodies, for every route: the bytes must be valid UTF-8 (a clear
// 400 instead of Fastify's misleading "size did not match Content-Length"), a whitespace-only body is "no
// body" (what many clients send on a bare POST), nesting deeper than MAX_JSON_DEPTH is refused before
// parsing (10,000-deep input would otherwise overflow the stack while validating or serialising), and the
// rest goes to Fastify's own parser, prototype-poisoning protection included. Plain text bodies are not
// accepted anywhere (415), so a wrong content type is never mistaken for a string body.
import { badRequest } from '@app/kit';
import type { FastifyInstance } from 'fastify';

/** Deepest accepted nesting of objects and arrays in a request body. */
export const MAX_JSON_DEPTH = 64;

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The deepest nesting of `text` (JSON), counting only brackets outside strings. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return deepest;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function registerJsonBodies(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      return done(badRequest('Request body is not valid UTF-8'), undefined);
    }
    if (text.trim() === '') return done(null, undefined);
    if (jsonDepth(text) > MAX_JSON_DEPTH)
      return done(
        badRequest(`Request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`),
        undefined,
      );
    json(request, text, done);
  });
}
