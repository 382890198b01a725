import { RevisionLedger } from './revision-ledger';

describe('RevisionLedger', () => {
  it('covers a range only when every revision in it was recorded by a cache on the ledger', () => {
    const ledger = new RevisionLedger();
    expect(ledger.join('/r/a/')).toBe(true);
    expect(ledger.join('/r/b/')).toBe(true);
    ledger.record('/r/a/', [11, 12]);
    ledger.record('/r/b/', [14]);
    expect(ledger.covers(10, 12)).toBe(true);
    expect(ledger.covers(10, 14)).toBe(false); // 13: nobody's event (yet)
    ledger.record('/r/b/', [13]);
    expect(ledger.covers(10, 14)).toBe(true);
    expect(ledger.covers(10, 15)).toBe(false); // beyond anything recorded
    expect(ledger.covers(14, 14)).toBe(true);
    expect(ledger.covers(9, 14)).toBe(false);
  });

  it('leaves out caches whose prefixes contain one another, including ones that joined earlier', () => {
    const ledger = new RevisionLedger();
    expect(ledger.join('/r/apps/')).toBe(true);
    expect(ledger.join('/r/other/')).toBe(true);
    expect(ledger.join('/r/apps/deployments/')).toBe(false);
    expect(ledger.includes('/r/apps/')).toBe(false);
    expect(ledger.includes('/r/other/')).toBe(true);
    expect(ledger.join('/r/other/')).toBe(false); // the same prefix twice: two caches of one prefix
    ledger.record('/r/apps/', [1]);
    expect(ledger.covers(0, 1)).toBe(false);
  });

  it('forgets revisions over a million older than the newest, and reuses their slots cleanly', () => {
    const ledger = new RevisionLedger();
    ledger.join('/r/a/');
    ledger.record('/r/a/', [5, 6]);
    expect(ledger.covers(4, 6)).toBe(true);
    const far = 5 + (1 << 20); // the slot revision 5 used
    ledger.record('/r/a/', [far + 1]);
    expect(ledger.covers(4, 6)).toBe(false);
    expect(ledger.covers(far - 1, far + 1)).toBe(false); // far and far − 1 were never recorded: slots cleared
    ledger.record('/r/a/', [far]);
    expect(ledger.covers(far - 1, far + 1)).toBe(true);
  });

  it('wakes a waiter once the range is covered, and times out otherwise', async () => {
    const ledger = new RevisionLedger();
    ledger.join('/r/a/');
    const covered = ledger.waitCovers(() => 20, 22, 1000);
    ledger.record('/r/a/', [21]);
    ledger.record('/r/a/', [22]);
    await expect(covered).resolves.toBe(true);
    await expect(ledger.waitCovers(() => 22, 23, 20)).resolves.toBe(false);
    let from = 22;
    const moved = ledger.waitCovers(() => from, 30, 1000);
    from = 30; // the waiting cache reached 30 by itself (e.g. a progress notification)
    ledger.recheck();
    await expect(moved).resolves.toBe(true);
  });
});
