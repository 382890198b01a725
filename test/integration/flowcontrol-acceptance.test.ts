// Differences from kube-apiserver 1.26 found by the flowcontrol acceptance pass: FlowSchema table order, v1beta2 error paths.
import { aFlowSchema, aPriorityLevel, FLOWCONTROL } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/test-server';

const V1BETA2 = '/apis/flowcontrol.apiserver.orch.io/v1beta2';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts.stop());

describe('FlowSchema table', () => {
  it('lists rows in matching order (matchingPrecedence, then name) as printFlowSchemaList does, while the list itself stays in name order', async () => {
    for (const name of ['zz-order', 'aa-order'])
      expect((await ts.api.post(`${FLOWCONTROL}/flowschemas`, aFlowSchema(name))).status).toBe(201);
    for (const path of [`${FLOWCONTROL}/flowschemas`, `${V1BETA2}/flowschemas`]) {
      const table = await ts.api.get(path, { Accept: TABLE });
      expect(table.status).toBe(200);
      const rows: Array<[string, number]> = table.body.rows.map((r: any) => [r.cells[0], r.cells[2]]);
      expect(rows[0]).toEqual(['exempt', 1]);
      expect(rows[1]).toEqual(['probes', 2]);
      expect(rows[rows.length - 1]).toEqual(['catch-all', 10000]);
      const names = rows.map(([n]) => n);
      // Three schemas at 500: by name.
      expect(names.slice(names.indexOf('aa-order'), names.indexOf('aa-order') + 3)).toEqual([
        'aa-order',
        'system-nodes',
        'zz-order',
      ]);
      expect(table.body.rows[0].object.metadata.name).toBe('exempt'); // row objects follow the rows
    }
    const list = (await ts.api.get(`${FLOWCONTROL}/flowschemas`)).body.items.map((i: any) => i.metadata.name);
    expect(list[0]).toBe('aa-order');
  });
});

describe('PriorityLevelConfiguration validation through v1beta2', () => {
  const invalidShares = {
    spec: { type: 'Limited', limited: { assuredConcurrencyShares: -1, limitResponse: { type: 'Reject' } } },
  };

  it('names the shares field assuredConcurrencyShares on create, update and patch through v1beta2 (the request version), nominalConcurrencyShares through v1beta3', async () => {
    const created = await ts.api.post(`${V1BETA2}/prioritylevelconfigurations`, {
      apiVersion: 'flowcontrol.apiserver.orch.io/v1beta2',
      kind: 'PriorityLevelConfiguration',
      metadata: { name: 'v2-bad' },
      ...invalidShares,
    });
    expect(created.status).toBe(422);
    expect(created.body.message).toBe(
      'PriorityLevelConfiguration.flowcontrol.apiserver.orch.io "v2-bad" is invalid: spec.limited.assuredConcurrencyShares: Invalid value: -1: must be positive',
    );
    expect(created.body.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: -1: must be positive',
        field: 'spec.limited.assuredConcurrencyShares',
      },
    ]);

    expect((await ts.api.post(`${FLOWCONTROL}/prioritylevelconfigurations`, aPriorityLevel('v2-pl'))).status).toBe(201);
    const put = await ts.api.put(`${V1BETA2}/prioritylevelconfigurations/v2-pl`, {
      apiVersion: 'flowcontrol.apiserver.orch.io/v1beta2',
      kind: 'PriorityLevelConfiguration',
      metadata: { name: 'v2-pl' },
      ...invalidShares,
    });
    expect(put.status).toBe(422);
    expect(put.body.details.causes[0].field).toBe('spec.limited.assuredConcurrencyShares');
    const patched = await ts.api.patch(`${V1BETA2}/prioritylevelconfigurations/v2-pl`, {
      spec: { limited: { assuredConcurrencyShares: -2 } },
    });
    expect(patched.status).toBe(422);
    expect(patched.body.message).toBe(
      'PriorityLevelConfiguration.flowcontrol.apiserver.orch.io "v2-pl" is invalid: spec.limited.assuredConcurrencyShares: Invalid value: -2: must be positive',
    );
    const v1beta3 = await ts.api.patch(`${FLOWCONTROL}/prioritylevelconfigurations/v2-pl`, {
      spec: { limited: { nominalConcurrencyShares: -2 } },
    });
    expect(v1beta3.status).toBe(422);
    expect(v1beta3.body.details.causes[0].field).toBe('spec.limited.nominalConcurrencyShares');
  });

  it('still writes valid objects through v1beta2 to the shared store', async () => {
    const ok = await ts.api.patch(`${V1BETA2}/prioritylevelconfigurations/v2-pl`, {
      spec: { limited: { assuredConcurrencyShares: 12 } },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.spec.limited.assuredConcurrencyShares).toBe(12);
    expect(
      (await ts.api.get(`${FLOWCONTROL}/prioritylevelconfigurations/v2-pl`)).body.spec.limited.nominalConcurrencyShares,
    ).toBe(12);
  });
});

describe('the Kubernetes group name flowcontrol.apiserver.k8s.io, which typed clients hard-code', () => {
  const K8S = '/apis/flowcontrol.apiserver.k8s.io/v1beta3';

  it('reaches the same FlowSchemas, answered with the name asked for', async () => {
    const body = { ...aFlowSchema('k8s-named'), apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3' };
    const created = await ts.api.post(`${K8S}/flowschemas`, body);
    expect(created.status).toBe(201);
    expect(created.body.apiVersion).toBe('flowcontrol.apiserver.k8s.io/v1beta3');
    const viaOrch = await ts.api.get(`${FLOWCONTROL}/flowschemas/k8s-named`);
    expect(viaOrch.status).toBe(200);
    expect(viaOrch.body.apiVersion).toBe('flowcontrol.apiserver.orch.io/v1beta3');
    const list = await ts.api.get(`${K8S}/prioritylevelconfigurations`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((p: { metadata: { name: string } }) => p.metadata.name)).toContain('global-default');
  });

  it('is listed in discovery right before the orch.io name, with both versions', async () => {
    const groups = await ts.api.get('/apis');
    const names = groups.body.groups.map((g: { name: string }) => g.name);
    expect(names.indexOf('flowcontrol.apiserver.k8s.io')).toBeGreaterThanOrEqual(0);
    expect(names.indexOf('flowcontrol.apiserver.orch.io')).toBe(names.indexOf('flowcontrol.apiserver.k8s.io') + 1);
    const k8s = (await ts.api.get('/apis/flowcontrol.apiserver.k8s.io')).body;
    expect(k8s.versions.map((v: { groupVersion: string }) => v.groupVersion)).toEqual([
      'flowcontrol.apiserver.k8s.io/v1beta2',
      'flowcontrol.apiserver.k8s.io/v1beta3',
    ]);
  });
});
