// API Priority and Fairness protects: a heavy user at one level does not starve a light user at another level
// (isolation), nor a light user sharing its level (fair queuing with shuffle sharding, flows told apart ByUser).
// The users are real: bearer tokens from --token-auth-file. Outcomes are asserted; latency figures are in
// docs/benchmarks.md (test/bench/apf.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/test-server';
import {
  awaitClassification,
  countStatuses,
  createFlowSchema,
  createPriorityLevel,
  metricSum,
  streams,
} from '../helpers/flowcontrol';
import { dealHand, hashFlow } from '../../lib/server/flowcontrol/fairqueuing/shuffle-sharding';

const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
const HPAS = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';
const LOAD_MS = 3000;
const FAIR_QUEUES = 8;
const FAIR_HAND = 2;

/** A light user of the `fair` level whose hand of queues shares none with the heavy user's (picked, not left to luck). */
function lightFairUser(): string {
  const heavyHand = dealHand(hashFlow('fair', 'fair-heavy'), FAIR_QUEUES, FAIR_HAND);
  for (let i = 0; ; i++) {
    const user = `fair-light-${i}`;
    if (dealHand(hashFlow('fair', user), FAIR_QUEUES, FAIR_HAND).every((q) => !heavyHand.includes(q))) return user;
  }
}

const FAIR_LIGHT = lightFairUser();
const USERS = ['iso-heavy', 'iso-light', 'fair-heavy', FAIR_LIGHT];
const tokenOf = (user: string): string => `${user}-token`;

let ts: TestServer;
const tokenDir = mkdtempSync(join(tmpdir(), 'apf-isolation-'));
beforeAll(async () => {
  const tokenFile = join(tokenDir, 'tokens.csv');
  writeFileSync(tokenFile, USERS.map((user) => `${tokenOf(user)},${user},${user}-uid\n`).join(''));
  // 10 seats for the whole server.
  ts = await startTestServer([
    '--max-requests-inflight=6',
    '--max-mutating-requests-inflight=4',
    `--token-auth-file=${tokenFile}`,
  ]);
  const queuing = { queues: 4, handSize: 2, queueLengthLimit: 5 };
  await createPriorityLevel(ts.api, 'iso-heavy', { shares: 100, queuing });
  await createPriorityLevel(ts.api, 'iso-light', { shares: 100, queuing });
  await createPriorityLevel(ts.api, 'fair', {
    shares: 100,
    queuing: { queues: FAIR_QUEUES, handSize: FAIR_HAND, queueLengthLimit: 10 },
  });
  const listDeployments = [{ verbs: ['list'], apiGroups: ['apps'], resources: ['deployments'], namespaces: ['*'] }];
  const heavyUid = await createFlowSchema(ts.api, 'iso-heavy', 'iso-heavy', listDeployments, { users: ['iso-heavy'] });
  const lightUid = await createFlowSchema(ts.api, 'iso-light', 'iso-light', listDeployments, { users: ['iso-light'] });
  const listHpas = [
    { verbs: ['list'], apiGroups: ['autoscaling'], resources: ['horizontalpodautoscalers'], namespaces: ['*'] },
  ];
  const fairUid = await createFlowSchema(ts.api, 'fair', 'fair', listHpas, {
    users: ['fair-heavy', FAIR_LIGHT],
    distinguisher: 'ByUser',
  });
  await awaitClassification(ts.api, DEPLOYMENTS, heavyUid, tokenOf('iso-heavy'));
  await awaitClassification(ts.api, DEPLOYMENTS, lightUid, tokenOf('iso-light'));
  await awaitClassification(ts.api, HPAS, fairUid, tokenOf('fair-heavy'));
  await awaitClassification(ts.api, HPAS, fairUid, tokenOf(FAIR_LIGHT));
}, 30_000);
afterAll(async () => {
  await ts?.stop();
  rmSync(tokenDir, { recursive: true, force: true });
});

it('isolates levels: 50 heavy streams of one user at one level, 3 light streams of another user at another; the light one is never rejected', async () => {
  const [heavy, light] = await Promise.all([
    streams(ts.url + DEPLOYMENTS, 50, LOAD_MS, tokenOf('iso-heavy')),
    streams(ts.url + DEPLOYMENTS, 3, LOAD_MS, tokenOf('iso-light')),
  ]);
  const heavyCounts = countStatuses(heavy.statuses);
  const lightCounts = countStatuses(light.statuses);
  // The heavy level is saturated (its queues overflow), the light one is served in full.
  expect(heavyCounts[429]).toBeGreaterThan(0);
  expect(Object.keys(heavyCounts).sort()).toEqual(['200', '429']);
  expect(Object.keys(lightCounts)).toEqual(['200']);
  expect(lightCounts[200]).toBeGreaterThan(10);
  expect(
    await metricSum(ts.api, 'apiserver_flowcontrol_rejected_requests_total', { priority_level: 'iso-light' }),
  ).toBe(0);
  expect(
    await metricSum(ts.api, 'apiserver_flowcontrol_rejected_requests_total', {
      priority_level: 'iso-heavy',
      reason: 'queue-full',
    }),
  ).toBe(heavyCounts[429]);
}, 20_000);

it('is fair within a level: a user 10× lighter than its neighbour gets ≥ 90% of what it asks for', async () => {
  const [heavy, light] = await Promise.all([
    streams(ts.url + HPAS, 30, LOAD_MS, tokenOf('fair-heavy')),
    streams(ts.url + HPAS, 3, LOAD_MS, tokenOf(FAIR_LIGHT)),
  ]);
  const heavyCounts = countStatuses(heavy.statuses);
  const lightCounts = countStatuses(light.statuses);
  expect(heavyCounts[429]).toBeGreaterThan(0);
  expect(heavyCounts[0] ?? 0).toBe(0);
  expect((lightCounts[200] ?? 0) / light.statuses.length).toBeGreaterThanOrEqual(0.9);
  // The level's two seats were shared: the light user got a real share of the dispatches, not leftovers.
  expect(lightCounts[200]).toBeGreaterThan(10);
  // Both users were dispatched at this level (they are two flows of one FlowSchema).
  expect(
    await metricSum(ts.api, 'apiserver_flowcontrol_dispatched_requests_total', {
      priority_level: 'fair',
      flow_schema: 'fair',
    }),
  ).toBeGreaterThan((lightCounts[200] ?? 0) + 10);
}, 20_000);
