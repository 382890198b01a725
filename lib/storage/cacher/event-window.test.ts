import { EventWindow } from './event-window';
import type { CachedEvent } from '../../apimachinery/watch/cached-event';

function event(revision: number, time = 0): CachedEvent {
  return { type: 'ADDED', key: `/k/${revision}`, object: { metadata: { name: String(revision) } }, revision, time };
}

describe('EventWindow', () => {
  it('replays the events after a revision, oldest first', () => {
    const w = new EventWindow({ capacity: 10, minAgeMs: 60_000, startRevision: 5, now: () => 0 });
    for (const rev of [6, 8, 9, 12]) w.push(event(rev));
    expect(w.since(5)?.map((e) => e.revision)).toEqual([6, 8, 9, 12]);
    expect(w.since(8)?.map((e) => e.revision)).toEqual([9, 12]);
    expect(w.since(10)?.map((e) => e.revision)).toEqual([12]);
    expect(w.since(12)).toEqual([]);
    expect(w.since(40)).toEqual([]);
  });

  it('refuses a revision older than what it holds', () => {
    const w = new EventWindow({ capacity: 10, minAgeMs: 60_000, startRevision: 5, now: () => 0 });
    w.push(event(6));
    expect(w.since(4)).toBeUndefined();
  });

  it('drops the oldest events beyond its capacity, moving its start', () => {
    const w = new EventWindow({ capacity: 3, minAgeMs: 60_000, startRevision: 0, now: () => 0 });
    for (let rev = 1; rev <= 2000; rev++) w.push(event(rev));
    expect(w.size).toBe(3);
    expect(w.startRevision).toBe(1997);
    expect(w.since(1996)).toBeUndefined();
    expect(w.since(1997)?.map((e) => e.revision)).toEqual([1998, 1999, 2000]);
  });

  it('keeps events younger than its minimum age, and lets older ones go', () => {
    let now = 0;
    const w = new EventWindow({ capacity: 100, minAgeMs: 1000, startRevision: 0, now: () => now });
    w.push(event(1, 0));
    now = 700;
    w.push(event(2, 700));
    expect(w.since(0)?.length).toBe(2);
    now = 1600;
    w.push(event(3, 1600));
    expect(w.since(1)?.map((e) => e.revision)).toEqual([2, 3]);
    expect(w.since(0)).toBeUndefined();
  });

  it('starts over from a revision after reset', () => {
    const w = new EventWindow({ capacity: 10, minAgeMs: 60_000, startRevision: 0, now: () => 0 });
    w.push(event(1));
    w.reset(50);
    expect(w.size).toBe(0);
    expect(w.since(49)).toBeUndefined();
    expect(w.since(50)).toEqual([]);
  });
});
