// A Cacher for tests: objects keyed by name under `prefix`, no bookmarks or window expiry within a test's time, silent
// logs; `more` overrides any option. It is started (filling from `storage`) before it is returned.
import pino from 'pino';
import { Cacher, type CacherOptions } from '../cacher/cacher';
import type { Storage } from '../storage';

export function startedCacher(storage: Storage, prefix: string, more: Partial<CacherOptions> = {}): Cacher {
  const cacher = new Cacher({
    storage,
    prefix,
    keyOf: (o) => `${prefix}${o.metadata.name}`,
    capacity: 1000,
    minAgeMs: 60_000,
    bookmarkIntervalMs: 60_000,
    log: pino({ level: 'silent' }),
    ...more,
  });
  cacher.start();
  return cacher;
}
