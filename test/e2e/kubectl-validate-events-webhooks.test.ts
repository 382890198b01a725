// End-to-end: kubectl create -f of an Event and of webhook configurations with validation on (kubectl finds their
// schemas in the server's OpenAPI), typos rejected by that validation, and kubectl explain of these kinds.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kubectl, kubectlRelease, useKubectlOnBinaryServer } from '../helpers/kubectl';

const ns = `e2e-validate-${process.pid}`;
const env = useKubectlOnBinaryServer(ns);

const clients = [
  ['default', undefined],
  ['1.27', kubectlRelease('1.27')],
] as const;

function file(kubectl: Kubectl, name: string, body: unknown): string {
  const path = join(kubectl.workDir, name);
  writeFileSync(path, JSON.stringify(body));
  return path;
}

const anEvent = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  apiVersion: 'events.orch.io/v1',
  kind: 'Event',
  metadata: { name },
  eventTime: '2026-01-02T03:04:05.000000Z',
  type: 'Normal',
  reason: 'Tested',
  action: 'Test',
  note: 'created by kubectl',
  reportingController: 'example.com/e2e',
  reportingInstance: 'e2e-1',
  regarding: { apiVersion: 'v1', kind: 'Pod', name: 'web-1', namespace: ns },
  ...extra,
});

const aConfiguration = (
  kind: string,
  name: string,
  webhook: Record<string, unknown> = {},
): Record<string, unknown> => ({
  apiVersion: 'admissionregistration.orch.io/v1',
  kind,
  metadata: { name },
  webhooks: [
    {
      name: 'never.e2e.example.com',
      clientConfig: { url: 'https://127.0.0.1:1/never' },
      rules: [{ operations: ['CREATE'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'] }],
      failurePolicy: 'Ignore',
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
      ...webhook,
    },
  ],
});

describe.each(clients)('kubectl (%s) create -f with validation', (label, binary) => {
  const kubectl = (): Kubectl => (binary === undefined ? env.kubectl() : new Kubectl(env.server().url, binary));
  const it_ = label !== 'default' && binary === undefined ? it.skip : it;
  const suffix = label.replace('.', '');

  it_('creates an Event and rejects one with an unknown field', async () => {
    const k = kubectl();
    expect(await k.ok('-n', ns, 'create', '-f', file(k, 'event.json', anEvent(`ok-${suffix}`)))).toContain(
      `event.events.orch.io/ok-${suffix} created`,
    );
    const bad = await k.run([
      '-n',
      ns,
      'create',
      '-f',
      file(k, 'bad-event.json', anEvent(`bad-${suffix}`, { notes: 'typo' })),
    ]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/unknown field "notes"/);
    expect((await k.run(['-n', ns, 'get', 'events.v1.events.orch.io', `bad-${suffix}`])).code).not.toBe(0);
  });

  it_('creates validating and mutating webhook configurations and rejects a mistyped field', async () => {
    const k = kubectl();
    const vwc = `e2e-vwc-${suffix}`;
    const mwc = `e2e-mwc-${suffix}`;
    expect(
      await k.ok('create', '-f', file(k, 'vwc.json', aConfiguration('ValidatingWebhookConfiguration', vwc))),
    ).toContain(`validatingwebhookconfiguration.admissionregistration.orch.io/${vwc} created`);
    expect(
      await k.ok(
        'create',
        '-f',
        file(k, 'mwc.json', aConfiguration('MutatingWebhookConfiguration', mwc, { reinvocationPolicy: 'IfNeeded' })),
      ),
    ).toContain(`mutatingwebhookconfiguration.admissionregistration.orch.io/${mwc} created`);
    const bad = await k.run([
      'create',
      '-f',
      file(k, 'bad.json', aConfiguration('ValidatingWebhookConfiguration', `${vwc}-bad`, { timeoutSecond: 5 })),
    ]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/unknown field "webhooks\[0\]\.timeoutSecond"|unknown field "timeoutSecond"/);
    await k.ok('delete', 'validatingwebhookconfiguration', vwc);
    await k.ok('delete', 'mutatingwebhookconfiguration', mwc);
  });
});

describe('kubectl explain', () => {
  it('knows the events and webhook configuration kinds', async () => {
    const hooks = await env.kubectl().ok('explain', 'validatingwebhookconfigurations.webhooks.clientConfig');
    expect(hooks).toMatch(/KIND:\s+ValidatingWebhookConfiguration/);
    expect(hooks).toMatch(/caBundle/);
    expect(hooks).toMatch(/service/);
    const events = await env.kubectl().ok('explain', 'events.eventTime', '--api-version=events.orch.io/v1');
    expect(events).toMatch(/microsecond/);
    const core = await env.kubectl().ok('explain', 'events.involvedObject');
    expect(core).toMatch(/fieldPath/);
  });
});
