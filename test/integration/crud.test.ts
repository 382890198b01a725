import { startTestServer, createNamespace, type TestServer } from '../helpers/test-server';
import { aDeployment, aFlowSchema, anHpa, aPriorityLevel, FLOWCONTROL } from '../helpers/fixtures';
import { describeResourceVerbs } from '../helpers/resource-tester';

let ts: TestServer;
const NS = 'crud';

beforeAll(async () => {
  ts = await startTestServer();
  await createNamespace(ts.api, NS);
});
afterAll(() => ts.stop());

describeResourceVerbs(
  'deployments',
  () => ts.api,
  () => ({
    qualified: 'deployments.apps',
    collection: `/apis/apps/v1/namespaces/${NS}/deployments`,
    item: (n) => `/apis/apps/v1/namespaces/${NS}/deployments/${n}`,
    make: (n) => aDeployment(n || 'x'),
    changeSpec: (o) => {
      o['spec'].replicas = 5;
    },
    status: { replicas: 1, observedGeneration: 1 },
    tracksGeneration: true,
    deleteReturnsObject: false,
  }),
);

describeResourceVerbs(
  'horizontalpodautoscalers',
  () => ts.api,
  () => ({
    qualified: 'horizontalpodautoscalers.autoscaling',
    collection: `/apis/autoscaling/v1/namespaces/${NS}/horizontalpodautoscalers`,
    item: (n) => `/apis/autoscaling/v1/namespaces/${NS}/horizontalpodautoscalers/${n}`,
    make: (n) => anHpa(n || 'x'),
    changeSpec: (o) => {
      o['spec'].maxReplicas = 7;
    },
    status: { currentReplicas: 1, desiredReplicas: 2 },
    tracksGeneration: false,
    deleteReturnsObject: false,
  }),
);

describeResourceVerbs(
  'flowschemas',
  () => ts.api,
  () => ({
    qualified: 'flowschemas.flowcontrol.apiserver.orch.io',
    collection: `${FLOWCONTROL}/flowschemas`,
    item: (n) => `${FLOWCONTROL}/flowschemas/${n}`,
    make: (n) => aFlowSchema(n || 'x'),
    changeSpec: (o) => {
      o['spec'].matchingPrecedence = 600;
    },
    // What the Dangling controller itself would write (the fixture's level exists), so it leaves this status alone.
    status: {
      conditions: [
        {
          type: 'Dangling',
          status: 'False',
          reason: 'Found',
          message:
            'This FlowSchema references the PriorityLevelConfiguration object named "global-default" and it exists',
          lastTransitionTime: '2024-01-02T03:04:05Z',
        },
      ],
    },
    tracksGeneration: true,
    deleteReturnsObject: false,
    statusWrittenByController: true,
  }),
);

describeResourceVerbs(
  'prioritylevelconfigurations',
  () => ts.api,
  () => ({
    qualified: 'prioritylevelconfigurations.flowcontrol.apiserver.orch.io',
    collection: `${FLOWCONTROL}/prioritylevelconfigurations`,
    item: (n) => `${FLOWCONTROL}/prioritylevelconfigurations/${n}`,
    make: (n) => aPriorityLevel(n || 'x'),
    changeSpec: (o) => {
      o['spec'].limited.nominalConcurrencyShares = 20;
    },
    status: {
      conditions: [
        {
          type: 'ConcurrencyShared',
          status: 'True',
          reason: 'X',
          message: 'y',
          lastTransitionTime: '2024-01-02T03:04:05Z',
        },
      ],
    },
    tracksGeneration: true,
    deleteReturnsObject: false,
  }),
);

describeResourceVerbs(
  'namespaces',
  () => ts.api,
  () => ({
    qualified: 'namespaces',
    collection: '/api/v1/namespaces',
    item: (n) => `/api/v1/namespaces/${n}`,
    make: (n) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: n || 'x' } }),
    changeSpec: (o) => {
      o['metadata'].labels = { ...(o['metadata'].labels ?? {}), changed: 'yes' };
    },
    status: {
      conditions: [
        {
          type: 'NamespaceContentRemaining',
          status: 'False',
          reason: 'ContentRemoved',
          message: 'ok',
          lastTransitionTime: '2024-01-02T03:04:05Z',
        },
      ],
    },
    tracksGeneration: false,
    deleteReturnsObject: true,
  }),
);
