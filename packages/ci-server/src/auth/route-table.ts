// The server's route table as registered (method, URL pattern, declared access), kept for the
// authorisation-matrix test and for tooling; collected with an `onRoute` hook installed before any route.
import type { FastifyInstance } from 'fastify';
import type { Access } from './roles.js';

export interface RouteEntry {
  method: string;
  url: string;
  access: Access | undefined;
}

const tables = new WeakMap<FastifyInstance, RouteEntry[]>();

export function recordRouteTable(app: FastifyInstance): void {
  const list: RouteEntry[] = [];
  tables.set(app, list);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const access = (route.config as { access?: Access } | undefined)?.access;
    for (const method of methods) {
      // HEAD is registered automatically beside every GET.
      if (method === 'HEAD') continue;
      list.push({ method, url: route.url, access });
    }
  });
}

/** Routes registered so far on `app` (empty when recording was not installed). */
export function routeTable(app: FastifyInstance): RouteEntry[] {
  return [...(tables.get(app) ?? [])];
}
