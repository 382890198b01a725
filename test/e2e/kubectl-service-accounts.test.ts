// Service accounts: serviceaccounts, `kubectl create token` (TokenRequest), the token authenticating as
// system:serviceaccount:<ns>:<name> until the account is deleted, TokenReview, and the expirationSeconds bounds.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kubectl } from '../helpers/kubectl';
import { TestPki } from '../helpers/pki';
import { eventually, startTestServer, type TestServer } from '../helpers/test-server';
import { httpsRequest } from '../helpers/https-client';

const pki = new TestPki();
const tokenFile = join(pki.dir, 'tokens.csv');
writeFileSync(tokenFile, 'admin-token,admin,uid-admin,system:masters\n');
const signingKey = join(pki.dir, 'sa.key');
execFileSync('openssl', ['genrsa', '-out', signingKey, '2048'], { stdio: 'ignore' });
const NS = 'ksa';
const ISSUER = 'https://orch.example/issuer';

let ts: TestServer;
let kubectl: Kubectl;
const ca = readFileSync(pki.ca.cert);
const admin = [`--certificate-authority=${pki.ca.cert}`, '--token=admin-token'];
const api = (method: string, path: string, token: string, body?: unknown) =>
  httpsRequest(method, `${ts.url}${path}`, {
    ca,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

beforeAll(async () => {
  ts = await startTestServer([
    `--tls-cert-file=${pki.serving.cert}`,
    `--tls-private-key-file=${pki.serving.key}`,
    `--token-auth-file=${tokenFile}`,
    '--authorization-mode=RBAC',
    `--service-account-issuer=${ISSUER}`,
    `--service-account-signing-key-file=${signingKey}`,
  ]);
  kubectl = new Kubectl(ts.url);
  await kubectl.ok(...admin, 'create', 'namespace', NS);
}, 60_000);
afterAll(async () => {
  kubectl?.cleanup();
  await ts?.stop();
  pki.remove();
});

describe('service accounts and their tokens', () => {
  it('creates a service account and a token for it with kubectl; the token authenticates as the account', async () => {
    expect(await kubectl.ok(...admin, 'create', 'serviceaccount', 'robot', '-n', NS)).toContain(
      'serviceaccount/robot created',
    );
    expect(await kubectl.ok(...admin, 'get', 'sa', '-n', NS)).toMatch(/NAME\s+SECRETS\s+AGE\nrobot\s+0\s+/);
    const token = (await kubectl.ok(...admin, 'create', 'token', 'robot', '-n', NS)).trim();
    expect(token.split('.')).toHaveLength(3);
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    expect(payload.iss).toBe(ISSUER);
    expect(payload.sub).toBe(`system:serviceaccount:${NS}:robot`);
    expect(payload.aud).toEqual([ISSUER]);
    expect(payload.exp - payload.iat).toBe(3600);

    const denied = await kubectl.run([
      `--certificate-authority=${pki.ca.cert}`,
      `--token=${token}`,
      'get',
      'deployments',
      '-n',
      NS,
    ]);
    expect(denied.stderr).toContain(
      `User "system:serviceaccount:${NS}:robot" cannot list resource "deployments" in API group "apps" in the namespace "${NS}"`,
    );
    await kubectl.ok(
      ...admin,
      'create',
      'rolebinding',
      'robot-view',
      '--clusterrole=view',
      `--serviceaccount=${NS}:robot`,
      '-n',
      NS,
    );
    await eventually(
      async () =>
        (
          await kubectl.run([
            `--certificate-authority=${pki.ca.cert}`,
            `--token=${token}`,
            'get',
            'deployments',
            '-n',
            NS,
          ])
        ).code === 0,
      3000,
      'robot may list',
    );

    const review = await api('POST', '/apis/authentication.k8s.io/v1/tokenreviews', 'admin-token', {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      spec: { token },
    });
    expect(review.status).toBe(201);
    const status = JSON.parse(review.text).status;
    expect(status.authenticated).toBe(true);
    expect(status.user.username).toBe(`system:serviceaccount:${NS}:robot`);
    expect(status.user.groups).toEqual([
      'system:serviceaccounts',
      `system:serviceaccounts:${NS}`,
      'system:authenticated',
    ]);

    await kubectl.ok(...admin, 'delete', 'serviceaccount', 'robot', '-n', NS);
    await eventually(
      async () => (await api('GET', `/apis/apps/v1/namespaces/${NS}/deployments`, token)).status === 401,
      3000,
      'token of a deleted account refused',
    );
    const recreated = await kubectl.run([...admin, 'create', 'serviceaccount', 'robot', '-n', NS]);
    expect(recreated.code).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect((await api('GET', `/apis/apps/v1/namespaces/${NS}/deployments`, token)).status).toBe(401); // another uid
  });

  it("applies Kubernetes' TokenRequest rules", async () => {
    await kubectl.ok(...admin, 'create', 'serviceaccount', 'bounds', '-n', NS);
    const short = await api('POST', `/api/v1/namespaces/${NS}/serviceaccounts/bounds/token`, 'admin-token', {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: 60 },
    });
    expect(short.status).toBe(422);
    expect(JSON.parse(short.text).message).toBe(
      'TokenRequest.authentication.orch.io "bounds" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
    );
    const missing = await api('POST', `/api/v1/namespaces/${NS}/serviceaccounts/nobody/token`, 'admin-token', {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: {},
    });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text).message).toBe('serviceaccounts "nobody" not found');
    const other = await api('POST', `/api/v1/namespaces/${NS}/serviceaccounts/bounds/token`, 'admin-token', {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { audiences: ['elsewhere'] },
    });
    expect(other.status).toBe(201);
    const foreign = JSON.parse(other.text).status.token;
    expect((await api('GET', '/api/v1/namespaces', foreign)).status).toBe(401);
  });
});
