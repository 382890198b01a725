// How webhook calls fail, as kube-apiserver 1.26 fails them: denial codes (one HTTP cannot carry leaves the server
// up), mutating webhooks on DELETE, undecodable and unappliable patches, non-2xx and undecodable answers in
// client-go's words, redirects, transport errors in Go's words, and the metrics of each call.
import type { ServerResponse } from 'node:http';
import { createServer } from 'node:net';
import { startTestServer, createNamespace, uniqueName, type TestServer } from '../helpers/test-server';
import { configureWebhooks, startWebhookServer, webhookSpec, type WebhookServer } from '../helpers/webhook-server';
import { aDeployment } from '../helpers/fixtures';

const VWC = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
const MWC = '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations';

let ts: TestServer;
let hook: WebhookServer;
let ns: string;

const b64 = (text: string): string => Buffer.from(text).toString('base64');

function review(res: ServerResponse, uid: string, response: Record<string, unknown>): true {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(
    JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid, ...response } }),
  );
  return true;
}

function raw(res: ServerResponse, code: number, contentType: string | undefined, body: string): true {
  res.writeHead(code, contentType ? { 'Content-Type': contentType } : {});
  res.end(body);
  return true;
}

const patched = (uid: string, res: ServerResponse, patch: string, patchType = 'JSONPatch'): true =>
  review(res, uid, { allowed: true, patchType, patch });

beforeAll(async () => {
  hook = await startWebhookServer((path, body, res) => {
    const uid = body?.request?.uid as string;
    const code = /^\/deny-code\/(-?\d+)$/.exec(path);
    if (code) return review(res, uid, { allowed: false, status: { message: 'not today', code: Number(code[1]) } });
    switch (path) {
      case '/patch-object':
        return patched(uid, res, b64('{"op":"add","path":"/metadata/labels/x","value":"y"}'));
      case '/patch-not-json':
        return patched(uid, res, b64('hello'));
      case '/patch-bad-base64':
        return patched(uid, res, 'not*base64');
      case '/patch-unappliable':
        return patched(uid, res, b64('[{"op":"remove","path":"/metadata/labels/absent"}]'));
      case '/patch-type-bogus':
        return patched(uid, res, b64('[{"op":"add","path":"/metadata/labels/x","value":"y"}]'), 'Bogus');
      case '/patch-always':
        return patched(uid, res, b64('[{"op":"add","path":"/metadata/labels/x","value":"y"}]'));
      case '/status-500':
        return raw(
          res,
          500,
          'application/json',
          JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'webhook broke', code: 500 }),
        );
      case '/status-404':
        return raw(res, 404, 'text/plain', 'no such path');
      case '/status-502':
        return raw(res, 502, 'text/plain', 'bad gateway\n');
      case '/status-418-html':
        return raw(res, 418, 'text/html', '<p>teapot</p>');
      case '/not-json':
        return raw(res, 200, 'application/json', 'hello');
      case '/broken-json':
        return raw(res, 200, 'application/json', '{"kind": nope}');
      case '/empty':
        return raw(res, 200, 'application/json', '');
      case '/redirect':
        res.writeHead(307, { Location: '/deny-code/409' });
        res.end();
        return true;
      default:
        return false;
    }
  });
  ts = await startTestServer(['--webhook-service-url-template=https://127.0.0.1:{port}{path}']);
  ns = uniqueName('hookfail');
  await createNamespace(ts.api, ns);
}, 60_000);

afterAll(async () => {
  await ts?.stop();
  await hook?.close();
});

const createDeployment = (name = uniqueName('d')) =>
  ts.api.post(`/apis/apps/v1/namespaces/${ns}/deployments`, aDeployment(name));

/** One validating (or mutating) webhook at `path` for deployment creates; waits until the probe answers `status`. */
async function only(
  kind: 'V' | 'M',
  name: string,
  path: string,
  status: number,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await configureWebhooks(
    ts.api,
    kind === 'V' ? VWC : MWC,
    kind === 'V' ? 'ValidatingWebhookConfiguration' : 'MutatingWebhookConfiguration',
    name,
    [webhookSpec(hook, `${name}.example.com`, path, extra)],
    async () => (await createDeployment()).status === status,
  );
}

