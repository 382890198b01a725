// End-to-end: the built server binary driven by the official Kubernetes Python client (Debian python3-kubernetes,
// run by Debian's /usr/bin/python3; `make test` installs it). python-client-script.py prints one JSON document of
// step results, asserted on here.
import { join } from 'node:path';
import { startBinaryServer, type BinaryServer } from '../helpers/binary-server';
import { runClientScript, stepError, stepValue, type Step } from '../helpers/client-node-script';

const SCRIPT = join(__dirname, 'python-client-script.py');
const PYTHON = process.env.ORCH_TEST_PYTHON ?? '/usr/bin/python3';

let server: BinaryServer;
let steps: Record<string, Step>;
const namespace = `e2e-python-${process.pid}`;

const value = (name: string): any => stepValue(steps, name);
const statusOf = (name: string): any => stepError(steps, name);

beforeAll(async () => {
  server = await startBinaryServer();
  steps = await runClientScript(PYTHON, [SCRIPT, server.url, namespace], 90_000);
}, 150_000);

afterAll(async () => {
  await server?.stop();
}, 60_000);

describe('the Kubernetes Python client against the built server', () => {
  it('lists the system namespaces and creates an Active namespace', () => {
    expect(value('listNamespace')).toEqual(
      expect.arrayContaining(['default', 'kube-node-lease', 'kube-public', 'kube-system']),
    );
    expect(value('createNamespace')).toBe('Active');
  });

  it('creates a Deployment and reads back the Kubernetes defaults into the typed model', () => {
    expect(value('createDeployment')).toEqual({
      name: 'web',
      uid: true,
      generation: 1,
      strategy: 'RollingUpdate',
      maxSurge: '25%',
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      imagePullPolicy: 'IfNotPresent',
    });
  });

  it('raises ApiException with the Kubernetes Status for AlreadyExists, Invalid, NotFound and Conflict', () => {
    expect(statusOf('createDuplicate')).toMatchObject({
      code: 409,
      body: { kind: 'Status', reason: 'AlreadyExists', message: 'deployments.apps "web" already exists' },
    });
    expect(statusOf('createInvalid')).toMatchObject({
      code: 422,
      body: {
        reason: 'Invalid',
        details: { causes: [{ reason: 'FieldValueInvalid', field: 'spec.replicas' }] },
      },
    });
    expect(statusOf('readMissing')).toMatchObject({ code: 404, body: { reason: 'NotFound' } });
    expect(statusOf('staleReplace')).toMatchObject({
      code: 409,
      body: {
        reason: 'Conflict',
        message:
          'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again',
      },
    });
  });

  it('patches (strategic merge for a dict, JSON patch for a list), replaces and scales', () => {
    expect(value('strategicMergePatch')).toBe(3);
    expect(value('jsonPatch')).toBe(4);
    expect(value('replaceDeployment')).toEqual({ replicas: 5, generation: 4 });
    expect(value('scale')).toBe(2);
    expect(value('readScale')).toBe(2);
  });

  it('applies server-side through call_api with application/apply-patch+yaml', () => {
    expect(value('serverSideApply')).toEqual({ replicas: 2, managers: ['python-apply'], operations: ['Apply'] });
  });

  it('pages a list with limit and _continue, and filters by label selector', () => {
    expect(value('chunkedList')).toEqual({
      first: ['applied', 'c1'],
      firstHasContinue: true,
      rest: ['c2', 'c3'],
      restContinue: expect.any(String), // "web" is still left
    });
    expect(value('labelSelector')).toEqual(['c2']);
  });

  it('serves the autoscaling, RBAC (at its k8s.io name) and events.k8s.io APIs the client hard-codes', () => {
    expect(value('createHpa')).toEqual({ minReplicas: 1, maxReplicas: 5 });
    expect(value('createRole')).toEqual({ name: 'reader', verbs: ['get', 'list'] });
    expect(value('createEvent')).toEqual({
      reason: 'ScalingReplicaSet',
      coreMessage: 'Scaled up',
      coreKind: 'Deployment',
    });
  });

  it("watch.Watch().stream sees every change from the list's resourceVersion, in order", () => {
    expect(value('deleteDeployment')).toBe('Success');
    expect(value('watch')).toEqual([
      ['ADDED', 'web', 1],
      ['MODIFIED', 'web', 3],
      ['MODIFIED', 'web', 4],
      ['MODIFIED', 'web', 5],
      ['MODIFIED', 'web', 2],
      ['ADDED', 'applied', 2],
      ['ADDED', 'c1', 1],
      ['ADDED', 'c2', 1],
      ['ADDED', 'c3', 1],
      ['DELETED', 'web', 2],
    ]);
  });

  it('deleting the namespace answers the Namespace (it has a finalizer), as Kubernetes does', () => {
    expect(value('deleteNamespace')).toBe('Namespace');
  });
});
