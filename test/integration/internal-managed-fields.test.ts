// The server's own writes carry managedFields as Kubernetes' loopback clients record them: the built-in namespaces
// by kube-apiserver, the APF bootstrap objects by the config producer, their Dangling condition by the consumer (an Apply).
import { startTestServer, eventually, type TestServer } from '../helpers/test-server';
import { aFlowSchema, FLOWCONTROL, type ManagedFieldsEntry } from '../helpers/fixtures';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts.stop());

type Entry = ManagedFieldsEntry;

const entries = (body: { metadata: { managedFields?: Entry[] } }): Entry[] => body.metadata.managedFields ?? [];

describe('managedFields of objects the server writes itself', () => {
  it('records the built-in namespaces as an Update by kube-apiserver owning the name label', async () => {
    const res = await ts.api.get('/api/v1/namespaces/default');
    expect(
      entries(res.body).map(({ manager, operation, apiVersion, fieldsV1 }) => ({
        manager,
        operation,
        apiVersion,
        fieldsV1,
      })),
    ).toEqual([
      {
        manager: 'kube-apiserver',
        operation: 'Update',
        apiVersion: 'v1',
        fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:orch.io/metadata.name': {} } } },
      },
    ]);
  });

  it("records a bootstrap FlowSchema's spec for the config producer and its Dangling condition for the consumer", async () => {
    let body = { metadata: {} } as { metadata: { managedFields?: Entry[] } };
    await eventually(
      async () => {
        body = (await ts.api.get(`${FLOWCONTROL}/flowschemas/catch-all`)).body;
        return entries(body).length === 2;
      },
      10_000,
      'both managers to have written catch-all',
    );
    const byManager = new Map(entries(body).map((e) => [e.manager, e]));
    expect(byManager.get('api-priority-and-fairness-config-producer-v1')).toMatchObject({
      operation: 'Update',
      apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
      fieldsV1: {
        'f:metadata': { 'f:annotations': { '.': {}, 'f:apf.orch.io/autoupdate-spec': {} } },
        'f:spec': {
          'f:distinguisherMethod': { '.': {}, 'f:type': {} },
          'f:matchingPrecedence': {},
          'f:priorityLevelConfiguration': { 'f:name': {} },
          'f:rules': {},
        },
      },
    });
    // Kubernetes 1.26's consumer writes the condition with ApplyStatus (Force): an Apply entry owning the item, not the list.
    const consumer = byManager.get('api-priority-and-fairness-config-consumer-v1');
    expect(consumer).toMatchObject({
      operation: 'Apply',
      subresource: 'status',
      apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
    });
    expect(consumer?.fieldsV1).toEqual({
      'f:status': {
        'f:conditions': {
          'k:{"type":"Dangling"}': {
            '.': {},
            'f:lastTransitionTime': {},
            'f:message': {},
            'f:reason': {},
            'f:status': {},
            'f:type': {},
          },
        },
      },
    });
  });

  it('makes a server-side apply of a bootstrap spec field conflict with the config producer', async () => {
    const apply = {
      apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
      kind: 'FlowSchema',
      metadata: { name: 'catch-all' },
      spec: { matchingPrecedence: 9999 },
    };
    const res = await ts.api.patch(
      `${FLOWCONTROL}/flowschemas/catch-all?fieldManager=ops`,
      apply,
      'application/apply-patch+yaml',
    );
    expect(res.status).toBe(409);
    expect(res.body.message).toContain(
      'conflict with "api-priority-and-fairness-config-producer-v1" using flowcontrol.apiserver.orch.io/v1beta3',
    );
  });

  it("records the Dangling condition of a user's FlowSchema as the consumer's Apply, sorted before the creator's Update", async () => {
    expect(
      (await ts.api.post(`${FLOWCONTROL}/flowschemas?fieldManager=ops`, aFlowSchema('qa-dangling', 'no-such-level')))
        .status,
    ).toBe(201);
    let body = { metadata: {} } as { metadata: { managedFields?: Entry[] } };
    await eventually(
      async () => {
        body = (await ts.api.get(`${FLOWCONTROL}/flowschemas/qa-dangling`)).body;
        return entries(body).length === 2;
      },
      10_000,
      'the Dangling condition to be written',
    );
    expect(entries(body).map((e) => [e.manager, e.operation, e.subresource])).toEqual([
      ['api-priority-and-fairness-config-consumer-v1', 'Apply', 'status'],
      ['ops', 'Update', undefined],
    ]);
    // The consumer owns only its condition: a controller applying another condition type co-exists without conflict.
    const other = {
      apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
      kind: 'FlowSchema',
      metadata: { name: 'qa-dangling' },
      status: { conditions: [{ type: 'Reviewed', status: 'True' }] },
    };
    const res = await ts.api.patch(
      `${FLOWCONTROL}/flowschemas/qa-dangling/status?fieldManager=reviewer`,
      other,
      'application/apply-patch+yaml',
    );
    expect(res.status).toBe(200);
    expect(res.body.status.conditions.map((c: { type: string }) => c.type)).toEqual(['Dangling', 'Reviewed']);
  });
});