async function removeConfig(kind: 'V' | 'M', name: string): Promise<void> {
  await ts.api.delete(`${kind === 'V' ? VWC : MWC}/${name}`);
}

const metrics = async (): Promise<string> => (await ts.api.get('/metrics')).text;

describe('denials', () => {
  it('a denial with a code of four digits fails that request with a 500 and the server goes on', async () => {
    await only('V', 'code1000', '/deny-code/1000', 500);
    const res = await createDeployment();
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({
      kind: 'Status',
      code: 500,
      reason: 'InternalError',
      message: 'This request caused apiserver to panic. Look in the logs for details.',
    });
    expect((await ts.api.get('/readyz')).status).toBe(200);
    await removeConfig('V', 'code1000');
    const text = await metrics();
    expect(text).toContain(
      'apiserver_admission_webhook_rejection_count{name="code1000.example.com",type="validating",operation="CREATE",error_type="no_error",rejection_code="600"}',
    );
    expect(text).toContain(
      'apiserver_admission_webhook_request_total{name="code1000.example.com",type="validating",operation="CREATE",code="600",rejected="true"}',
    );
  });

  it('a denial with a code under 400 is a 400, one of 600 to 999 passes as it is', async () => {
    await only('V', 'code302', '/deny-code/302', 400);
    const res = await createDeployment();
    expect(res.body).toMatchObject({
      status: 'Failure',
      code: 400,
      message: 'admission webhook "code302.example.com" denied the request: not today',
    });
    await removeConfig('V', 'code302');
    await only('V', 'code750', '/deny-code/750', 750);
    expect((await createDeployment()).body.code).toBe(750);
    await removeConfig('V', 'code750');
  });
});

describe('mutating webhooks on DELETE', () => {
  const serviceAccountsRule = (operations: string[]) => ({
    rules: [{ operations, apiGroups: [''], apiVersions: ['v1'], resources: ['serviceaccounts'] }],
    objectSelector: { matchLabels: { guarded: 'yes' } },
  });
  const serviceAccount = (name: string) => ({
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name, labels: { guarded: 'yes' } },
  });

  /** Deletes a fresh labelled configmap: the status the delete answers. */
  const probeDelete = async (): Promise<number> => {
    const probe = uniqueName('probe');
    await ts.api.post(`/api/v1/namespaces/${ns}/serviceaccounts`, serviceAccount(probe));
    return (await ts.api.delete(`/api/v1/namespaces/${ns}/serviceaccounts/${probe}`)).status;
  };

  it('see the old object: a denying one stops the delete, one collection delete included', async () => {
    await configureWebhooks(
      ts.api,
      MWC,
      'MutatingWebhookConfiguration',
      'guard-delete',
      [webhookSpec(hook, 'guard.example.com', '/deny-code/403', serviceAccountsRule(['DELETE']))],
      async () => (await probeDelete()) === 403,
    );
    await ts.api.post(`/api/v1/namespaces/${ns}/serviceaccounts`, serviceAccount('kept'));
    const res = await ts.api.delete(`/api/v1/namespaces/${ns}/serviceaccounts/kept`);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('admission webhook "guard.example.com" denied the request: not today');
    const review = hook.received.filter((r) => r.path === '/deny-code/403').at(-1)?.review;
    expect(review.request).toMatchObject({
      operation: 'DELETE',
      object: null,
      oldObject: { metadata: { name: 'kept' } },
    });
    expect((await ts.api.delete(`/api/v1/namespaces/${ns}/serviceaccounts?labelSelector=guarded%3Dyes`)).status).toBe(
      403,
    );
    expect((await ts.api.get(`/api/v1/namespaces/${ns}/serviceaccounts/kept`)).status).toBe(200);
    await removeConfig('M', 'guard-delete');
  });

  it('a patch on DELETE fails the request as 1.26 does', async () => {
    await configureWebhooks(
      ts.api,
      MWC,
      'MutatingWebhookConfiguration',
      'patch-delete',
      [webhookSpec(hook, 'patcher.example.com', '/patch-always', serviceAccountsRule(['DELETE']))],
      async () => (await probeDelete()) === 500,
    );
    await ts.api.post(`/api/v1/namespaces/${ns}/serviceaccounts`, serviceAccount('patched-on-delete'));
    const res = await ts.api.delete(`/api/v1/namespaces/${ns}/serviceaccounts/patched-on-delete`);
    expect(res.body).toMatchObject({
      code: 500,
      reason: 'InternalError',
      message:
        'Internal error occurred: admission webhook "patcher.example.com" attempted to modify the object, which is not supported for this operation',
    });
    expect((await ts.api.get(`/api/v1/namespaces/${ns}/serviceaccounts/patched-on-delete`)).status).toBe(200);
    await removeConfig('M', 'patch-delete');
  });
});

