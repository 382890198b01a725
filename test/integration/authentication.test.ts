// Authentication: static tokens, anonymous requests, client certificates; 401 as Kubernetes writes it; the user in audit and APF.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { startTestServer, eventually, type TestServer } from '../helpers/test-server';
import { startTestEtcd } from '../helpers/etcd';
import { parseCommandLine } from '../../lib/server/options/options';
import { ApiServer } from '../../lib/server/server';
import { TestPki } from '../helpers/pki';
import { httpsRequest } from '../helpers/https-client';

const dir = mkdtempSync(join(tmpdir(), 'orch-authn-'));
const tokenFile = join(dir, 'tokens.csv');
writeFileSync(tokenFile, ['alice-token,alice,uid-a,"dev,ops"', 'bob-token,bob,uid-b', ',nobody,uid-x', ''].join('\n'));
const auditPath = join(dir, 'audit.log');

const UNAUTHORIZED = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'Unauthorized',
  reason: 'Unauthorized',
  code: 401,
};

function auditEvents(): Array<Record<string, any>> {
  return readFileSync(auditPath, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

describe('static tokens and anonymous requests', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer([`--token-auth-file=${tokenFile}`, `--audit-log-path=${auditPath}`]);
  });
  afterAll(async () => ts?.stop());

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

  it.each([
    ['GET', '/api/v1/namespaces'],
    ['GET', '/api/v1/namespaces?watch=true'],
    ['GET', '/apis/apps/v1/namespaces/default/deployments/web'],
    ['POST', '/apis/apps/v1/namespaces/default/deployments'],
    ['DELETE', '/apis/apps/v1/namespaces/default/deployments'],
    ['GET', '/healthz'],
    ['GET', '/version'],
    ['GET', '/apis'],
    ['GET', '/metrics'],
  ])('an unknown bearer token on %s %s is 401 Unauthorized, never anonymous', async (method, path) => {
    const res = await ts.api.request(method, path, method === 'POST' ? {} : undefined, bearer('wrong-token'));
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-kubernetes-pf-flowschema-uid')).toBeNull();
  });

  it('answers 401 in the negotiated format (YAML)', async () => {
    const res = await ts.api.get('/api/v1/namespaces', { ...bearer('wrong-token'), Accept: 'application/yaml' });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe('application/yaml');
    expect(res.text).toContain('reason: Unauthorized');
  });

  it('treats a non-bearer Authorization header and an empty bearer token as no credentials', async () => {
    expect((await ts.api.get('/api/v1/namespaces', { Authorization: 'Basic YTpi' })).status).toBe(200);
    expect((await ts.api.get('/api/v1/namespaces', { Authorization: 'Bearer ' })).status).toBe(200);
  });

  it('accepts known tokens (scheme case-insensitive) and anonymous requests', async () => {
    expect((await ts.api.get('/api/v1/namespaces', bearer('alice-token'))).status).toBe(200);
    expect((await ts.api.get('/api/v1/namespaces', { Authorization: 'bearer bob-token' })).status).toBe(200);
    expect((await ts.api.get('/api/v1/namespaces')).status).toBe(200);
  });

  it('names the user in the audit event (groups from the file plus system:authenticated; none for a 401)', async () => {
    const alice = await ts.api.get('/api/v1/namespaces/default', bearer('alice-token'));
    const bob = await ts.api.get('/api/v1/namespaces/default', bearer('bob-token'));
    const anon = await ts.api.get('/api/v1/namespaces/default');
    const bad = await ts.api.get('/api/v1/namespaces/default', bearer('nope'));
    const ids = [alice, bob, anon, bad].map((r) => r.headers.get('audit-id'));
    let byId = new Map<string, Record<string, any>>();
    await eventually(
      async () => {
        byId = new Map(auditEvents().map((e) => [e['auditID'], e]));
        return ids.every((id) => byId.has(id ?? ''));
      },
      5000,
      'audit events',
    );
    expect(byId.get(ids[0]!)!['user']).toEqual({
      username: 'alice',
      uid: 'uid-a',
      groups: ['dev', 'ops', 'system:authenticated'],
    });
    expect(byId.get(ids[1]!)!['user']).toEqual({ username: 'bob', uid: 'uid-b', groups: ['system:authenticated'] });
    expect(byId.get(ids[2]!)!['user']).toEqual({ username: 'system:anonymous', groups: ['system:unauthenticated'] });
    expect(byId.get(ids[3]!)!['user']).toEqual({});
    expect(byId.get(ids[3]!)!['responseStatus']).toMatchObject({ code: 401, reason: 'Unauthorized' });
  });

  it('classifies requests for flow control by the authenticated user', async () => {
    const fs = {
      apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
      kind: 'FlowSchema',
      metadata: { name: 'alice-only' },
      spec: {
        priorityLevelConfiguration: { name: 'workload-low' },
        matchingPrecedence: 10,
        rules: [
          {
            subjects: [{ kind: 'User', user: { name: 'alice' } }],
            resourceRules: [
              { verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true },
            ],
          },
        ],
      },
    };
    const created = await ts.api.post('/apis/flowcontrol.apiserver.orch.io/v1beta3/flowschemas', fs);
    expect(created.status).toBe(201);
    await eventually(
      async () =>
        (await ts.api.get('/api/v1/namespaces', bearer('alice-token'))).headers.get(
          'x-kubernetes-pf-flowschema-uid',
        ) === created.body.metadata.uid,
      5000,
      'alice classified',
    );
    expect(
      (await ts.api.get('/api/v1/namespaces', bearer('bob-token'))).headers.get('x-kubernetes-pf-flowschema-uid'),
    ).not.toBe(created.body.metadata.uid);
    expect((await ts.api.get('/api/v1/namespaces')).headers.get('x-kubernetes-pf-flowschema-uid')).not.toBe(
      created.body.metadata.uid,
    );
  });
});

