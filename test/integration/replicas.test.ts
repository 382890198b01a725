// Two replicas on one etcd: started together they bootstrap once, and what one writes the other serves.
import pino from 'pino';
import { ApiServer } from '../../lib/server/server';
import { parseCommandLine } from '../../lib/server/options/options';
import { startTestEtcd, type TestEtcd } from '../helpers/etcd';
import { ApiClient, eventually } from '../helpers/test-server';
import { aDeployment, FLOWCONTROL } from '../helpers/fixtures';

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
    const stale = await api(1).put('/apis/apps/v1/namespaces/default/deployments/shared', { ...created.body, spec: { ...created.body.spec, replicas: 2 } });
    expect(stale.status).toBe(200);
    const conflict = await api(0).put('/apis/apps/v1/namespaces/default/deployments/shared', { ...created.body, spec: { ...created.body.spec, replicas: 3 } });
    expect(conflict.status).toBe(409);
  });

  it('keep one Dangling writer: a FlowSchema on a missing level is marked once and served by both', async () => {
    await api(1).post(`${FLOWCONTROL}/flowschemas`, {
      apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
      kind: 'FlowSchema',
      metadata: { name: 'lonely' },
      spec: { priorityLevelConfiguration: { name: 'absent' }, rules: [] },
    });
    await eventually(async () => ((await api(0).get(`${FLOWCONTROL}/flowschemas/lonely`)).body.status?.conditions ?? []).length === 1, 5000, 'the Dangling condition');
    const conditions = (await api(1).get(`${FLOWCONTROL}/flowschemas/lonely`)).body.status.conditions;
    expect(conditions).toEqual([expect.objectContaining({ type: 'Dangling', status: 'True' })]);
  });
});
