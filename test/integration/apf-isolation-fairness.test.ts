// API Priority and Fairness protects: a heavy flow at one level does not starve a light one at another level
// (isolation), nor a light flow sharing its level (fair queuing with shuffle sharding). Outcomes are asserted;
// latency figures are in docs/benchmarks.md (test/bench/apf.ts).
import { startTestServer, type TestServer } from '../helpers/test-server';
import { awaitClassification, countStatuses, createFlowSchema, createPriorityLevel, metricSum, streams } from '../helpers/flowcontrol';
import { dealHand, hashFlow } from '../../lib/server/flowcontrol/fairqueuing/shuffle-sharding';

const deployments = (ns: string): string => `/apis/apps/v1/namespaces/${ns}/deployments`;
const hpas = (ns: string): string => `/apis/autoscaling/v1/namespaces/${ns}/horizontalpodautoscalers`;
const LOAD_MS = 3000;

let ts: TestServer;
beforeAll(async () => {
  // 10 seats for the whole server.
  ts = await startTestServer(['--max-requests-inflight=6', '--max-mutating-requests-inflight=4']);
  const queuing = { queues: 4, handSize: 2, queueLengthLimit: 5 };
  await createPriorityLevel(ts.api, 'iso-heavy', { shares: 100, queuing });
  await createPriorityLevel(ts.api, 'iso-light', { shares: 100, queuing });
  await createPriorityLevel(ts.api, 'fair', { shares: 100, queuing: { queues: 8, handSize: 2, queueLengthLimit: 10 } });
  const heavyUid = await createFlowSchema(ts.api, 'iso-heavy', 'iso-heavy', [{ verbs: ['list'], apiGroups: ['apps'], resources: ['deployments'], namespaces: ['iso-heavy'] }]);
  const lightUid = await createFlowSchema(ts.api, 'iso-light', 'iso-light', [{ verbs: ['list'], apiGroups: ['apps'], resources: ['deployments'], namespaces: ['iso-light'] }]);
  const fairUid = await createFlowSchema(ts.api, 'fair', 'fair', [{ verbs: ['list'], apiGroups: ['autoscaling'], resources: ['horizontalpodautoscalers'], namespaces: ['*'] }], 'ByNamespace');
  await awaitClassification(ts.api, deployments('iso-heavy'), heavyUid);
  await awaitClassification(ts.api, deployments('iso-light'), lightUid);
  await awaitClassification(ts.api, hpas('anything'), fairUid);
}, 30_000);
afterAll(() => ts?.stop());

it('isolates levels: 50 heavy streams at one level, 3 light streams at another; the light one is never rejected', async () => {
  const [heavy, light] = await Promise.all([streams(ts.url + deployments('iso-heavy'), 50, LOAD_MS), streams(ts.url + deployments('iso-light'), 3, LOAD_MS)]);
  const heavyCounts = countStatuses(heavy.statuses);
  const lightCounts = countStatuses(light.statuses);
  // The heavy level is saturated (its queues overflow), the light one is served in full.
  expect(heavyCounts[429]).toBeGreaterThan(0);
  expect(Object.keys(heavyCounts).sort()).toEqual(['200', '429']);
  expect(Object.keys(lightCounts)).toEqual(['200']);
  expect(lightCounts[200]).toBeGreaterThan(10);
  expect(await metricSum(ts.api, 'apiserver_flowcontrol_rejected_requests_total', { priority_level: 'iso-light' })).toBe(0);
  expect(await metricSum(ts.api, 'apiserver_flowcontrol_rejected_requests_total', { priority_level: 'iso-heavy', reason: 'queue-full' })).toBe(heavyCounts[429]);
}, 20_000);

it('is fair within a level: a flow 10× lighter than its neighbour gets ≥ 90% of what it asks for', async () => {
  // Namespaces are the flows (ByNamespace). Pick a light namespace whose hand of queues differs from the heavy one's
  // (shuffle sharding makes a full overlap rare; the test picks deterministically rather than by luck).
  const heavyHand = dealHand(hashFlow('fair', 'fair-heavy'), 8, 2);
  let lightNs = '';
  for (let i = 0; lightNs === ''; i++) {
    const hand = dealHand(hashFlow('fair', `fair-light-${i}`), 8, 2);
    if (hand.every((q) => !heavyHand.includes(q))) lightNs = `fair-light-${i}`;
  }
  const [heavy, light] = await Promise.all([streams(ts.url + hpas('fair-heavy'), 30, LOAD_MS), streams(ts.url + hpas(lightNs), 3, LOAD_MS)]);
  const heavyCounts = countStatuses(heavy.statuses);
  const lightCounts = countStatuses(light.statuses);
  expect(heavyCounts[429]).toBeGreaterThan(0);
  expect(heavyCounts[0] ?? 0).toBe(0);
  expect((lightCounts[200] ?? 0) / light.statuses.length).toBeGreaterThanOrEqual(0.9);
  // The level's two seats were shared: the light flow got a real share of the dispatches, not leftovers.
  expect(lightCounts[200]).toBeGreaterThan(10);
}, 20_000);
