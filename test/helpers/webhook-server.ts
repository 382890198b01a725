// A real HTTPS admission webhook for tests: a self-signed CA and a server certificate made with openssl, and a
// Node https server whose paths deny, mutate (JSONPatch), hang past any timeout, crash, or allow with warnings.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, type ApiClient } from './test-server';

export interface ReceivedReview {
  path: string;
  review: any;
}

export interface WebhookServer {
  /** https://127.0.0.1:<port> */
  url: string;
  port: number;
  /** base64 of the CA certificate (a webhook's caBundle). */
  caBundle: string;
  received: ReceivedReview[];
  close(): Promise<void>;
}

/** CA and a server certificate valid for 127.0.0.1 and webhook.default.svc (the service name tests use). */
function makeCertificates(dir: string): { ca: string; key: string; cert: string } {
  const run = (...args: string[]): void => void execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  run(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '1',
    '-subj',
    '/CN=test-webhook-ca',
  );
  run(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
    '-subj',
    '/CN=webhook.default.svc',
  );
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:webhook.default.svc\n');
  run(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.crt',
    '-days',
    '1',
    '-extfile',
    'san.ext',
  );
  return {
    ca: readFileSync(join(dir, 'ca.crt'), 'utf8'),
    key: readFileSync(join(dir, 'server.key'), 'utf8'),
    cert: readFileSync(join(dir, 'server.crt'), 'utf8'),
  };
}

/** Answers in the AdmissionReview version asked (as webhook libraries do), unless `apiVersion` says otherwise. */
function respond(
  res: import('node:http').ServerResponse,
  uid: string,
  response: Record<string, unknown>,
  apiVersion = 'admission.k8s.io/v1',
): void {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ apiVersion, kind: 'AdmissionReview', response: { uid, ...response } }));
}

const patchOf = (ops: unknown[]): string => Buffer.from(JSON.stringify(ops)).toString('base64');

/** A test's own paths: answers and returns true for a path it serves. */
export type ExtraHandler = (
  path: string,
  review: any,
  res: import('node:http').ServerResponse,
  req: import('node:http').IncomingMessage,
) => boolean;

export async function startWebhookServer(extra?: ExtraHandler): Promise<WebhookServer> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-webhook-'));
  const { ca, key, cert } = makeCertificates(dir);
  const received: ReceivedReview[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      received.push({ path, review });
      const uid = review.request.uid as string;
      const asked = typeof review.apiVersion === 'string' ? review.apiVersion : undefined;
      if (extra?.(path, review, res, req)) return;
      switch (path) {
        case '/deny':
          return respond(res, uid, { allowed: false, status: { message: 'no deployments here', code: 403 } });
        case '/deny-reason':
          return respond(res, uid, { allowed: false, status: { reason: 'NotWelcome', code: 409 } });
        case '/mutate':
          return respond(res, uid, {
            allowed: true,
            patchType: 'JSONPatch',
            patch: patchOf([{ op: 'add', path: '/metadata/labels/mutated', value: 'yes' }]),
            warnings: ['mutated by the test webhook'],
            auditAnnotations: { mutated: 'yes' },
          });
        case '/untyped-patch':
          // A patch without patchType: accepted from a v1beta1 review only.
          return respond(
            res,
            uid,
            { allowed: true, patch: patchOf([{ op: 'add', path: '/metadata/labels/untyped', value: 'yes' }]) },
            asked,
          );
        case '/scale-to-3':
          return respond(res, uid, {
            allowed: true,
            patchType: 'JSONPatch',
            patch: patchOf([{ op: 'replace', path: '/spec/replicas', value: 3 }]),
          });
        case '/answer-v1beta1':
          return respond(res, uid, { allowed: true }, 'admission.k8s.io/v1beta1');
        case '/allow':
          return respond(res, uid, { allowed: true, warnings: ['seen by the test webhook'] });
        case '/slow':
          return; // never answers: the caller's timeout ends it
        case '/crash':
          return req.socket.destroy();
        case '/wrong-uid':
          return respond(res, 'not-the-uid', { allowed: true });
        default:
          res.writeHead(404);
          return res.end('no such webhook');
      }
    });
  });
  server.on('secureConnection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    caBundle: Buffer.from(ca).toString('base64'),
    received,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A webhook of a configuration calling `path` on the test server, for CREATE of apps/v1 deployments by default. */
export function webhookSpec(
  server: WebhookServer,
  name: string,
  path: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    name,
    clientConfig: { url: `${server.url}${path}`, caBundle: server.caBundle },
    rules: [{ operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...extra,
  };
}

/**
 * Creates a webhook configuration at `path` (the body names admissionregistration.k8s.io/v1, as real clients send
 * it) and waits until `taken` says the server acts on it (each replica's configurations come from a watch).
 */
export async function configureWebhooks(
  api: ApiClient,
  path: string,
  kind: string,
  name: string,
  webhooks: Record<string, unknown>[],
  taken: () => Promise<boolean>,
): Promise<void> {
  const res = await api.post(path, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind,
    metadata: { name },
    webhooks,
  });
  if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
  await eventually(taken, 5000, `${name} to take effect`);
}
