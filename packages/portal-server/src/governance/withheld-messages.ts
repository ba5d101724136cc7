// Engine messages can quote values back (`invalid input syntax for type integer: "a@b.c"`): when a
// statement reads masked columns, its provider, session and streams are wrapped so that a query error
// says the message was withheld instead (session-governance.ts decides when).
import { ProviderError } from '../providers/errors.js';
import type { Provider, ProviderSession } from '../providers/types.js';

/** A query error with the engine's message replaced; anything else as it was. */
function withhold(err: unknown): never {
  if (err instanceof ProviderError && err.kind === 'query') {
    throw new ProviderError(
      'query',
      "The statement failed; the engine's message is withheld because the statement reads masked columns",
      err.engineCode,
    );
  }
  throw err;
}

async function* withholdStream<T>(it: AsyncIterable<T>): AsyncIterable<T> {
  try {
    yield* it;
  } catch (err) {
    withhold(err);
  }
}

export function withholdSession(s: ProviderSession): ProviderSession {
  return {
    query: (sql, params, opts) => s.query(sql, params, opts).catch(withhold),
    begin: () => s.begin(),
    commit: () => s.commit(),
    rollback: () => s.rollback(),
    close: () => s.close(),
  };
}

/** The provider with every query, session and stream error withheld. */
export function withholdProvider(p: Provider): Provider {
  return new Proxy(p, {
    get(target, prop) {
      if (prop === 'query') {
        return (...a: Parameters<Provider['query']>) => target.query(...a).catch(withhold);
      }
      if (prop === 'openSession') {
        return async () => withholdSession(await target.openSession());
      }
      if (prop === 'stream') {
        return (...a: Parameters<Provider['stream']>) => withholdStream(target.stream(...a));
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
