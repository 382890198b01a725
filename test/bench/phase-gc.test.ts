// make bench's full-GC timeline, on what a real `node --trace-gc-nvp` process writes.
import { spawnSync } from 'node:child_process';
import { describeFullGcs, FullGcTimeline } from './phase-gc';

describe('FullGcTimeline', () => {
  it("keeps the mark-compacts of a node process's --trace-gc-nvp output, with the time their lines came", () => {
    const from = Date.now();
    const run = spawnSync(
      process.execPath,
      [
        '--trace-gc-nvp',
        '--expose-gc',
        '-e',
        'const keep = []; for (let i = 0; i < 2e5; i++) keep.push({ i }); gc(); gc();',
      ],
      { encoding: 'utf8' },
    );
    expect(run.status).toBe(0);
    const timeline = new FullGcTimeline();
    for (const line of run.stdout.split('\n')) timeline.onLine(line);
    const to = Date.now();
    const pauses = timeline.pausesBetween(from, to);
    expect(pauses.length).toBeGreaterThanOrEqual(2); // the two forced ones; scavenges are not counted
    expect(run.stdout.split('\n').filter((l) => l.includes(' gc=s ')).length).toBeGreaterThan(0);
    for (const ms of pauses) expect(ms).toBeGreaterThan(0);
    expect(timeline.pausesBetween(to + 1, to + 60_000)).toEqual([]);
  });

  it('says how many fell in a phase and the longest pause', () => {
    expect(describeFullGcs([])).toBe('no full GC of the server in the phase');
    expect(describeFullGcs([12.25])).toBe('1 full GC of the server in the phase, longest pause 12.3 ms');
    expect(describeFullGcs([4, 61.5, 9])).toBe('3 full GCs of the server in the phase, longest pause 61.5 ms');
  });
});