describe('patches', () => {
  it('an undecodable patch is an internal error whatever the failure policy', async () => {
    await only('M', 'patch-object', '/patch-object', 500, { failurePolicy: 'Ignore' });
    expect((await createDeployment()).body.message).toBe(
      'Internal error occurred: json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    );
    await removeConfig('M', 'patch-object');
    await only('M', 'patch-not-json', '/patch-not-json', 500, { failurePolicy: 'Ignore' });
    expect((await createDeployment()).body.message).toBe(
      "Internal error occurred: invalid character 'h' looking for beginning of value",
    );
    await removeConfig('M', 'patch-not-json');
    const text = await metrics();
    expect(text).toContain(
      'apiserver_admission_webhook_rejection_count{name="patch-object.example.com",type="admit",operation="CREATE",error_type="apiserver_internal_error",rejection_code="0"}',
    );
    expect(text).toContain(
      'apiserver_admission_webhook_request_total{name="patch-object.example.com",type="admit",operation="CREATE",code="0",rejected="true"}',
    );
  });

  it('a patch that does not apply is an internal error with json-patch text alone', async () => {
    await only('M', 'patch-unappliable', '/patch-unappliable', 500);
    const { message } = (await createDeployment()).body;
    expect(message).toMatch(/^Internal error occurred: /);
    expect(message).not.toMatch(/webhook/);
    await removeConfig('M', 'patch-unappliable');
  });

  it('a patch that is not base64 fails the call under its failure policy', async () => {
    await only('M', 'patch-b64', '/patch-bad-base64', 500);
    expect((await createDeployment()).body.message).toBe(
      'Internal error occurred: failed calling webhook "patch-b64.example.com": failed to call webhook: illegal base64 data at input byte 3',
    );
    await removeConfig('M', 'patch-b64');
    await configureWebhooks(
      ts.api,
      MWC,
      'MutatingWebhookConfiguration',
      'patch-b64-ignore',
      [webhookSpec(hook, 'patch-b64-ignore.example.com', '/patch-bad-base64', { failurePolicy: 'Ignore' })],
      async () => {
        const before = hook.received.length;
        const res = await createDeployment();
        return res.status === 201 && hook.received.slice(before).some((r) => r.path === '/patch-bad-base64');
      },
    );
    await removeConfig('M', 'patch-b64-ignore');
    const text = await metrics();
    expect(text).toContain(
      'apiserver_admission_webhook_fail_open_count{name="patch-b64-ignore.example.com",type="admit"}',
    );
    expect(text).not.toContain('rejection_count{name="patch-b64-ignore.example.com"');
    expect(text).toContain(
      'apiserver_admission_webhook_request_total{name="patch-b64-ignore.example.com",type="admit",operation="CREATE",code="400",rejected="false"}',
    );
  });

  it('an unknown patch type is one failed call, counted once', async () => {
    await only('M', 'bogus-type', '/patch-type-bogus', 500);
    const before = await metrics();
    const count = (text: string): number =>
      Number(
        /apiserver_admission_webhook_request_total\{name="bogus-type\.example\.com",type="admit",operation="CREATE",code="400",rejected="true"\} (\d+)/.exec(
          text,
        )?.[1] ?? 0,
      );
    const res = await createDeployment();
    expect(res.body.message).toBe(
      'Internal error occurred: failed calling webhook "bogus-type.example.com": unsupported patch type "Bogus"',
    );
    expect(count(await metrics())).toBe(count(before) + 1);
    await removeConfig('M', 'bogus-type');
  });
});

describe('answers', () => {
  const failure = async (name: string, path: string): Promise<string> => {
    await only('V', name, path, 500);
    const { message } = (await createDeployment()).body;
    await removeConfig('V', name);
    return message.replace(`Internal error occurred: failed calling webhook "${name}.example.com": `, '');
  };

  it('non-2xx answers read as client-go reads them', async () => {
    expect(await failure('s500', '/status-500')).toBe('failed to call webhook: webhook broke');
    expect(await failure('s404', '/status-404')).toBe(
      'failed to call webhook: the server could not find the requested resource',
    );
    expect(await failure('s502', '/status-502')).toBe(
      'failed to call webhook: an error on the server ("bad gateway") has prevented the request from succeeding',
    );
    expect(await failure('s418', '/status-418-html')).toBe(
      'failed to call webhook: the server responded with the status code 418 but did not return more information',
    );
    const text = await metrics();
    expect(text).toContain(
      'apiserver_admission_webhook_rejection_count{name="s500.example.com",type="validating",operation="CREATE",error_type="calling_webhook_error",rejection_code="500"}',
    );
    expect(text).toContain(
      'apiserver_admission_webhook_request_total{name="s404.example.com",type="validating",operation="CREATE",code="404",rejected="true"}',
    );
  });

  it('undecodable answers read as the webhook codec reads them', async () => {
    expect(await failure('notjson', '/not-json')).toBe(
      'failed to call webhook: couldn\'t get version/kind; json parse error: json: cannot unmarshal string into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }',
    );
    expect(await failure('broken', '/broken-json')).toBe(
      "failed to call webhook: couldn't get version/kind; json parse error: invalid character 'o' in literal null (expecting 'u')",
    );
    expect(await failure('empty', '/empty')).toBe(
      'failed to call webhook: 0-length response with status code: 200 and content type: application/json',
    );
  });

  it('a 307 redirect is followed with the review', async () => {
    await only('V', 'redirect', '/redirect', 409);
    expect((await createDeployment()).body.message).toBe(
      'admission webhook "redirect.example.com" denied the request: not today',
    );
    await removeConfig('V', 'redirect');
  });

  it('an answer of another uid counts as a 503', async () => {
    await only('V', 'uid503', '/wrong-uid', 500);
    await removeConfig('V', 'uid503');
    expect(await metrics()).toContain(
      'apiserver_admission_webhook_rejection_count{name="uid503.example.com",type="validating",operation="CREATE",error_type="calling_webhook_error",rejection_code="503"}',
    );
  });
});

describe('transport errors', () => {
  it('read in Go words and count as 400', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port: p } = probe.address() as { port: number };
        probe.close(() => resolve(p));
      });
    });
    await configureWebhooks(
      ts.api,
      VWC,
      'ValidatingWebhookConfiguration',
      'refused',
      [{ ...webhookSpec(hook, 'refused.example.com', '/allow'), clientConfig: { url: `https://127.0.0.1:${port}/x` } }],
      async () => (await createDeployment()).status === 500,
    );
    expect((await createDeployment()).body.message).toBe(
      `Internal error occurred: failed calling webhook "refused.example.com": failed to call webhook: Post "https://127.0.0.1:${port}/x?timeout=10s": dial tcp 127.0.0.1:${port}: connect: connection refused`,
    );
    await removeConfig('V', 'refused');
    expect(await metrics()).toContain(
      'apiserver_admission_webhook_rejection_count{name="refused.example.com",type="validating",operation="CREATE",error_type="calling_webhook_error",rejection_code="400"}',
    );
    await configureWebhooks(
      ts.api,
      VWC,
      'ValidatingWebhookConfiguration',
      'unknown-ca',
      [{ ...webhookSpec(hook, 'unknown-ca.example.com', '/allow'), clientConfig: { url: `${hook.url}/allow` } }],
      async () => (await createDeployment()).status === 500,
    );
    expect((await createDeployment()).body.message).toBe(
      `Internal error occurred: failed calling webhook "unknown-ca.example.com": failed to call webhook: Post "${hook.url}/allow?timeout=10s": x509: certificate signed by unknown authority`,
    );
    await removeConfig('V', 'unknown-ca');
  });
});
