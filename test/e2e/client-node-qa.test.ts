// End-to-end: what controllers built on @kubernetes/client-node rely on (client-node-qa-script.mjs), against the built
// binary with a short compaction interval so an informer's stale resourceVersion expires within the test.
import { join } from 'node:path';
import { startBinaryServer, type BinaryServer } from '../helpers/binary-server';
import { runClientNodeScript, stepError, stepValue, type Step } from '../helpers/client-node-script';

const SCRIPT = join(__dirname, 'client-node-qa-script.mjs');

let server: BinaryServer;
let steps: Record<string, Step>;
const namespace = `e2e-client-node-qa-${process.pid}`;

beforeAll(async () => {
  server = await startBinaryServer(['--etcd-compaction-interval=2s']);
  steps = await runClientNodeScript(SCRIPT, [server.url, namespace], 90_000);
}, 150_000);

afterAll(async () => {
  await server?.stop();
}, 60_000);

describe('@kubernetes/client-node controller patterns', () => {
  it('getAPIResources: namespaces have no deletecollection, deployments do', () => {
    const verbs = stepValue(steps, 'discoveryVerbs');
    expect(verbs.namespaces).toEqual(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']);
    expect(verbs.deployments).toContain('deletecollection');
  });

  it('patching a missing Deployment with the default (JSON patch) content type and an object body is a 404 ApiException', () => {
    expect(stepError(steps, 'patchMissingWithObjectBody')).toMatchObject({
      apiException: true,
      code: 404,
      body: {
        kind: 'Status',
        reason: 'NotFound',
        message: 'deployments.apps "ghost" not found',
        details: { name: 'ghost', group: 'apps', kind: 'deployments' },
      },
    });
  });

  it('JSON, merge, strategic merge and apply patches each take effect; apply records its field manager', () => {
    expect(stepValue(steps, 'patchContentTypes')).toEqual({
      json: 2,
      merge: 3,
      strategic: 4,
      apply: 5,
      managers: ['node-fetch/Update', 'qa/Apply'],
    });
  });

  it('an apply conflict is a 409 ApiException with FieldManagerConflict causes', () => {
    expect(stepError(steps, 'applyConflict')).toMatchObject({
      code: 409,
      body: {
        reason: 'Conflict',
        message: 'Apply failed with 1 conflict: conflict with "qa": .spec.replicas',
        details: {
          causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "qa"', field: '.spec.replicas' }],
        },
      },
    });
  });

  it('an invalid create is a 422 ApiException with field causes', () => {
    expect(stepError(steps, 'createInvalid')).toMatchObject({
      code: 422,
      body: {
        reason: 'Invalid',
        details: {
          name: 'bad',
          group: 'apps',
          kind: 'Deployment',
          causes: [
            {
              reason: 'FieldValueInvalid',
              field: 'spec.replicas',
              message: 'Invalid value: -1: must be greater than or equal to 0',
            },
          ],
        },
      },
    });
  });

  it('KubernetesObjectApi finds the orch flowcontrol group through discovery and serves both versions', () => {
    expect(stepValue(steps, 'objectApiFlowSchema')).toEqual({
      created: 'flowcontrol.apiserver.orch.io/v1beta3',
      readOld: 'flowcontrol.apiserver.orch.io/v1beta2',
      patched: 4000,
      listed: true,
      deleted: 'Success',
    });
  });

  it('a selector-filtered list pages with limit/continue and reports no remainingItemCount', () => {
    expect(stepValue(steps, 'paginatedList')).toEqual([
      { names: ['p1', 'p2', 'p3'], remaining: null },
      { names: ['p4'], remaining: null },
    ]);
  });

  it('a label-selector watch sees an object leave the selection as DELETED', () => {
    expect(stepValue(steps, 'labelSelectorWatch')).toEqual(['ADDED front', 'DELETED front']);
  });

  it('an informer started from a compacted resourceVersion relists after the 410 and keeps watching', () => {
    const { lists, errors, cached } = stepValue(steps, 'informerRelistAfterExpired');
    expect(errors).toEqual([]);
    expect(lists).toBe(2);
    expect(cached).toEqual(['after', 'front', 'p2', 'p3', 'p4', 'web']);
  });
});
