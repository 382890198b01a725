// Leader election on real etcd: exactly one leader among candidates, and handover when the leader stops.
import pino from 'pino';
import { LeaderElection } from '../../lib/server/leader-election';
import { useTestEtcd } from '../helpers/etcd';
import { eventually } from '../helpers/test-server';

const log = pino({ level: process.env['ORCH_TEST_LOG'] ?? 'silent' });
const TTL_SECONDS = 3;

const shared = useTestEtcd();

interface Candidate {
  election: LeaderElection;
  /** 'started' / 'stopped' in call order. */
  calls: string[];
}

/** Each candidate has its own client, as separate apiserver processes would. */
function candidate(key: string, identity: string): Candidate {
  const client = shared.newClient();
  const calls: string[] = [];
  const election = new LeaderElection(client, key, identity, log, TTL_SECONDS);
  election.start(
    () => calls.push('started'),
    () => calls.push('stopped'),
  );
  return { election, calls };
}

const leaders = (cs: Candidate[]): Candidate[] => cs.filter((c) => c.election.isLeader);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('leader election', () => {
  it('elects exactly one of several candidates and keeps it', async () => {
    const cs = [candidate('/elections/one', 'a'), candidate('/elections/one', 'b'), candidate('/elections/one', 'c')];
    try {
      await eventually(async () => leaders(cs).length === 1, 5000, 'a leader');
      const [leader] = leaders(cs);
      // Several keepalive periods and TTLs later the same candidate still leads, alone.
      for (let i = 0; i < 8; i++) {
        await sleep(500);
        expect(leaders(cs)).toEqual([leader]);
      }
      expect(leader?.calls).toEqual(['started']);
      for (const c of cs) if (c !== leader) expect(c.calls).toEqual([]);
    } finally {
      await Promise.all(cs.map((c) => c.election.stop()));
    }
  });

  it('hands over to another candidate within the TTL when the leader stops', async () => {
    const cs = [candidate('/elections/two', 'a'), candidate('/elections/two', 'b')];
    try {
      await eventually(async () => leaders(cs).length === 1, 5000, 'a leader');
      const [leader] = leaders(cs);
      const other = cs.find((c) => c !== leader);
      if (!leader || !other) throw new Error('expected two candidates');
      const stoppedAt = Date.now();
      await leader.election.stop();
      expect(leader.election.isLeader).toBe(false);
      expect(leader.calls).toEqual(['started', 'stopped']);
      await eventually(async () => other.election.isLeader, TTL_SECONDS * 1000, 'handover');
      expect(Date.now() - stoppedAt).toBeLessThan(TTL_SECONDS * 1000);
      expect(other.calls).toEqual(['started']);
    } finally {
      await Promise.all(cs.map((c) => c.election.stop()));
    }
  });

  it('takes over from a crashed leader once its lease expires', async () => {
    // A leader that died without resigning: the key is bound to a lease nobody keeps alive.
    const raw = shared.newClient();
    const crashed = raw.lease(TTL_SECONDS, { autoKeepAlive: false });
    await crashed.put('/elections/three').value('crashed').exec();
    const crashedAt = Date.now();
    const c = candidate('/elections/three', 'b');
    try {
      await sleep(1000);
      expect(c.election.isLeader).toBe(false);
      await eventually(async () => c.election.isLeader, 2 * TTL_SECONDS * 1000, 'takeover after lease expiry');
      expect(Date.now() - crashedAt).toBeGreaterThanOrEqual(TTL_SECONDS * 1000 - 1000);
    } finally {
      await c.election.stop();
    }
  }, 20_000);

  it('steps down when its lease is lost, and one candidate leads again', async () => {
    const cs = [candidate('/elections/four', 'a'), candidate('/elections/four', 'b')];
    try {
      await eventually(async () => leaders(cs).length === 1, 5000, 'a leader');
      const [leader] = leaders(cs);
      if (!leader) throw new Error('expected a leader');
      // Revoking the leader's lease behind its back (what expiry during a partition amounts to).
      const admin = shared.newClient();
      const kv = (await admin.get('/elections/four').exec()).kvs[0];
      if (!kv) throw new Error('no election key');
      await admin.leaseClient.leaseRevoke({ ID: kv.lease });
      await eventually(async () => leader.calls.includes('stopped'), TTL_SECONDS * 1000, 'old leader stepping down');
      // Either candidate may win the new round (the old leader campaigns again with a fresh lease), but only one.
      await eventually(async () => leaders(cs).length === 1, TTL_SECONDS * 1000, 'a new leader');
      await sleep(1500);
      expect(leaders(cs)).toHaveLength(1);
      for (const c of cs) expect(c.calls.join()).toMatch(/^(started,stopped,?)*(started)?$/);
    } finally {
      await Promise.all(cs.map((c) => c.election.stop()));
    }
  });
});
