// Background propagation: dependents whose owners are gone are collected, as Kubernetes' garbage collector does (issue 14, item 4).
import { randomUUID } from 'node:crypto';
import { Etcd3 } from 'etcd3';
import { startTestServer, createNamespace, eventually, type TestServer } from '../helpers/test-server';
import { aDeployment, anHpa } from '../helpers/fixtures';

let ts: TestServer;
let etcd: Etcd3;
const NS = 'background-gc';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;
const HPAS = `/apis/autoscaling/v1/namespaces/${NS}/horizontalpodautoscalers`;

beforeAll(async () => {
  ts = await startTestServer();
  etcd = new Etcd3({ hosts: ts.etcd.clientUrl });
  await createNamespace(ts.api, NS);
});
afterAll(async () => {
  etcd.close();
  await ts.stop();
});

const ref = (name: string, uid: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  name,
  uid,
  ...extra,
});
const stored = async (key: string): Promise<boolean> => (await etcd.get(key).string()) !== null;
const hpaKey = (name: string): string => `/registry/autoscaling/horizontalpodautoscalers/${NS}/${name}`;
const deploymentKey = (name: string): string => `/registry/apps/deployments/${NS}/${name}`;

async function owner(name: string): Promise<string> {
  const res = await ts.api.post(DEPLOYMENTS, aDeployment(name));
  expect(res.status).toBe(201);
  return res.body.metadata.uid;
}

async function hpaOwnedBy(name: string, refs: Array<Record<string, unknown>>): Promise<void> {
  const hpa = anHpa(name);
  hpa['metadata'].ownerReferences = refs;
  const res = await ts.api.post(HPAS, hpa);
  expect(res.status).toBe(201);
}

describe('background collection', () => {
  it.each([
    ['default policy', ''],
    ['propagationPolicy=Background', '?propagationPolicy=Background'],
  ])('%s: deleting the owner deletes dependents of other kinds, from etcd', async (_, query) => {
    const name = query ? 'bg-explicit' : 'bg-default';
    const uid = await owner(name);
    await hpaOwnedBy(`${name}-hpa`, [ref(name, uid, { blockOwnerDeletion: true, controller: true })]);
    const dep = aDeployment(`${name}-child`);
    dep['metadata'].ownerReferences = [ref(name, uid)];
    expect((await ts.api.post(DEPLOYMENTS, dep)).status).toBe(201);
    // the dependents stay while their owner exists
    await new Promise((r) => setTimeout(r, 300));
    expect(await stored(hpaKey(`${name}-hpa`))).toBe(true);

    const del = await ts.api.delete(`${DEPLOYMENTS}/${name}${query}`);
    expect(del.status).toBe(200);
    await eventually(
      async () => !(await stored(hpaKey(`${name}-hpa`))) && !(await stored(deploymentKey(`${name}-child`))),
      10_000,
      'dependents collected',
    );
    expect((await ts.api.get(`${HPAS}/${name}-hpa`)).status).toBe(404);
  });

  it('a dependent whose owner never existed is deleted', async () => {
    await hpaOwnedBy('ghost-child', [ref('ghost', randomUUID())]);
    await eventually(async () => !(await stored(hpaKey('ghost-child'))), 10_000, 'ghost dependent collected');
  });

  it('a dependent naming an existing owner with another uid is deleted; the owner stays', async () => {
    await owner('real');
    await hpaOwnedBy('mismatch-child', [ref('real', randomUUID())]);
    await eventually(async () => !(await stored(hpaKey('mismatch-child'))), 10_000, 'uid-mismatch dependent collected');
    expect(await stored(deploymentKey('real'))).toBe(true);
  });

  it('a dependent with a live owner keeps it and loses only the dangling reference', async () => {
    const live = await owner('live-owner');
    const goneUid = randomUUID();
    await hpaOwnedBy('two-owners', [ref('live-owner', live), ref('gone-owner', goneUid)]);
    await eventually(
      async () => (await ts.api.get(`${HPAS}/two-owners`)).body.metadata.ownerReferences.length === 1,
      10_000,
      'dangling reference removed',
    );
    const left = await ts.api.get(`${HPAS}/two-owners`);
    expect(left.body.metadata.ownerReferences).toEqual([expect.objectContaining({ name: 'live-owner', uid: live })]);
  });

  it('a dependent whose owner kind is not served is left alone', async () => {
    await hpaOwnedBy('foreign-owner', [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: randomUUID() }]);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await stored(hpaKey('foreign-owner'))).toBe(true);
  });

  it('the dependent of an owner removed behind the server (directly in etcd) is collected', async () => {
    const uid = await owner('offline-owner');
    await hpaOwnedBy('offline-child', [ref('offline-owner', uid)]);
    await etcd.delete().key(deploymentKey('offline-owner'));
    await eventually(async () => !(await stored(hpaKey('offline-child'))), 15_000, 'dependent collected');
  });
});
