// Admission webhooks across two replicas on one etcd (a configuration written through one acts on the other within a
// second), reinvocation of IfNeeded mutating webhooks, audit annotations from responses, and the dry-run rule for
// webhooks whose sideEffects (stored before v1's validation) are not None/NoneOnDryRun.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { Etcd3 } from 'etcd3';
import { ApiServer } from '../../lib/server/server';
import { parseCommandLine } from '../../lib/server/options/options';
import { startTestEtcd, type TestEtcd } from '../helpers/etcd';
import { ApiClient, eventually, createNamespace } from '../helpers/test-server';
import { startWebhookServer, webhookSpec, type WebhookServer } from '../helpers/webhook-server';
import { aDeployment } from '../helpers/fixtures';

let etcd: TestEtcd;
let servers: ApiServer[] = [];
let hook: WebhookServer;
const auditPath = join(mkdtempSync(join(tmpdir(), 'audit-')), 'audit.log');
const ns = `replicas-${process.pid}`;

function start(flags: string[]): Promise<ApiServer> {
  const parsed = parseCommandLine(['--port=0', `--etcd-servers=${etcd.clientUrl}`, ...flags]);
  if (parsed.help) throw new Error('unexpected help');
  return ApiServer.start(parsed.options, pino({ level: 'silent' }));
}

beforeAll(async () => {
  etcd = await startTestEtcd();
  hook = await startWebhookServer();
  servers = await Promise.all([start([]), start([`--audit-log-path=${auditPath}`])]);
  await createNamespace(api(0), ns);
}, 60_000);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.shutdown()));
  await hook?.close();
  await etcd?.stop();
});

const api = (i: number): ApiClient => new ApiClient((servers[i] as ApiServer).url);
const VWC = '/apis/admissionregistration.orch.io/v1/validatingwebhookconfigurations';
const MWC = '/apis/admissionregistration.orch.io/v1/mutatingwebhookconfigurations';

const webhook = (name: string, path: string, extra: Record<string, unknown> = {}): Record<string, unknown> =>
  webhookSpec(hook, name, path, extra);

