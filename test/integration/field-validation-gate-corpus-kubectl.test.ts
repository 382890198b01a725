// fieldValidation beyond the request matrix: the ServerSideFieldValidation gate off, a corpus of real-world Deployments
// under Strict, and kubectl --validate against this server.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Etcd3 } from 'etcd3';
import { yamlToJson } from '../../lib/apimachinery/json/yaml-to-json';
import {
  createNamespace,
  startTestServer,
  type TestServer,
  startServerWithEtcdClient,
  stopServerWithEtcdClient,
} from '../helpers/test-server';
import { goShape } from '../../lib/apimachinery/serializers/go-shape';
import {
  CANNOT_BE_HANDLED,
  DEPLOYMENTS,
  JSON_TYPE,
  NS,
  YAML_TYPE,
  deploymentJson,
  deploymentYaml,
} from './field-validation-fixture';

let ts: TestServer;
let etcd: Etcd3;

beforeAll(async () => ({ ts, etcd } = await startServerWithEtcdClient(NS)));
afterAll(() => stopServerWithEtcdClient(ts, etcd));

describe('with the ServerSideFieldValidation gate off', () => {
  let off: TestServer;
  beforeAll(async () => {
    off = await startTestServer(['--feature-gates=ServerSideFieldValidation=false']);
    await createNamespace(off.api, NS);
  });
  afterAll(() => off.stop());

  it('ignores unknown and repeated fields even under Strict, as Kubernetes 1.26 does', async () => {
    const body = deploymentJson('gate-off', '"foo":1,"replicas":2,');
    const res = await off.api.request('POST', `${DEPLOYMENTS}?fieldValidation=Strict`, body, JSON_TYPE);
    expect(res.status).toBe(201);
    expect(res.headers.get('warning')).toBeNull();
    expect(res.body.spec).not.toHaveProperty('foo');
  });

  it('still refuses type errors and unsupported values', async () => {
    const typed = await off.api.request(
      'POST',
      DEPLOYMENTS,
      deploymentJson('gate-off-type', '"replicas":"x",'),
      JSON_TYPE,
    );
    expect(typed.status).toBe(400);
    const level = await off.api.request(
      'POST',
      `${DEPLOYMENTS}?fieldValidation=Loud`,
      deploymentJson('gate-off-level'),
      JSON_TYPE,
    );
    expect(level.status).toBe(422);
  });
});

describe('a corpus of real-world Deployments', () => {
  const dir = join(__dirname, '..', 'fixtures', 'deployments');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  const corpusNs = 'corpus';

  beforeAll(() => createNamespace(ts.api, corpusNs));

  it('has at least 20 manifests', () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
  });

  it.each(files)(
    '%s is accepted under Strict, reads back as sent (as Go writes it) plus defaults, and its read-back is accepted under Strict',
    async (file) => {
      const text = readFileSync(join(dir, file), 'utf8');
      const sent = JSON.parse(yamlToJson(text, { strict: false }).json);
      const path = `/apis/apps/v1/namespaces/${corpusNs}/deployments`;
      const created = await ts.api.request('POST', `${path}?fieldValidation=Strict`, text, YAML_TYPE);
      expect({ status: created.status, message: created.body?.message }).toEqual({ status: 201, message: undefined });
      expect(created.headers.get('warning')).toBeNull();
      const read = await ts.api.get(`${path}/${sent.metadata.name}`);
      // What was sent as Kubernetes writes it back: omitempty zero values (`readOnly: false`) are gone.
      const expected = goShape(sent);
      delete expected.metadata.creationTimestamp;
      expect(read.body).toMatchObject(expected);
      const updated = await ts.api.request(
        'PUT',
        `${path}/${sent.metadata.name}?fieldValidation=Strict`,
        JSON.stringify(read.body),
        JSON_TYPE,
      );
      expect(updated.status).toBe(200);
      expect(updated.headers.get('warning')).toBeNull();
    },
  );
});

describe('kubectl --validate against this server', () => {
  let work: string;
  const kcNs = 'kubectl-validate';

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'orch-fv-'));
    writeFileSync(join(work, 'kubeconfig'), '');
    await createNamespace(ts.api, kcNs);
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  /** Runs kubectl without blocking the in-process server; resolves with its exit code and output. */
  function kubectl(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const argv = ['--server', ts.url, '--cache-dir', join(work, 'cache'), '-n', kcNs, ...args];
    return new Promise((resolve, reject) => {
      execFile(
        'kubectl',
        argv,
        { env: { ...process.env, KUBECONFIG: join(work, 'kubeconfig') }, timeout: 25_000 },
        (error, stdout, stderr) => {
          if (error && typeof error.code !== 'number') reject(error);
          else resolve({ code: error ? Number(error.code) : 0, stdout: String(stdout), stderr: String(stderr) });
        },
      );
    });
  }

  function manifest(name: string): string {
    const file = join(work, `${name}.yaml`);
    writeFileSync(file, deploymentYaml(name, ['foo: 1']));
    return file;
  }

  it('refuses an unknown field by default (strict), with the server’s message', async () => {
    const file = manifest('kc-strict');
    const res = await kubectl('create', '-f', file);
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe(
      `Error from server (BadRequest): error when creating "${file}": ${CANNOT_BE_HANDLED}strict decoding error: unknown field "spec.foo"`,
    );
  }, 30_000);

  it('creates with a warning under --validate=warn, and silently under --validate=false', async () => {
    const warned = await kubectl('create', '-f', manifest('kc-warn'), '--validate=warn');
    expect(warned).toMatchObject({ code: 0, stdout: 'deployment.apps/kc-warn created\n' });
    expect(warned.stderr).toBe('Warning: unknown field "spec.foo"\n');
    const ignored = await kubectl('create', '-f', manifest('kc-ignore'), '--validate=false');
    expect(ignored).toEqual({ code: 0, stdout: 'deployment.apps/kc-ignore created\n', stderr: '' });
  }, 30_000);
});
