// Two replicas on one etcd: started together they bootstrap once, and what one writes the other serves.
import pino from 'pino';
import { ApiServer } from '../../lib/server/server';
import { parseCommandLine } from '../../lib/server/options/options';
import { startTestEtcd, type TestEtcd } from '../helpers/etcd';
import { ApiClient, eventually } from '../helpers/test-server';
import { aDeployment, FLOWCONTROL } from '../helpers/fixtures';
import { openWatch } from '../helpers/watch-client';

let etcd: TestEtcd;
let servers: ApiServer[] = [];

function start(): Promise<ApiServer> {
  const parsed = parseCommandLine(['--port=0', `--etcd-servers=${etcd.clientUrl}`]);
  if (parsed.help) throw new Error('unexpected help');
  return ApiServer.start(parsed.options, pino({ level: 'silent' }));
}

beforeAll(async () => {
  etcd = await startTestEtcd();
  servers = await Promise.all([start(), start()]);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.shutdown()));
  await etcd.stop();
});

const api = (i: number): ApiClient => new ApiClient((servers[i] as ApiServer).url);

describe('two replicas started together', () => {
  it('create each built-in namespace and APF object exactly once', async () => {
    const namespaces = (await api(0).get('/api/v1/namespaces')).body.items.map((n: any) => n.metadata.name);
    expect(namespaces.filter((n: string) => n === 'default')).toHaveLength(1);
    const schemas = (await api(1).get(`${FLOWCONTROL}/flowschemas`)).body.items.map((n: any) => n.metadata.name);
    expect(new Set(schemas).size).toBe(schemas.length);
    expect(schemas).toEqual(expect.arrayContaining(['exempt', 'catch-all', 'global-default']));
    for (const i of [0, 1]) expect((await api(i).get('/readyz')).status).toBe(200);
  });

  it('serve what the other wrote, with the same resourceVersion', async () => {
    const created = await api(0).post('/apis/apps/v1/namespaces/default/deployments', aDeployment('shared'));
    expect(created.status).toBe(201);
    const read = await api(1).get('/apis/apps/v1/namespaces/default/deployments/shared');
    expect(read.body.metadata.resourceVersion).toBe(created.body.metadata.resourceVersion);
    const stale = await api(1).put('/apis/apps/v1/namespaces/default/deployments/shared', {
      ...created.body,
      spec: { ...created.body.spec, replicas: 2 },
    });
    expect(stale.status).toBe(200);
    const conflict = await api(0).put('/apis/apps/v1/namespaces/default/deployments/shared', {
      ...created.body,
      spec: { ...created.body.spec, replicas: 3 },
    });
    expect(conflict.status).toBe(409);
  });

  it('keep one Dangling writer: a FlowSchema on a missing level is marked once and served by both', async () => {
    await api(1).post(`${FLOWCONTROL}/flowschemas`, {
      apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
      kind: 'FlowSchema',
      metadata: { name: 'lonely' },
      spec: { priorityLevelConfiguration: { name: 'absent' }, rules: [] },
    });
    await eventually(
      async () => ((await api(0).get(`${FLOWCONTROL}/flowschemas/lonely`)).body.status?.conditions ?? []).length === 1,
      5000,
      'the Dangling condition',
    );
    const conditions = (await api(1).get(`${FLOWCONTROL}/flowschemas/lonely`)).body.status.conditions;
    expect(conditions).toEqual([expect.objectContaining({ type: 'Dangling', status: 'True' })]);
  });
});

describe('watches across replicas', () => {
  const NS = 'replica-watch';
  const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;

  beforeAll(async () => {
    expect((await api(0).post('/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
  });

  it('a write through A reaches a watch on B with the resourceVersion A answered', async () => {
    const from = (await api(1).get(DEPLOYMENTS)).body.metadata.resourceVersion;
    const watch = await openWatch((servers[1] as ApiServer).url, `${DEPLOYMENTS}?watch=1&resourceVersion=${from}`);
    const created = await api(0).post(DEPLOYMENTS, aDeployment('across'));
    const [event] = await watch.next(1);
    expect(event).toMatchObject({
      type: 'ADDED',
      object: {
        metadata: {
          name: 'across',
          resourceVersion: created.body.metadata.resourceVersion,
          uid: created.body.metadata.uid,
        },
      },
    });
    watch.close();
  });

  it('a client that loses its watch on A re-watches B from its last resourceVersion and misses nothing', async () => {
    const from = (await api(0).post(DEPLOYMENTS, aDeployment('resume-0'))).body.metadata.resourceVersion;
    const onA = await openWatch((servers[0] as ApiServer).url, `${DEPLOYMENTS}?watch=1&resourceVersion=${from}`);
    await api(0).post(DEPLOYMENTS, aDeployment('resume-1'));
    const [seen] = await onA.next(1);
    onA.close();
    const missed = ['resume-2', 'resume-3', 'resume-4'];
    for (const name of missed) await api(0).post(DEPLOYMENTS, aDeployment(name));
    await api(1).patch(`${DEPLOYMENTS}/resume-1`, { spec: { replicas: 3 } });
    const onB = await openWatch(
      (servers[1] as ApiServer).url,
      `${DEPLOYMENTS}?watch=1&resourceVersion=${seen?.object.metadata.resourceVersion}`,
    );
    const events = await onB.next(4);
    expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual([
      'ADDED resume-2',
      'ADDED resume-3',
      'ADDED resume-4',
      'MODIFIED resume-1',
    ]);
    onB.close();
  });

  it('serve the same resourceVersion=0 list once both caches have caught up', async () => {
    const rv = (await api(0).post(DEPLOYMENTS, aDeployment('cached-both'))).body.metadata.resourceVersion;
    const names = async (i: number): Promise<string[]> => {
      const res = await api(i).get(`${DEPLOYMENTS}?resourceVersion=${rv}`);
      return res.body.items.map((o: any) => `${o.metadata.name}@${o.metadata.resourceVersion}`);
    };
    expect(await names(1)).toEqual(await names(0));
  });
});
