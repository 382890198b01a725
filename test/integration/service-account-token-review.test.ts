// TokenReview audiences (spec.audiences, the API audiences, audience-agnostic static tokens), service account token
// times (exp, nbf, iat with go-jose's minute of leeway), TokenRequest boundObjectRef refusals, and the warning for
// `Bearer  <token>`, as Kubernetes 1.26 answers them.
import { execFileSync } from 'node:child_process';
import { createPrivateKey } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { badRequestStatus } from '../helpers/status';

const dir = mkdtempSync(join(tmpdir(), 'orch-token-review-'));
const tokenFile = join(dir, 'tokens.csv');
writeFileSync(tokenFile, 'admin-token,admin,uid-admin,system:masters\nalice-token,alice,uid-a\n');
const signingKey = join(dir, 'sa.key');
const otherKey = join(dir, 'other.key');
execFileSync('openssl', ['genrsa', '-out', signingKey, '2048'], { stdio: 'ignore' });
execFileSync('openssl', ['genrsa', '-out', otherKey, '2048'], { stdio: 'ignore' });
const ISSUER = 'https://orch.example/issuer';
const NS = 'tokrev';

let ts: TestServer;
let robotUid = '';
const admin = { Authorization: 'Bearer admin-token' };

const tokenRequest = (spec: Record<string, unknown>, sa = 'robot') =>
  ts.api.post(
    `/api/v1/namespaces/${NS}/serviceaccounts/${sa}/token`,
    { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec },
    admin,
  );
const issue = async (audiences?: string[]): Promise<string> => {
  const res = await tokenRequest(audiences ? { audiences } : {});
  if (res.status !== 201) throw new Error(res.text);
  return res.body.status.token as string;
};
const review = async (token: string, audiences?: string[]) => {
  const res = await ts.api.post(
    '/apis/authentication.k8s.io/v1/tokenreviews',
    {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      spec: { token, ...(audiences ? { audiences } : {}) },
    },
    admin,
  );
  expect(res.status).toBe(201);
  return res.body.status as Record<string, unknown>;
};

/** A token for robot signed with `keyFile`, its times in seconds from now. */
function forge(times: { iat?: number; nbf?: number; exp?: number }, keyFile = signingKey): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT({ 'kubernetes.io': { namespace: NS, serviceaccount: { name: 'robot', uid: robotUid } } })
    .setProtectedHeader({ alg: 'RS256' })
    .setIssuer(ISSUER)
    .setSubject(`system:serviceaccount:${NS}:robot`)
    .setAudience([ISSUER])
    .setIssuedAt(now + (times.iat ?? 0))
    .setExpirationTime(now + (times.exp ?? 3600));
  if (times.nbf !== undefined) jwt.setNotBefore(now + times.nbf);
  return jwt.sign(createPrivateKey(readFileSync(keyFile)));
}

const ROBOT_USER = {
  username: `system:serviceaccount:${NS}:robot`,
  groups: ['system:serviceaccounts', `system:serviceaccounts:${NS}`, 'system:authenticated'],
};

beforeAll(async () => {
  ts = await startTestServer([
    `--token-auth-file=${tokenFile}`,
    `--service-account-issuer=${ISSUER}`,
    `--service-account-signing-key-file=${signingKey}`,
  ]);
  await ts.api.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }, admin);
  const sa = await ts.api.post(
    `/api/v1/namespaces/${NS}/serviceaccounts`,
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } },
    admin,
  );
  robotUid = sa.body.metadata.uid;
  // The service account cache follows a watch: wait until a fresh token authenticates.
  const token = await issue();
  for (
    let i = 0;
    i < 50 && (await ts.api.get('/api/v1/namespaces', { Authorization: `Bearer ${token}` })).status !== 200;
    i++
  )
    await new Promise((r) => setTimeout(r, 50));
}, 60_000);
afterAll(async () => ts?.stop());

