// API Priority and Fairness: a Reject level answers 429 as Kubernetes 1.26 does, metrics and dumps follow, the
// configuration applies live; with APF off the max-in-flight filter answers the same 429.
import { startTestServer, eventually, type TestServer } from '../helpers/test-server';
import { FLOWCONTROL } from '../helpers/fixtures';
import {
  awaitClassification,
  burst,
  countStatuses,
  createFlowSchema,
  createPriorityLevel,
  metricSum,
} from '../helpers/flowcontrol';

const HPAS = '/apis/autoscaling/v1/horizontalpodautoscalers';

describe('APF Reject level', () => {
  let ts: TestServer;
  let schemaUid = '';
  let levelUid = '';
  beforeAll(async () => {
    ts = await startTestServer(['--max-requests-inflight=6', '--max-mutating-requests-inflight=4']);
    levelUid = await createPriorityLevel(ts.api, 'tiny-reject', { shares: 1 });
    schemaUid = await createFlowSchema(ts.api, 'hpa-lists', 'tiny-reject', [
      {
        verbs: ['list'],
        apiGroups: ['autoscaling'],
        resources: ['horizontalpodautoscalers'],
        clusterScope: true,
        namespaces: ['*'],
      },
    ]);
    await awaitClassification(ts.api, HPAS, schemaUid);
  }, 30_000);
  afterAll(() => ts?.stop());

  it('answers 429 with Retry-After, the plain-text body and the PF headers, and counts the rejections', async () => {
    const before = await metricSum(ts.api, 'apiserver_flowcontrol_rejected_requests_total', {
      priority_level: 'tiny-reject',
      flow_schema: 'hpa-lists',
      reason: 'concurrency-limit',
    });
    const responses = await burst(ts.url + HPAS, 200);
    const counts = countStatuses(responses.map((r) => r.status));
    expect(Object.keys(counts).sort()).toEqual(['200', '429']);
    const rejected = responses.find((r) => r.status === 429);
    expect(rejected?.text).toBe('Too many requests, please try again later.\n');
    expect(rejected?.headers.get('retry-after')).toBe('1');
    expect(rejected?.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(rejected?.headers.get('x-content-type-options')).toBe('nosniff');
    expect(rejected?.headers.get('x-kubernetes-pf-flowschema-uid')).toBe(schemaUid);
    expect(rejected?.headers.get('x-kubernetes-pf-prioritylevel-uid')).toBe(levelUid);
    const after = await metricSum(ts.api, 'apiserver_flowcontrol_rejected_requests_total', {
      priority_level: 'tiny-reject',
      flow_schema: 'hpa-lists',
      reason: 'concurrency-limit',
    });
    expect(after - before).toBe(counts[429]);
    expect(
      await metricSum(ts.api, 'apiserver_request_total', {
        resource: 'horizontalpodautoscalers',
        verb: 'LIST',
        code: '429',
      }),
    ).toBeGreaterThanOrEqual(counts[429] ?? 0);
  });

  it('publishes the limits of every level', async () => {
    // 10 seats; shares 245 (suggested + mandatory levels) + 1: ceil(10 × 1 / 246) = 1.
    expect(
      await metricSum(ts.api, 'apiserver_flowcontrol_nominal_limit_seats', { priority_level: 'tiny-reject' }),
    ).toBe(1);
    expect(
      await metricSum(ts.api, 'apiserver_flowcontrol_current_limit_seats', { priority_level: 'tiny-reject' }),
    ).toBe(1);
    expect(
      await metricSum(ts.api, 'apiserver_flowcontrol_nominal_limit_seats', { priority_level: 'workload-low' }),
    ).toBe(5);
    expect(
      await metricSum(ts.api, 'apiserver_flowcontrol_dispatched_requests_total', {
        priority_level: 'tiny-reject',
        flow_schema: 'hpa-lists',
      }),
    ).toBeGreaterThan(0);
    expect(
      await metricSum(ts.api, 'apiserver_flowcontrol_work_estimated_seats_count', { priority_level: 'tiny-reject' }),
    ).toBeGreaterThan(0);
    expect(
      await metricSum(ts.api, 'apiserver_flowcontrol_request_execution_seconds_count', {
        priority_level: 'tiny-reject',
        type: 'regular',
      }),
    ).toBeGreaterThan(0);
  });

  it('applies a changed priority level within a second', async () => {
    const current = (await ts.api.get(`${FLOWCONTROL}/prioritylevelconfigurations/tiny-reject`)).body;
    current.spec.limited.nominalConcurrencyShares = 250;
    expect((await ts.api.put(`${FLOWCONTROL}/prioritylevelconfigurations/tiny-reject`, current)).status).toBe(200);
    await eventually(
      async () =>
        (await metricSum(ts.api, 'apiserver_flowcontrol_nominal_limit_seats', { priority_level: 'tiny-reject' })) === 6,
      1000,
      'the new nominal limit',
    );
  });

  it('serves the debug dumps as text tables', async () => {
    const levels = await ts.api.get('/debug/api_priority_and_fairness/dump_priority_levels');
    expect(levels.status).toBe(200);
    expect(levels.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const lines = levels.text.split('\n');
    expect(lines[0]).toBe('PriorityLevelName, ActiveQueues, IsIdle, IsQuiescing, WaitingRequests, ExecutingRequests');
    expect(lines).toContain('exempt,            <none>,       <none>, <none>,      <none>,          <none>');
    expect(lines.some((l) => /^tiny-reject, +0, +true, +false, +0, +0$/.test(l))).toBe(true);
    const queues = await ts.api.get('/debug/api_priority_and_fairness/dump_queues');
    expect(queues.text.split('\n')[0]).toBe(
      'PriorityLevelName, Index,  PendingRequests, ExecutingRequests, SeatsInUse, NextDispatchR, InitialSeatsSum, MaxSeatsSum, TotalWorkSum',
    );
    const requests = await ts.api.get('/debug/api_priority_and_fairness/dump_requests?includeRequestDetails=1');
    expect(requests.text).toBe(
      'PriorityLevelName, FlowSchemaName, QueueIndex, RequestIndexInQueue, FlowDistingsher, ArriveTime, InitialSeats, FinalSeats, AdditionalLatency, UserName, Verb,   APIPath, Namespace, Name,   APIVersion, Resource, SubResource\n',
    );
  });
});

describe('max-in-flight when APF is off', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer([
      '--enable-priority-and-fairness=false',
      '--max-requests-inflight=1',
      '--max-mutating-requests-inflight=1',
    ]);
  }, 30_000);
  afterAll(() => ts?.stop());

  it('rejects read-only requests beyond the limit with the same 429 and no PF headers', async () => {
    const responses = await burst(ts.url + HPAS, 100);
    const counts = countStatuses(responses.map((r) => r.status));
    expect(Object.keys(counts).sort()).toEqual(['200', '429']);
    const rejected = responses.find((r) => r.status === 429);
    expect(rejected?.text).toBe('Too many requests, please try again later.\n');
    expect(rejected?.headers.get('retry-after')).toBe('1');
    expect(rejected?.headers.get('x-kubernetes-pf-flowschema-uid')).toBeNull();
    expect((await ts.api.get('/debug/api_priority_and_fairness/dump_priority_levels')).status).toBe(404);
  });

  it('does not limit watches', async () => {
    const controller = new AbortController();
    const watches = await Promise.all(
      Array.from({ length: 5 }, () => fetch(`${ts.url}${HPAS}?watch=1`, { signal: controller.signal })),
    );
    expect(watches.map((w) => w.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await ts.api.get(HPAS)).status).toBe(200);
    controller.abort();
  });
});
