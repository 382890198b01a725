// The frame of a wrk benchmark comparing builds on one etcd: this build and, with BENCH_BASE_SCRIPT, another build's
// dist/cmd/apiserver.js, each round on the same embedded etcd in a temporary directory (removed afterwards).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedEtcd } from '../../lib/server/embedded-etcd';
import { findWrk } from './wrk-load';

/** A build under test: `script` is another build's dist/cmd/apiserver.js, undefined for this one. */
export interface Build {
  name: string;
  script: string | undefined;
}

/** `base` (when given) then this build. */
export function abBuilds(base: string | undefined): Build[] {
  return [...(base ? [{ name: 'base', script: base }] : []), { name: 'this', script: undefined }];
}

/** Runs `body` with wrk's path, a fresh embedded etcd's client URL and a scratch directory; then stops and removes both. */
export async function withWrkAndEtcd<T>(
  bench: string,
  body: (wrk: string, etcdUrl: string, dir: string) => Promise<T>,
): Promise<T> {
  const wrk = findWrk();
  if (!wrk) throw new Error(`${bench} needs wrk on PATH`);
  const dir = mkdtempSync(join(tmpdir(), `orch-bench-${bench}-`));
  try {
    const etcd = await startEmbeddedEtcd(join(dir, 'etcd'));
    try {
      return await body(wrk, etcd.clientUrl, dir);
    } finally {
      await etcd.stop().catch(() => undefined);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
