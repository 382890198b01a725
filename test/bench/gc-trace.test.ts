// The --trace-gc-nvp reader of get-tail.ts, on lines as Node 20's V8 writes them.
import { parseNvpLine, summarizeGc } from './gc-trace';

const SCAVENGE =
  '[4727:0x13a81880]    17493 ms: pause=8.9 mutator=111.8 gc=s reduce_memory=0 time_to_safepoint=0.00 scavenge=8.76 ' +
  'scavenge.parallel=8.28 total_size_before=62450040 total_size_after=49756824 allocated=13230680 promoted=296512 ' +
  'new_space_survived=410920 nodes_promoted=0 promotion_ratio=2.2% promotion_rate=71.3%';
const MARK_COMPACT = '[4727:0x13a81880]    18000 ms: pause=20.3 mutator=300.0 gc=mc reduce_memory=0 promoted=0';

describe('gc-trace', () => {
  it('reads a scavenge line', () => {
    expect(parseNvpLine(SCAVENGE)).toEqual({
      kind: 'scavenge',
      pauseMs: 8.9,
      survivedBytes: 410920,
      promotedBytes: 296512,
      allocatedBytes: 13230680,
    });
  });

  it('skips lines that are no collection', () => {
    expect(parseNvpLine('{"level":40,"msg":"request completed"}')).toBeUndefined();
    expect(
      parseNvpLine('[1:0x1]  10 ms: Scavenge 42.3 (86.1) -> 30.0 (86.1) MB, 2.39 / 0.00 ms  task;'),
    ).toBeUndefined();
  });

  it('sums scavenges and counts mark-compacts apart', () => {
    const records = [SCAVENGE, SCAVENGE.replace('pause=8.9', 'pause=1.1'), MARK_COMPACT].map(parseNvpLine);
    const summary = summarizeGc(records.filter((r) => r !== undefined));
    expect(summary.scavenges).toBe(2);
    expect(summary.pauseAvgMs).toBeCloseTo(5.0);
    expect(summary.pauseMaxMs).toBe(8.9);
    expect(summary.promotedTotalBytes).toBe(2 * 296512);
    expect(summary.promotedKb).toBeCloseTo(296512 / 1024);
    expect(summary.markCompacts).toBe(1);
    expect(summary.markCompactMs).toBe(20.3);
  });
});
