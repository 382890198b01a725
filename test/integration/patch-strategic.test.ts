// Strategic merge patch over HTTP on real etcd: merge keys, $patch and $retainKeys directives, the status
// subresource, and the Kubernetes error statuses and texts.
import type { TestServer } from '../helpers/test-server';
import {
  badRequest,
  created,
  patchOf,
  startServer,
  stopServer,
  stored,
  DEPLOYMENTS,
  MERGE,
  STRATEGIC,
} from './patch-fixture';

let ts: TestServer;
beforeAll(async () => ({ ts } = await startServer()));
afterAll(stopServer);

describe('strategic merge patch', () => {
  it('merges containers by name, keeping the others, and stores the result', async () => {
    await created('smp-merge');
    const res = await ts.api.patch(
      `${DEPLOYMENTS}/smp-merge`,
      patchOf([{ name: 'main', image: 'nginx:2', env: [{ name: 'C', value: '3' }] }]),
      STRATEGIC,
    );
    expect(res.status).toBe(200);
    const expected = [
      {
        name: 'main',
        image: 'nginx:2',
        env: [
          { name: 'C', value: '3' },
          { name: 'A', value: '1' },
          { name: 'B', value: '2' },
        ],
      },
      { name: 'sidecar', image: 'envoy:1' },
    ];
    expect(res.body.spec.template.spec.containers).toMatchObject(expected);
    expect((await stored('smp-merge')).spec.template.spec.containers).toMatchObject(expected);
    expect(res.body.metadata.generation).toBe(2);
  });

  it('removes a container with $patch: delete', async () => {
    await created('smp-delete');
    const res = await ts.api.patch(
      `${DEPLOYMENTS}/smp-delete`,
      patchOf([{ name: 'sidecar', $patch: 'delete' }]),
      STRATEGIC,
    );
    expect(res.status).toBe(200);
    expect(res.body.spec.template.spec.containers.map((c: { name: string }) => c.name)).toEqual(['main']);
  });

  it('switches the strategy to Recreate with $retainKeys, which a merge patch cannot do', async () => {
    await created('smp-retain');
    const merge = await ts.api.patch(`${DEPLOYMENTS}/smp-retain`, { spec: { strategy: { type: 'Recreate' } } }, MERGE);
    expect(merge.status).toBe(422);
    expect(merge.body.message).toContain(
      "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
    );
    const res = await ts.api.patch(
      `${DEPLOYMENTS}/smp-retain`,
      { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } },
      STRATEGIC,
    );
    expect(res.status).toBe(200);
    expect(res.body.spec.strategy).toEqual({ type: 'Recreate' });
  });

  it('merges status conditions by type through the status subresource', async () => {
    await created('smp-status');
    const first = await ts.api.patch(
      `${DEPLOYMENTS}/smp-status/status`,
      { status: { conditions: [{ type: 'Available', status: 'True' }] } },
      STRATEGIC,
    );
    expect(first.status).toBe(200);
    const res = await ts.api.patch(
      `${DEPLOYMENTS}/smp-status/status`,
      { status: { conditions: [{ type: 'Progressing', status: 'True' }] } },
      STRATEGIC,
    );
    expect(res.status).toBe(200);
    expect(res.body.status.conditions.map((c: { type: string }) => c.type).sort()).toEqual([
      'Available',
      'Progressing',
    ]);
  });

  it('answers a list element without its merge key with 400 BadRequest and the Kubernetes text (Kubernetes: a bare 500)', async () => {
    await created('smp-nokey');
    const res = await ts.api.patch(`${DEPLOYMENTS}/smp-nokey`, patchOf([{ image: 'nginx:2' }]), STRATEGIC);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'map: map[image:nginx:2] does not contain declared merge key: name',
      reason: 'BadRequest',
      code: 400,
    });
  });

  it('answers a malformed $retainKeys with 400', async () => {
    await created('smp-badretain');
    const res = await ts.api.patch(
      `${DEPLOYMENTS}/smp-badretain`,
      { spec: { strategy: { $retainKeys: 'type', type: 'Recreate' } } },
      STRATEGIC,
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual(badRequest('invalid patch format of retainKeys'));
  });

  it('answers a list of lists by the state of the list it patches (Go never stores an empty list: omitempty)', async () => {
    await created('smp-lists');
    const emptied = await ts.api.patch(`${DEPLOYMENTS}/smp-lists`, { metadata: { finalizers: [] } }, MERGE);
    expect(emptied.body.metadata).not.toHaveProperty('finalizers');
    // No list to merge into: the patched object fails to decode into the Go type (FromUnstructured).
    const absent = await ts.api.patch(
      `${DEPLOYMENTS}/smp-lists`,
      { metadata: { finalizers: [['example.com/a']] } },
      STRATEGIC,
    );
    expect(absent.status).toBe(422);
    expect(absent.body.message).toBe(
      ' "" is invalid: patch: Invalid value: "map[metadata:map[finalizers:[[example.com/a]]]]": unrecognized type: string',
    );
    // A list of strings to merge into: the element types differ (mergepatch's text, 400).
    await ts.api.patch(`${DEPLOYMENTS}/smp-lists`, { metadata: { finalizers: ['example.com/x'] } }, MERGE);
    const mixed = await ts.api.patch(
      `${DEPLOYMENTS}/smp-lists`,
      { metadata: { finalizers: [['example.com/a']] } },
      STRATEGIC,
    );
    expect({ status: mixed.status, message: mixed.body.message }).toEqual({
      status: 400,
      message: 'list element types are not identical: [[example.com/x] [[example.com/a]]]',
    });
    await ts.api.patch(`${DEPLOYMENTS}/smp-lists`, { metadata: { finalizers: null } }, MERGE);
  });

  it('answers bodies that are not a JSON object with the decoder texts', async () => {
    await created('smp-body');
    const list = await ts.api.patch(`${DEPLOYMENTS}/smp-body`, '[1]', STRATEGIC);
    expect(list.status).toBe(400);
    expect(list.body).toEqual(badRequest('json: cannot unmarshal array into Go value of type map[string]interface {}'));
    const garbage = await ts.api.patch(`${DEPLOYMENTS}/smp-body`, '{"spec" 1}', STRATEGIC);
    expect(garbage.body).toEqual(badRequest("invalid character '1' after object key"));
  });

  it('answers 404 for a missing object', async () => {
    const res = await ts.api.patch(`${DEPLOYMENTS}/nobody`, patchOf([{ name: 'main', image: 'x' }]), STRATEGIC);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('deployments.apps "nobody" not found');
  });
});
