// --feature-gates start-up matrix: each 1.26 gate's observable effect with the gate at its default and flipped.
import { aDeployment } from '../helpers/fixtures';
import { createNamespace, startTestServer, type TestServer } from '../helpers/test-server';
import { parseCommandLine } from '../../lib/server/options/options';

const NS = 'gates';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;

function scaleToZeroHpa(name: string): Record<string, unknown> {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 0,
      maxReplicas: 3,
      metrics: [
        { type: 'External', external: { metric: { name: 'queue_length' }, target: { type: 'Value', value: '10' } } },
      ],
    },
  };
}

describe.each([
  ['defaults', [] as string[], { chunking: true, strictFields: true, scaleToZero: false, apf: true }],
  [
    'every gate flipped',
    [
      '--feature-gates=APIListChunking=false,ServerSideFieldValidation=false,HPAScaleToZero=true,APIPriorityAndFairness=false',
    ],
    { chunking: false, strictFields: false, scaleToZero: true, apf: false },
  ],
])('gates: %s', (_label, flags, expected) => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer(flags);
    await createNamespace(ts.api, NS);
    for (const name of ['a', 'b', 'c']) expect((await ts.api.post(DEPLOYMENTS, aDeployment(name))).status).toBe(201);
  });
  afterAll(() => ts.stop());

  it(`APIListChunking: limit=1 ${expected.chunking ? 'pages' : 'is ignored'}`, async () => {
    const list = await ts.api.get(`${DEPLOYMENTS}?limit=1`);
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(expected.chunking ? 1 : 3);
    expect(list.body.metadata.continue !== undefined).toBe(expected.chunking);
  });

  it(`ServerSideFieldValidation: fieldValidation=Strict ${expected.strictFields ? 'rejects' : 'ignores'} an unknown field`, async () => {
    const res = await ts.api.post(`${DEPLOYMENTS}?fieldValidation=Strict`, { ...aDeployment('strict'), bogus: 1 });
    expect(res.status).toBe(expected.strictFields ? 400 : 201);
    if (expected.strictFields) expect(res.body.message).toContain('unknown field "bogus"');
  });

  it(`HPAScaleToZero: minReplicas 0 ${expected.scaleToZero ? 'is allowed' : 'is invalid'}`, async () => {
    const res = await ts.api.post(
      `/apis/autoscaling/v2/namespaces/${NS}/horizontalpodautoscalers`,
      scaleToZeroHpa('zero'),
    );
    expect(res.status).toBe(expected.scaleToZero ? 201 : 422);
  });

  it(`APIPriorityAndFairness: X-Orch-PF-* headers ${expected.apf ? 'present' : 'absent'}`, async () => {
    const res = await ts.api.get(DEPLOYMENTS);
    expect(res.headers.get('x-orch-pf-flowschema-uid') !== null).toBe(expected.apf);
    expect(res.headers.get('x-kubernetes-pf-prioritylevel-uid') !== null).toBe(expected.apf);
  });
});

describe('refused gate settings', () => {
  it.each([
    ['ServerSideApply=false', 'cannot set feature gate ServerSideApply to false, feature is locked to true'],
    ['NoSuchGate=true', 'unrecognized feature gate: NoSuchGate'],
  ])('--feature-gates=%s fails start-up', (gate, message) => {
    expect(() => parseCommandLine([`--feature-gates=${gate}`])).toThrow(
      `invalid argument "${gate}" for "--feature-gates" flag: ${message}`,
    );
  });
});