describe('webhooks on two replicas', () => {
  it('a configuration created through one replica acts on the other within a second, and its deletion too', async () => {
    const created = await api(0).post(VWC, {
      metadata: { name: 'cross' },
      webhooks: [webhook('cross.example.com', '/deny')],
    });
    expect(created.status).toBe(201);
    const t0 = Date.now();
    await eventually(
      async () =>
        (await api(1).post(`/apis/apps/v1/namespaces/${ns}/deployments`, aDeployment(`p${Date.now()}`))).status === 403,
      1000,
      'the other replica to deny',
    );
    expect(Date.now() - t0).toBeLessThan(1000);
    await api(0).delete(`${VWC}/cross`);
    await eventually(
      async () =>
        (await api(1).post(`/apis/apps/v1/namespaces/${ns}/deployments`, aDeployment(`q${Date.now()}`))).status === 201,
      1000,
      'the other replica to allow',
    );
  });

  it('reinvokes an IfNeeded mutating webhook once after a later webhook changed the object', async () => {
    const before = hook.received.filter((r) => r.path === '/allow').length;
    await api(0).post(MWC, {
      metadata: { name: 'reinvoke' },
      webhooks: [
        webhook('a-first.example.com', '/allow', { reinvocationPolicy: 'IfNeeded' }),
        webhook('b-mutate.example.com', '/mutate'),
      ],
    });
    await eventually(
      async () =>
        (await api(0).post(`/apis/apps/v1/namespaces/${ns}/deployments`, aDeployment(`r${Date.now()}`))).body?.metadata
          ?.labels?.mutated === 'yes',
      2000,
      'the mutating configuration',
    );
    const mark = hook.received.length;
    const res = await api(0).post(`/apis/apps/v1/namespaces/${ns}/deployments`, aDeployment('reinvoked'));
    expect(res.status).toBe(201);
    const calls = hook.received.slice(mark).map((r) => r.path);
    expect(calls).toEqual(['/allow', '/mutate', '/allow']);
    // The reinvocation sees the mutated object.
    expect(hook.received.at(-1)?.review.request.object.metadata.labels.mutated).toBe('yes');
    expect(hook.received.filter((r) => r.path === '/allow').length).toBeGreaterThan(before);
    await api(0).delete(`${MWC}/reinvoke`);
  });

  it('records the audit annotations of webhook responses under the webhook name', async () => {
    await api(1).post(MWC, { metadata: { name: 'audited' }, webhooks: [webhook('audit.example.com', '/mutate')] });
    await eventually(
      async () =>
        (await api(1).post(`/apis/apps/v1/namespaces/${ns}/deployments`, aDeployment(`a${Date.now()}`))).body?.metadata
          ?.labels?.mutated === 'yes',
      2000,
      'the audited configuration',
    );
    await eventually(
      async () => readFileSync(auditPath, 'utf8').includes('"audit.example.com/mutated":"yes"'),
      2000,
      'the audit annotation',
    );
    await api(1).delete(`${MWC}/audited`);
  });

  it("annotates the audit event with each mutating call's outcome and each webhook that failed open (1.26 keys)", async () => {
    await api(1).post(MWC, {
      metadata: { name: 'annotated' },
      webhooks: [
        webhook('changes.example.com', '/mutate'),
        webhook('absent.example.com', '/no-such-path', { failurePolicy: 'Ignore' }),
      ],
    });
    await eventually(
      async () =>
        (await api(1).post(`/apis/apps/v1/namespaces/${ns}/deployments`, aDeployment(`n${Date.now()}`))).body?.metadata
          ?.labels?.mutated === 'yes',
      2000,
      'the annotated configuration',
    );
    const annotationsOfCreate = (): Record<string, string> | undefined =>
      readFileSync(auditPath, 'utf8')
        .split('\n')
        .filter((line) => line.includes('"verb":"create"') && line.includes('round_0_index_0'))
        .map((line) => JSON.parse(line) as { annotations?: Record<string, string> })
        .map((event) => event.annotations ?? {})
        .find((annotations) =>
          (annotations['mutation.webhook.admission.k8s.io/round_0_index_0'] ?? '').includes('"annotated"'),
        );
    await eventually(async () => annotationsOfCreate() !== undefined, 2000, 'the audit event');
    const annotations = annotationsOfCreate() ?? {};
    expect(JSON.parse(annotations['mutation.webhook.admission.k8s.io/round_0_index_0'] ?? '')).toEqual({
      configuration: 'annotated',
      webhook: 'changes.example.com',
      mutated: true,
    });
    expect(JSON.parse(annotations['mutation.webhook.admission.k8s.io/round_0_index_1'] ?? '')).toEqual({
      configuration: 'annotated',
      webhook: 'absent.example.com',
      mutated: false,
    });
    expect(annotations['failed-open.mutation.webhook.admission.k8s.io/round_0_index_1']).toBe('absent.example.com');
    await api(1).delete(`${MWC}/annotated`);
  });

  it('rejects a dry run to a webhook whose sideEffects are not None/NoneOnDryRun with 400', async () => {
    // v1 validation refuses sideEffects Some; such configurations come from older versions, so one is stored directly.
    const client = new Etcd3({ hosts: etcd.clientUrl });
    try {
      const stored = {
        apiVersion: 'admissionregistration.orch.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        metadata: { name: 'legacy', uid: 'legacy-uid', creationTimestamp: '2024-01-01T00:00:00Z', generation: 1 },
        webhooks: [
          webhook('legacy.example.com', '/allow', {
            sideEffects: 'Some',
            failurePolicy: 'Fail',
            matchPolicy: 'Equivalent',
            timeoutSeconds: 10,
            namespaceSelector: {},
            objectSelector: {},
          }),
        ],
      };
      await client
        .put('/registry/admissionregistration.orch.io/validatingwebhookconfigurations/legacy')
        .value(JSON.stringify(stored));
    } finally {
      client.close();
    }
    await eventually(
      async () =>
        (await api(0).post(`/apis/apps/v1/namespaces/${ns}/deployments?dryRun=All`, aDeployment('dry'))).status === 400,
      2000,
      'the legacy configuration',
    );
    const res = await api(0).post(`/apis/apps/v1/namespaces/${ns}/deployments?dryRun=All`, aDeployment('dry'));
    expect(res.body).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'admission webhook "legacy.example.com" does not support dry run',
    });
    expect((await api(0).post(`/apis/apps/v1/namespaces/${ns}/deployments`, aDeployment('wet'))).status).toBe(201);
    await api(0).delete(`${VWC}/legacy`);
  });
});
