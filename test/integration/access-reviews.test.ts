// SelfSubjectAccessReview, SubjectAccessReview, SelfSubjectRulesReview: create-only, answered from the authorizers,
// at both group paths, in JSON and protobuf, with 1.26's validation texts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, startTestServer, type TestServer } from '../helpers/test-server';
import { encodeProtobufResponse } from '../../lib/apimachinery/serializers/protobuf';
import { decodeProtobufJson } from '../helpers/protobuf-decoder';

const dir = mkdtempSync(join(tmpdir(), 'orch-reviews-'));
const tokenFile = join(dir, 'tokens.csv');
writeFileSync(tokenFile, ['admin-token,admin,uid-admin,system:masters', 'alice-token,alice,uid-a'].join('\n'));
const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const alice = { Authorization: 'Bearer alice-token' };
const admin = { Authorization: 'Bearer admin-token' };

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer([`--token-auth-file=${tokenFile}`, '--authorization-mode=RBAC']);
  // The bootstrap policy (system:basic-user for the authenticated) is written after start: wait until ready, as a
  // client would (under load the first reviews came before it and were refused with 403).
  await eventually(async () => (await ts.api.get('/readyz', admin)).status === 200, 20_000, 'the server is ready');
});
afterAll(async () => ts?.stop());

const ssar = (apiVersion: string, spec: unknown) => ({ apiVersion, kind: 'SelfSubjectAccessReview', spec });

describe('SelfSubjectAccessReview', () => {
  it.each(['authorization.orch.io', 'authorization.k8s.io'])(
    'answers for the caller at /apis/%s/v1 with 201',
    async (group) => {
      const res = await ts.api.post(
        `/apis/${group}/v1/selfsubjectaccessreviews`,
        ssar(`${group}/v1`, {
          resourceAttributes: { verb: 'list', group: 'apps', resource: 'deployments', namespace: 'default' },
        }),
        alice,
      );
      expect(res.status).toBe(201);
      expect(res.body.apiVersion).toBe(`${group}/v1`);
      expect(res.body.status).toEqual({ allowed: false });
      const mine = await ts.api.post(
        `/apis/${group}/v1/selfsubjectaccessreviews`,
        ssar(`${group}/v1`, { nonResourceAttributes: { verb: 'get', path: '/healthz' } }),
        alice,
      );
      expect(mine.body.status).toEqual({
        allowed: true,
        reason: expect.stringMatching(
          /^RBAC: allowed by ClusterRoleBinding "system:(discovery|public-info-viewer)" of /,
        ),
      });
    },
  );

  it('speaks protobuf as kubectl 1.33 sends it', async () => {
    const body = encodeProtobufResponse(
      ssar('authorization.k8s.io/v1', {
        resourceAttributes: { verb: 'create', group: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews' },
      }) as any,
    );
    const res = await fetch(`${ts.url}/apis/authorization.k8s.io/v1/selfsubjectaccessreviews`, {
      method: 'POST',
      headers: { ...alice, 'Content-Type': PROTOBUF, Accept: PROTOBUF },
      body,
    });
    expect(res.status).toBe(201);
    const decoded = decodeProtobufJson(new Uint8Array(await res.arrayBuffer())) as any;
    expect(decoded.kind).toBe('SelfSubjectAccessReview');
    expect(decoded.status.allowed).toBe(true);
  });

  it('refuses a review with neither or both attribute kinds, and other methods', async () => {
    const none = await ts.api.post(
      '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
      ssar('authorization.k8s.io/v1', {}),
      alice,
    );
    expect(none.status).toBe(422);
    expect(none.body.message).toBe(
      'SelfSubjectAccessReview.authorization.orch.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
    );
    const get = await ts.api.get('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', admin);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('is refused to anonymous users by RBAC (system:basic-user is for the authenticated)', async () => {
    const res = await ts.api.post(
      '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
      ssar('authorization.k8s.io/v1', { nonResourceAttributes: { verb: 'get', path: '/healthz' } }),
    );
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(
      'selfsubjectaccessreviews.authorization.k8s.io is forbidden: User "system:anonymous" cannot create resource "selfsubjectaccessreviews" in API group "authorization.k8s.io" at the cluster scope',
    );
  });
});

describe('SubjectAccessReview', () => {
  it('answers for the named subject and needs a user or group', async () => {
    const sar = (spec: unknown) => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec });
    const masters = await ts.api.post(
      '/apis/authorization.k8s.io/v1/subjectaccessreviews',
      sar({
        user: 'someone',
        groups: ['system:masters'],
        resourceAttributes: { verb: 'delete', resource: 'namespaces' },
      }),
      admin,
    );
    expect(masters.status).toBe(201);
    expect(masters.body.status).toEqual({ allowed: true });
    const nobody = await ts.api.post(
      '/apis/authorization.k8s.io/v1/subjectaccessreviews',
      sar({ resourceAttributes: { verb: 'get', resource: 'namespaces' } }),
      admin,
    );
    expect(nobody.status).toBe(422);
    expect(nobody.body.message).toBe(
      'SubjectAccessReview.authorization.orch.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified',
    );
    expect(
      (
        await ts.api.post(
          '/apis/authorization.k8s.io/v1/subjectaccessreviews',
          sar({ user: 'x', resourceAttributes: { verb: 'get', resource: 'namespaces' } }),
          alice,
        )
      ).status,
    ).toBe(403);
  });
});

describe('SelfSubjectRulesReview', () => {
  it("lists the caller's rules in a namespace and needs one", async () => {
    const review = (spec: unknown) => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec });
    const res = await ts.api.post(
      '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews',
      review({ namespace: 'default' }),
      alice,
    );
    expect(res.status).toBe(201);
    expect(res.body.status.incomplete).toBe(false);
    expect(res.body.status.resourceRules).toContainEqual({
      verbs: ['create'],
      apiGroups: ['authorization.orch.io'],
      resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
    });
    expect(res.body.status.nonResourceRules).toContainEqual({
      verbs: ['get'],
      nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'],
    });
    const adminRules = await ts.api.post(
      '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews',
      review({ namespace: 'default' }),
      admin,
    );
    expect(adminRules.body.status.resourceRules).toContainEqual({ verbs: ['*'], apiGroups: ['*'], resources: ['*'] });
    const none = await ts.api.post('/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', review({}), alice);
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('no namespace on request');
  });
});
