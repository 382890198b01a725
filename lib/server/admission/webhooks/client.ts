// Calls one webhook: POST of an AdmissionReview over HTTPS, trusting the webhook's caBundle (else the system
// roots), bounded by its timeout; a `service` reference becomes a URL through the --admission-webhook-service-url
// template (out of a cluster there is no service network), with the TLS name `<name>.<namespace>.svc` as Kubernetes uses.
import { request } from 'node:https';
import { isIP } from 'node:net';
import { isPlainObject } from '../../../apimachinery/meta/types';

/** kube-apiserver's default in-cluster form; tests and out-of-cluster setups point it at a reachable host. */
export const DEFAULT_SERVICE_URL_TEMPLATE = 'https://{name}.{namespace}.svc:{port}{path}';
/** Responses bigger than this are refused (Kubernetes limits webhook responses alike). */
const MAX_RESPONSE_BYTES = 3 * 1024 * 1024;

/** What a call produced: the decoded body and HTTP code, or why there is none. */
export type CallResult = { ok: true; code: number; body: unknown } | { ok: false; code: number; error: string };

interface Target {
  url: URL;
  /** The TLS server name (and Host) to verify: the URL's host, or the service's DNS name. */
  serverName: string;
}

function targetOf(clientConfig: Record<string, unknown>, serviceTemplate: string): Target | string {
  const url = clientConfig['url'];
  if (typeof url === 'string') {
    const parsed = new URL(url);
    return { url: parsed, serverName: parsed.hostname };
  }
  const service = clientConfig['service'];
  if (!isPlainObject(service)) return 'no url or service in clientConfig';
  const name = String(service['name'] ?? '');
  const namespace = String(service['namespace'] ?? '');
  const port = typeof service['port'] === 'number' ? service['port'] : 443;
  const path = typeof service['path'] === 'string' ? service['path'] : '';
  const text = serviceTemplate
    .replaceAll('{name}', name)
    .replaceAll('{namespace}', namespace)
    .replaceAll('{port}', String(port))
    .replaceAll('{path}', path);
  return { url: new URL(text), serverName: `${name}.${namespace}.svc` };
}

/** Go's Duration text of whole seconds (`10s`), as client-go puts it in the `timeout` query parameter. */
const goSeconds = (seconds: number): string => `${seconds}s`;

export function callWebhook(
  hook: Record<string, unknown>,
  review: unknown,
  serviceTemplate: string,
): Promise<CallResult> {
  const clientConfig = isPlainObject(hook['clientConfig']) ? hook['clientConfig'] : {};
  const timeoutSeconds = typeof hook['timeoutSeconds'] === 'number' ? hook['timeoutSeconds'] : 10;
  let target: Target | string;
  try {
    target = targetOf(clientConfig, serviceTemplate);
  } catch (err) {
    target = (err as Error).message;
  }
  if (typeof target === 'string') return Promise.resolve({ ok: false, code: 0, error: target });
  const { url, serverName } = target;
  url.searchParams.set('timeout', goSeconds(timeoutSeconds));
  const caBundle =
    typeof clientConfig['caBundle'] === 'string' && clientConfig['caBundle'] !== ''
      ? Buffer.from(clientConfig['caBundle'], 'base64')
      : undefined;
  const body = Buffer.from(JSON.stringify(review));
  const shown = `Post "${url.toString()}"`;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: CallResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, */*', 'Content-Length': body.length },
        // SNI carries host names only (RFC 6066); an IP address is still checked against the certificate.
        ...(isIP(serverName) === 0 ? { servername: serverName } : {}),
        ...(caBundle ? { ca: caBundle } : {}),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) {
            req.destroy();
            finish({ ok: false, code: res.statusCode ?? 0, error: `${shown}: response body too large` });
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const code = res.statusCode ?? 0;
          if (code < 200 || code >= 300)
            return finish({
              ok: false,
              code,
              error: `an error on the server ("${text.slice(0, 100)}") has prevented the request from succeeding`,
            });
          try {
            finish({ ok: true, code, body: JSON.parse(text) });
          } catch (err) {
            finish({ ok: false, code, error: `failed to decode webhook response: ${(err as Error).message}` });
          }
        });
        res.on('error', (err) => finish({ ok: false, code: 0, error: `${shown}: ${err.message}` }));
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish({ ok: false, code: 0, error: `${shown}: context deadline exceeded` });
    }, timeoutSeconds * 1000);
    req.on('error', (err) => finish({ ok: false, code: 0, error: `${shown}: ${err.message}` }));
    req.end(body);
  });
}
