// The servers and helpers shared by the admission webhook tests: a real HTTPS webhook server (self-signed CA) and an
// API server whose service references resolve to it, and configuring and removing webhook configurations.
import { startTestServer, type TestServer } from '../helpers/test-server';
import { configureWebhooks, startWebhookServer, webhookSpec, type WebhookServer } from '../helpers/webhook-server';

let ts: TestServer;
let hook: WebhookServer;

/** Starts the webhook server, then the API server. */
export async function startServers(): Promise<{ ts: TestServer; hook: WebhookServer }> {
  hook = await startWebhookServer();
  // Service references resolve to the test webhook server's loopback address ({port} comes from the reference).
  ts = await startTestServer(['--webhook-service-url-template=https://127.0.0.1:{port}{path}']);
  return { ts, hook };
}

export async function stopServers(): Promise<void> {
  await ts?.stop();
  await hook?.close();
}

export const VWC = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
export const MWC = '/apis/admissionregistration.orch.io/v1/mutatingwebhookconfigurations';

export const webhook = (name: string, path: string, extra: Record<string, unknown> = {}): Record<string, unknown> =>
  webhookSpec(hook, name, path, extra);

/** Creates a configuration and waits until the server acts on it (the watch-driven cache). */
export const configure = (
  path: string,
  kind: string,
  name: string,
  webhooks: Record<string, unknown>[],
  probe: () => Promise<boolean>,
): Promise<void> => configureWebhooks(ts.api, path, kind, name, webhooks, probe);

export async function remove(path: string, name: string): Promise<void> {
  await ts.api.delete(`${path}/${name}`);
}
