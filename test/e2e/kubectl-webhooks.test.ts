// End-to-end: kubectl against admission webhooks — a configuration applied with kubectl, the denial text kubectl
// prints, and the webhook configuration table.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useKubectlOnBinaryServer } from '../helpers/kubectl';
import { startWebhookServer, webhookSpec, type WebhookServer } from '../helpers/webhook-server';

const ns = `e2e-webhooks-${process.pid}`;
const env = useKubectlOnBinaryServer(ns);
let hook: WebhookServer;
beforeAll(async () => {
  hook = await startWebhookServer();
}, 30_000);
afterAll(async () => {
  await hook?.close();
});

describe('kubectl with admission webhooks', () => {
  it('applies a configuration, prints it, and shows the webhook denial', async () => {
    const file = join(env.kubectl().workDir, 'vwc.json');
    writeFileSync(
      file,
      JSON.stringify({
        apiVersion: 'admissionregistration.orch.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        metadata: { name: 'e2e-deny' },
        webhooks: [webhookSpec(hook, 'deny.e2e.example.com', '/deny')],
      }),
    );
    // The kinds have no OpenAPI schema here (no catalog entry), so kubectl's client-side check looks for CRDs: skip it.
    expect(await env.kubectl().ok('apply', '-f', file)).toContain(
      'validatingwebhookconfiguration.admissionregistration.orch.io/e2e-deny created',
    );
    const table = await env.kubectl().ok('get', 'validatingwebhookconfigurations');
    expect(table.split('\n')[0]?.trim().split(/\s+/)).toEqual(['NAME', 'WEBHOOKS', 'AGE']);
    expect(table).toMatch(/e2e-deny\s+1\s+/);
    const deadline = Date.now() + 5000;
    let res = await env.kubectl().run(['-n', ns, 'create', 'deployment', 'web', '--image=nginx:1.25']);
    while (res.code === 0 && Date.now() < deadline) {
      await env.kubectl().run(['-n', ns, 'delete', 'deployment', 'web']);
      res = await env.kubectl().run(['-n', ns, 'create', 'deployment', 'web', '--image=nginx:1.25']);
    }
    expect(res.code).not.toBe(0);
    expect(res.stderr.trim()).toBe(
      'error: failed to create deployment: admission webhook "deny.e2e.example.com" denied the request: no deployments here',
    );
    await env.kubectl().ok('delete', 'validatingwebhookconfiguration', 'e2e-deny');
  });
});
