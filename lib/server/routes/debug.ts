// /debug/api_priority_and_fairness/dump_*: APF's state as text tables (../flowcontrol/debug-dump.ts); absent with APF off.
import type { Router } from 'express';
import { exactPath, getOnly, localsOf } from './route';

const DUMPS = ['dump_priority_levels', 'dump_queues', 'dump_requests'];

/** `dump(path, query)`: the dump's text for a path it serves, else undefined. */
export function debugRoutes(
  router: Router,
  dump: ((path: string, query: URLSearchParams) => string | undefined) | undefined,
): void {
  if (!dump) return;
  for (const name of DUMPS) {
    const path = `/debug/api_priority_and_fairness/${name}`;
    router.get(path, getOnly, exactPath, (_req, res, next) => {
      const text = dump(path, localsOf(res).query);
      if (text === undefined) return next();
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(text);
    });
  }
}
