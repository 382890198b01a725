// Calls one webhook: POST of an AdmissionReview over HTTPS, trusting the webhook's caBundle (else the system
// roots), bounded by its timeout; a `service` reference becomes a URL through the --admission-webhook-service-url
// template (out of a cluster there is no service network), with the TLS name `<name>.<namespace>.svc` as Kubernetes uses.
// Redirects are followed as Go's http.Client follows them, and failures read as client-go reports them (answer.ts).
import { request, type RequestOptions } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import { isPlainObject } from '../../../apimachinery/meta/types';
import { answerOf, type CallResult } from './answer';
import { goTransportError } from './transport-errors';

export type { CallResult } from './answer';

/** kube-apiserver's default in-cluster form; tests and out-of-cluster setups point it at a reachable host. */
export const DEFAULT_SERVICE_URL_TEMPLATE = 'https://{name}.{namespace}.svc:{port}{path}';
/**
 * 1.26 reads a webhook's answer whole, however big; this bound only keeps a hostile answer from exhausting the
 * process (Node cannot hold a string of more than 512 MiB): an answer past it fails the call.
 */
const MAX_RESPONSE_BYTES = 256 * 1024 * 1024;
/** Go's http.Client default CheckRedirect: the 11th redirect fails the call. */
const MAX_REDIRECTS = 10;

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

/** One HTTP exchange: the answer's code, headers and body, or Go's text of why there is none. */
type Exchange = { code: number; headers: IncomingHttpHeaders; body: Buffer } | { error: string };

function exchange(url: URL, options: RequestOptions, body: Buffer | undefined, signal: AbortSignal): Promise<Exchange> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Exchange): void => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const req = request(url, { ...options, signal }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_RESPONSE_BYTES) {
          req.destroy();
          finish({ error: 'response body too large' });
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => finish({ code: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', (err) => finish({ error: goTransportError(err, url) }));
    });
    req.on('error', (err) => finish({ error: goTransportError(err, url) }));
    req.end(body);
  });
}

export async function callWebhook(
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
  if (typeof target === 'string') return { ok: false, error: target };
  const { serverName } = target;
  let url = target.url;
  url.searchParams.set('timeout', goSeconds(timeoutSeconds));
  const caBundle =
    typeof clientConfig['caBundle'] === 'string' && clientConfig['caBundle'] !== ''
      ? Buffer.from(clientConfig['caBundle'], 'base64')
      : undefined;
  const payload = Buffer.from(JSON.stringify(review));
  const tls: RequestOptions = {
    // SNI carries host names only (RFC 6066); an IP address is still checked against the certificate.
    ...(isIP(serverName) === 0 ? { servername: serverName } : {}),
    ...(caBundle ? { ca: caBundle } : {}),
    agent: false,
  };
  // The timeout bounds the whole call, redirects included (client-go's context deadline).
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutSeconds * 1000);
  const shown = (u: URL): string => `Post "${u.toString()}"`;
  try {
    let method = 'POST';
    for (let redirects = 0; ; redirects++) {
      const body = method === 'POST' ? payload : undefined;
      const headers: Record<string, string | number> = { Accept: 'application/json, */*' };
      if (body) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': body.length });
      const result = await exchange(url, { ...tls, method, headers }, body, controller.signal);
      if (timedOut) return { ok: false, error: `${shown(url)}: context deadline exceeded` };
      if ('error' in result) return { ok: false, error: `${shown(url)}: ${result.error}` };
      const location = result.headers.location;
      if (![301, 302, 303, 307, 308].includes(result.code) || location === undefined || location === '')
        return answerOf(result.code, result.headers['content-type'], result.body);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        return { ok: false, error: `${shown(url)}: failed to parse Location header "${location}"` };
      }
      if (redirects + 1 > MAX_REDIRECTS)
        return { ok: false, error: `Post "${location}": stopped after ${MAX_REDIRECTS} redirects` };
      // 307 and 308 repeat the POST with its body; 301, 302 and 303 follow with a GET, as Go's client does.
      if (result.code !== 307 && result.code !== 308) method = 'GET';
      url = next;
    }
  } finally {
    clearTimeout(timer);
  }
}
