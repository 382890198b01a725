import { startTestServer, eventually, type TestServer } from '../helpers/test-server';
import { FLOWCONTROL } from '../helpers/fixtures';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts.stop());

async function uidOf(resource: string, name: string): Promise<string> {
  return (await ts.api.get(`${FLOWCONTROL}/${resource}/${name}`)).body.metadata.uid;
}

describe('API Priority and Fairness', () => {
  it('creates the Kubernetes bootstrap configuration at start-up', async () => {
    const schemas = (await ts.api.get(`${FLOWCONTROL}/flowschemas`)).body.items.map((i: any) => i.metadata.name);
    expect(schemas).toEqual(
      expect.arrayContaining([
        'exempt',
        'catch-all',
        'probes',
        'system-leader-election',
        'workload-leader-election',
        'global-default',
        'service-accounts',
      ]),
    );
    const levels = (await ts.api.get(`${FLOWCONTROL}/prioritylevelconfigurations`)).body.items.map(
      (i: any) => i.metadata.name,
    );
    expect(levels).toEqual(
      expect.arrayContaining([
        'exempt',
        'catch-all',
        'global-default',
        'workload-low',
        'workload-high',
        'leader-election',
      ]),
    );
    const exempt = (await ts.api.get(`${FLOWCONTROL}/flowschemas/exempt`)).body;
    expect(exempt.metadata.annotations).toEqual({ 'apf.orch.io/autoupdate-spec': 'true' });
  });

  it('answers every request with the UIDs of its FlowSchema and priority level, in both header brands', async () => {
    const res = await ts.api.get('/apis/apps/v1/deployments');
    const schemaUid = await uidOf('flowschemas', 'global-default');
    const levelUid = await uidOf('prioritylevelconfigurations', 'global-default');
    expect(res.headers.get('x-orch-pf-flowschema-uid')).toBe(schemaUid);
    expect(res.headers.get('x-orch-pf-prioritylevel-uid')).toBe(levelUid);
    expect(res.headers.get('x-kubernetes-pf-flowschema-uid')).toBe(schemaUid);
    const probe = await ts.api.get('/healthz');
    expect(probe.headers.get('x-orch-pf-flowschema-uid')).toBe(await uidOf('flowschemas', 'probes'));
  });

  it('follows a new FlowSchema within a second', async () => {
    const created = await ts.api.post(`${FLOWCONTROL}/flowschemas`, {
      apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
      kind: 'FlowSchema',
      metadata: { name: 'anonymous-hpas' },
      spec: {
        priorityLevelConfiguration: { name: 'workload-low' },
        matchingPrecedence: 100,
        rules: [
          {
            subjects: [{ kind: 'Group', group: { name: 'system:unauthenticated' } }],
            resourceRules: [
              {
                verbs: ['list'],
                apiGroups: ['autoscaling'],
                resources: ['horizontalpodautoscalers'],
                clusterScope: true,
                namespaces: [''],
              },
            ],
          },
        ],
      },
    });
    expect(created.status).toBe(201);
    await eventually(
      async () =>
        (await ts.api.get('/apis/autoscaling/v1/horizontalpodautoscalers')).headers.get('x-orch-pf-flowschema-uid') ===
        created.body.metadata.uid,
      1500,
      'classification to follow the new FlowSchema',
    );
    const inNamespace = await ts.api.get('/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers');
    expect(inNamespace.headers.get('x-orch-pf-flowschema-uid')).toBe(created.body.metadata.uid);
  });

  it('marks a FlowSchema whose priority level is missing as Dangling and ignores it', async () => {
    const created = await ts.api.post(`${FLOWCONTROL}/flowschemas`, {
      apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
      kind: 'FlowSchema',
      metadata: { name: 'orphaned' },
      spec: {
        priorityLevelConfiguration: { name: 'nowhere' },
        matchingPrecedence: 50,
        rules: [
          {
            subjects: [{ kind: 'Group', group: { name: 'system:unauthenticated' } }],
            nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['/version'] }],
          },
        ],
      },
    });
    expect(created.status).toBe(201);
    await eventually(
      async () => {
        const fs = (await ts.api.get(`${FLOWCONTROL}/flowschemas/orphaned`)).body;
        return fs.status?.conditions?.some((c: any) => c.type === 'Dangling' && c.status === 'True') === true;
      },
      5000,
      'the Dangling condition',
    );
    const fs = (await ts.api.get(`${FLOWCONTROL}/flowschemas/orphaned`)).body;
    expect(fs.status.conditions).toContainEqual(
      expect.objectContaining({
        type: 'Dangling',
        status: 'True',
        reason: 'NotFound',
        message:
          'This FlowSchema references the PriorityLevelConfiguration object named "nowhere" but there is no such object',
      }),
    );
    const version = await ts.api.get('/version');
    expect(version.headers.get('x-orch-pf-flowschema-uid')).not.toBe(created.body.metadata.uid);
  });
});
