// Shared by the client-node e2e scripts: the KubeConfig for a server URL and the step recorder whose JSON the jest
// side (test/helpers/client-node-script.ts) reads. @kubernetes/client-node is pinned to 1.4.0: 2.x needs undici 8,
// which requires Node >= 22.19.
import { KubeConfig, ApiException } from '@kubernetes/client-node';

/** A KubeConfig for an unauthenticated server, with `namespace` as the context's default. */
export function kubeConfig(serverUrl, namespace) {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'e2e', server: serverUrl, skipTLSVerify: true }],
    users: [{ name: 'anonymous' }],
    contexts: [{ name: 'e2e', cluster: 'e2e', user: 'anonymous', namespace }],
    currentContext: 'e2e',
  });
  return kc;
}

/** An ApiException (or any error) as plain JSON; the Status body is parsed when it arrives as text. */
export function describeError(err) {
  if (err instanceof ApiException) {
    let body = err.body;
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body);
      } catch {
        // keep the text
      }
    }
    return { apiException: true, code: err.code, body };
  }
  return { apiException: false, message: err instanceof Error ? err.message : String(err) };
}

/** Records named steps: `{ ok, value }` or `{ ok: false, error }`; `print()` writes `{ steps }` on stdout. */
export function stepRecorder() {
  const steps = {};
  return {
    async step(name, fn) {
      try {
        steps[name] = { ok: true, value: await fn() };
      } catch (err) {
        steps[name] = { ok: false, error: describeError(err) };
      }
    },
    print() {
      process.stdout.write(`${JSON.stringify({ steps })}\n`);
    },
  };
}

/** Resolves when `probe()` holds, polling; rejects after `ms`. */
export async function until(probe, ms, what) {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