describe('TokenReview audiences', () => {
  it('authenticates a service account token for the audiences asked for that it names, answering the intersection', async () => {
    const token = await issue(['vault', ISSUER]);
    expect(await review(token, ['other', 'vault'])).toEqual({
      authenticated: true,
      user: { ...ROBOT_USER, uid: robotUid },
      audiences: ['vault'],
    });
    expect(await review(token)).toEqual({
      authenticated: true,
      user: { ...ROBOT_USER, uid: robotUid },
      audiences: [ISSUER],
    });
  });

  it('refuses a service account token that names none of the audiences asked for', async () => {
    const token = await issue(['vault']);
    expect(await review(token, ['other'])).toEqual({
      user: {},
      error: '[invalid bearer token, token audiences ["vault"] is invalid for the target audiences ["other"]]',
    });
    expect(await review(token)).toEqual({
      user: {},
      error: `[invalid bearer token, token audiences ["vault"] is invalid for the target audiences ["${ISSUER}"]]`,
    });
  });

  it("treats static tokens as audience-agnostic: good for the API server's audiences only", async () => {
    const alice = { username: 'alice', uid: 'uid-a', groups: ['system:authenticated'] };
    expect(await review('alice-token')).toEqual({ authenticated: true, user: alice, audiences: [ISSUER] });
    expect(await review('alice-token', ['vault', ISSUER])).toEqual({
      authenticated: true,
      user: alice,
      audiences: [ISSUER],
    });
    expect(await review('alice-token', ['vault'])).toEqual({ user: {}, error: 'invalid bearer token' });
  });

  it('says "invalid bearer token" for a token nobody knows', async () => {
    expect(await review('nobody-knows-this')).toEqual({ user: {}, error: 'invalid bearer token' });
  });
});

describe('service account token times', () => {
  it.each([
    ['issued in the future', { iat: 120 }, 'service account token is issued in the future'],
    ['not valid yet', { nbf: 120 }, 'service account token is not valid yet'],
    ['expired', { iat: -7200, exp: -120 }, 'service account token has expired'],
  ])('refuses a token %s with 401 and TokenReview says why', async (_what, times, error) => {
    const token = await forge(times);
    expect((await ts.api.get('/api/v1/namespaces', { Authorization: `Bearer ${token}` })).status).toBe(401);
    expect(await review(token)).toEqual({ user: {}, error: `[invalid bearer token, ${error}]` });
  });

  it('allows a minute of clock skew', async () => {
    const token = await forge({ iat: 30, nbf: 30, exp: -30 });
    expect((await ts.api.get('/api/v1/namespaces', { Authorization: `Bearer ${token}` })).status).toBe(200);
  });

  it("words a signature no key verifies as go-jose's crypto failure", async () => {
    const token = await forge({}, otherKey);
    expect(await review(token)).toEqual({
      user: {},
      error: '[invalid bearer token, square/go-jose: error in cryptographic primitive]',
    });
  });
});

describe('TokenRequest boundObjectRef', () => {
  it.each([
    [{ kind: 'Pod', apiVersion: 'v1', name: 'ghost' }, 404, 'pods "ghost" not found', 'pods'],
    [{ kind: 'Secret', apiVersion: 'v1', name: 'ghost' }, 404, 'secrets "ghost" not found', 'secrets'],
  ])('refuses %j with the NotFound of the object (none is served)', async (ref, code, message, kind) => {
    const res = await tokenRequest({ boundObjectRef: ref });
    expect({ status: res.status, body: res.body }).toEqual({
      status: code,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message,
        reason: 'NotFound',
        details: { name: 'ghost', kind },
        code,
      },
    });
  });

  it.each([
    [
      { kind: 'Deployment', apiVersion: 'apps/v1', name: 'web' },
      'cannot bind token to object of type apps/v1, Kind=Deployment',
    ],
    [{ kind: 'ConfigMap', apiVersion: 'v1', name: 'c' }, 'cannot bind token to object of type /v1, Kind=ConfigMap'],
    [{ kind: 'Pod', apiVersion: 'apps/v1', name: 'p' }, 'cannot bind token to object of type apps/v1, Kind=Pod'],
  ])('refuses %j with 400 BadRequest', async (ref, message) => {
    const res = await tokenRequest({ boundObjectRef: ref });
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: badRequestStatus(message) });
  });

  it('checks the service account before the bound object', async () => {
    const res = await tokenRequest({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'ghost' } }, 'nobody');
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('serviceaccounts "nobody" not found');
  });
});

describe('Authorization: Bearer with an extra space', () => {
  it('warns that the token is ignored (and the request is anonymous)', async () => {
    const res = await ts.api.get('/api/v1/namespaces', { Authorization: 'Bearer  admin-token' });
    expect(res.status).toBe(200);
    expect(res.headers.get('warning')).toBe(
      '299 - "the provided Authorization header contains extra space before the bearer token, and is ignored"',
    );
    expect((await ts.api.get('/api/v1/namespaces', admin)).headers.get('warning')).toBeNull();
  });
});
