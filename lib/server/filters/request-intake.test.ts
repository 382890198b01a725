import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { RequestIntake } from './request-intake';

const response = (): ServerResponse => new ServerResponse(new IncomingMessage(new Socket()));

/** Busy for `ms` of wall time (a request's synchronous work). */
function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

const nextTurn = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('RequestIntake', () => {
  it('lets requests through at once while the pass has budget and nothing waits', () => {
    const intake = new RequestIntake(50);
    expect(intake.mayRunNow()).toBe(true);
    expect(intake.mayRunNow()).toBe(true);
    expect(intake.waiting).toBe(0);
  });

  it('defers once the pass has spent its budget, and opens a new window in the next pass', async () => {
    const intake = new RequestIntake(2);
    expect(intake.mayRunNow()).toBe(true);
    spin(3);
    expect(intake.mayRunNow()).toBe(false);
    await nextTurn();
    expect(intake.mayRunNow()).toBe(true);
  });

  it('runs deferred requests in order, those holding seats first, in slices that let I/O in between', async () => {
    const intake = new RequestIntake(4);
    const ran: string[] = [];
    for (let i = 0; i < 6; i++) {
      intake.defer(response(), () => {
        ran.push(`a${i}`);
        spin(3);
      });
    }
    intake.defer(response(), () => ran.push('resumed'), true);
    // While requests wait, new ones queue behind them even in a fresh pass.
    expect(intake.mayRunNow()).toBe(false);
    let timerTurns = 0;
    const timer = setInterval(() => timerTurns++, 0);
    await nextTurn();
    // One slice: the resumed request, then arrivals until the 4 ms budget is spent (2 of 3 ms each at most).
    expect(ran[0]).toBe('resumed');
    expect(ran.length).toBeGreaterThanOrEqual(2);
    expect(ran.length).toBeLessThanOrEqual(3);
    while (intake.waiting > 0) await new Promise((r) => setTimeout(r, 1));
    clearInterval(timer);
    expect(ran).toEqual(['resumed', 'a0', 'a1', 'a2', 'a3', 'a4', 'a5']);
    expect(timerTurns).toBeGreaterThan(0);
    expect(intake.waiting).toBe(0);
  });

  it('tells a deferred request that its client left', async () => {
    const intake = new RequestIntake(4);
    const left = response();
    const stays = response();
    const outcomes: [string, boolean][] = [];
    intake.defer(left, (gone) => outcomes.push(['left', gone]));
    intake.defer(stays, (gone) => outcomes.push(['stays', gone]));
    left.emit('close');
    await nextTurn();
    expect(outcomes).toEqual([
      ['left', true],
      ['stays', false],
    ]);
    expect(left.listenerCount('close')).toBe(0);
    expect(stays.listenerCount('close')).toBe(0);
  });
});
