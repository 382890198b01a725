// APIResponseCompression: resource responses over 128 KiB are gzipped for clients whose Accept-Encoding names gzip,
// smaller ones and watches are not; --feature-gates=APIResponseCompression=false turns it off.
import { gunzipSync } from 'node:zlib';
import { startTestServer, createNamespace, type TestServer } from '../helpers/test-server';
import { aDeployment } from '../helpers/fixtures';
import { rawGet } from '../helpers/raw-http';

const NS = 'gzip';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;

type RawResponse = Awaited<ReturnType<typeof rawGet>>;

/**
 * A plain and a gzipped read of `path` at the same resourceVersion. A list's resourceVersion is etcd's revision,
 * which any write moves (the server's own controllers write FlowSchema status at start-up), so the pair is read
 * again until the plain reads before and after the gzipped one agree: revisions only grow, so it agrees too.
 */
async function plainAndZipped(
  ts: TestServer,
  path: string,
  accept: Record<string, string>,
  encoding: string,
): Promise<{ plain: RawResponse; zipped: RawResponse }> {
  const revisionOf = (r: RawResponse): unknown =>
    r.headers['content-type']?.includes('json')
      ? (JSON.parse(r.body.toString('utf8')) as { metadata: { resourceVersion: string } }).metadata.resourceVersion
      : r.body.toString('latin1');
  for (let attempt = 0; ; attempt++) {
    const plain = await rawGet(ts.url, path, accept);
    const zipped = await rawGet(ts.url, path, { ...accept, 'Accept-Encoding': encoding });
    const after = await rawGet(ts.url, path, accept);
    if (revisionOf(after) === revisionOf(plain) || attempt === 20) return { plain, zipped };
  }
}

async function withDeployments(ts: TestServer, count: number): Promise<void> {
  await createNamespace(ts.api, NS);
  for (let i = 0; i < count; i += 25) {
    await Promise.all(
      Array.from({ length: Math.min(25, count - i) }, (_, k) => ts.api.post(DEPLOYMENTS, aDeployment(`d${i + k}`))),
    );
  }
}

describe('response compression (on by default)', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer();
    await withDeployments(ts, 150); // a list of ~200 KiB
  });
  afterAll(() => ts.stop());

  it('gzips a list over 128 KiB for Accept-Encoding: gzip, with Vary, streamed (chunked, as kube-apiserver sends it)', async () => {
    const { plain, zipped } = await plainAndZipped(ts, DEPLOYMENTS, {}, 'gzip, deflate');
    expect(plain.body.length).toBeGreaterThan(128 * 1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['vary']).toContain('Accept-Encoding');
    // Written item by item through the compressor: no length known up front.
    expect(zipped.headers['content-length']).toBeUndefined();
    expect(zipped.headers['transfer-encoding']).toBe('chunked');
    expect(zipped.body.length).toBeLessThan(plain.body.length / 4);
    // The same bytes as the uncompressed body, which keeps its Content-Length.
    expect(Number(plain.headers['content-length'])).toBe(plain.body.length);
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    const items = (JSON.parse(plain.body.toString('utf8')) as { items: unknown[] }).items;
    expect(items).toHaveLength(150);
  });

  it('streams a protobuf list the same way: gzipped bytes equal the plain body', async () => {
    const accept = { Accept: 'application/vnd.orch.protobuf' };
    const { plain, zipped } = await plainAndZipped(ts, DEPLOYMENTS, accept, 'gzip');
    expect(plain.body.length).toBeGreaterThan(128 * 1024);
    expect(Number(plain.headers['content-length'])).toBe(plain.body.length);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
  });

  it('sends small bodies, other encodings and q-valued gzip as they are (negotiateContentEncoding takes bare "gzip" only)', async () => {
    for (const [path, encoding] of [
      [`${DEPLOYMENTS}/d1`, 'gzip'],
      [DEPLOYMENTS, 'deflate, br'],
      [DEPLOYMENTS, 'gzip;q=1.0'],
    ] as const) {
      const res = await rawGet(ts.url, path, { 'Accept-Encoding': encoding });
      expect({ path, encoding, contentEncoding: res.headers['content-encoding'], json: res.body[0] }).toEqual({
        path,
        encoding,
        contentEncoding: undefined,
        json: 0x7b,
      });
    }
  });

  it('does not compress a watch', async () => {
    const res = await rawGet(ts.url, `${DEPLOYMENTS}?watch=1`, { 'Accept-Encoding': 'gzip' }, 1000);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString('utf8').split('\n').filter(Boolean)).toHaveLength(150);
  });
});

describe('response compression turned off', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer(['--feature-gates=APIResponseCompression=false']);
    await withDeployments(ts, 150);
  });
  afterAll(() => ts.stop());

  it('sends large bodies uncompressed', async () => {
    const res = await rawGet(ts.url, DEPLOYMENTS, { 'Accept-Encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.length).toBeGreaterThan(128 * 1024);
  });
});