describe('--anonymous-auth=false', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer([`--token-auth-file=${tokenFile}`, '--anonymous-auth=false']);
  });
  afterAll(async () => ts?.stop());

  it('answers requests without credentials 401, and serves tokens', async () => {
    for (const path of ['/api/v1/namespaces', '/healthz', '/version']) {
      const res = await ts.api.get(path);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
    }
    expect((await ts.api.get('/api/v1/namespaces', { Authorization: 'Bearer bob-token' })).status).toBe(200);
  });
});

describe('--token-auth-file start-up errors', () => {
  const startWith = async (file: string): Promise<string> => {
    const parsed = parseCommandLine(['--port=0', '--etcd-servers=http://127.0.0.1:1', `--token-auth-file=${file}`]);
    if (parsed.help) throw new Error('help');
    try {
      const server = await ApiServer.start(parsed.options, pino({ level: 'silent' }));
      await server.shutdown();
      return 'started';
    } catch (err) {
      return (err as Error).message;
    }
  };

  it("refuses a row with fewer than 3 columns, with Kubernetes' text", async () => {
    const file = join(dir, 'short.csv');
    writeFileSync(file, 'tok1,user1,uid1\ntok2,user2\n');
    expect(await startWith(file)).toBe(
      `token file '${file}' must have at least 3 columns (token, user name, user uid), found 2`,
    );
  });

  it("refuses a missing file with Go's path error", async () => {
    const file = join(dir, 'absent.csv');
    expect(await startWith(file)).toBe(`open ${file}: no such file or directory`);
  });
});

describe('client certificates (--client-ca-file)', () => {
  const pki = new TestPki();
  const other = new TestPki('other-ca');
  const ca = readFileSync(pki.ca.cert);
  let server: ApiServer;
  let stopEtcd: () => Promise<void>;
  beforeAll(async () => {
    const etcd = await startTestEtcd();
    stopEtcd = () => etcd.stop();
    const parsed = parseCommandLine([
      '--port=0',
      `--etcd-servers=${etcd.clientUrl}`,
      `--tls-cert-file=${pki.serving.cert}`,
      `--tls-private-key-file=${pki.serving.key}`,
      `--client-ca-file=${pki.ca.cert}`,
      `--token-auth-file=${tokenFile}`,
      `--audit-log-path=${auditPath}`,
    ]);
    if (parsed.help) throw new Error('help');
    server = await ApiServer.start(parsed.options, pino({ level: 'silent' }));
  });
  afterAll(async () => {
    await server?.shutdown();
    await stopEtcd?.();
    pki.remove();
    other.remove();
  });

  it('authenticates CN as the user and each O as a group', async () => {
    const carol = pki.read(pki.client('carol', 'carol', ['team-1', 'team-2']));
    const res = await httpsRequest('GET', `${server.url}/api/v1/namespaces/default`, { ca, ...carol });
    expect(res.status).toBe(200);
    const id = String(res.headers['audit-id']);
    let event: Record<string, any> | undefined;
    await eventually(
      async () => (event = auditEvents().find((e) => e['auditID'] === id)) !== undefined,
      5000,
      'audit event',
    );
    expect(event!['user']).toEqual({ username: 'carol', groups: ['team-1', 'team-2', 'system:authenticated'] });
  });

  it('answers 401 for a certificate from another CA or without client-auth usage, even with a good token', async () => {
    const stranger = other.read(other.client('stranger', 'stranger'));
    const bad = await httpsRequest('GET', `${server.url}/api/v1/namespaces`, { ca, ...stranger });
    expect(bad.status).toBe(401);
    expect(JSON.parse(bad.text)).toEqual(UNAUTHORIZED);
    const serverOnly = pki.read(pki.client('server-only', 'dave', [], 'serverAuth'));
    expect((await httpsRequest('GET', `${server.url}/api/v1/namespaces`, { ca, ...serverOnly })).status).toBe(401);
    // kube-apiserver's union: a failed certificate does not stop a valid token from authenticating.
    expect(
      (
        await httpsRequest('GET', `${server.url}/api/v1/namespaces`, {
          ca,
          ...stranger,
          headers: { Authorization: 'Bearer bob-token' },
        })
      ).status,
    ).toBe(200);
  });

  it('serves a client without a certificate as anonymous, and tokens over TLS', async () => {
    expect((await httpsRequest('GET', `${server.url}/api/v1/namespaces`, { ca })).status).toBe(200);
    expect(
      (await httpsRequest('GET', `${server.url}/api/v1/namespaces`, { ca, headers: { Authorization: 'Bearer wrong' } }))
        .status,
    ).toBe(401);
  });
});
