// Streaming LIST bodies (KEP-5116) in every form other than plain JSON and protobuf: pretty JSON (asked for, and
// curl's default), YAML, Table (JSON and YAML, each includeObject) and PartialObjectMetadataList (JSON, YAML,
// protobuf). Each body is byte for byte the whole-body serialization of the same list, with and without gzip, from
// the watch cache and from etcd (limit/continue, remainingItemCount); a large one goes out in several HTTP chunks.
import { gunzipSync } from 'node:zlib';
import YAML from 'yaml';
import { jsonToYaml } from '../../lib/apimachinery/json/json-to-yaml';
import { encodeProtobufResponse } from '../../lib/apimachinery/serializers/protobuf';
import { aDeployment } from '../helpers/fixtures';
import { getChunks, rawGet } from '../helpers/raw-http';
import { createNamespace, startTestServer, type TestServer } from '../helpers/test-server';

/**
 * The bodies compared come from separate requests: a write the server makes for itself in between (its flow-control
 * configuration, leases) moves the lists' resourceVersion. Compares up to 5 times, each from fresh requests; a
 * difference that persists fails.
 */
async function settled(attempt: () => Promise<[unknown, unknown]>): Promise<void> {
  for (let i = 1; ; i++) {
    const [received, expected] = await attempt();
    const same = Buffer.isBuffer(received) ? received.equals(expected as Buffer) : received === expected;
    if (same || i === 5) return void expect(received).toEqual(expected);
  }
}

const MANY = 150;

interface List {
  kind: string;
  metadata: unknown;
  items: any[];
}
const TEXT = 'Ünïcödé ☃ 😀 "quoted" \\ back\tslash — a long line that YAML folds once it passes eighty columns of text';

function richDeployment(name: string): Record<string, unknown> {
  const d = aDeployment(name);
  d['metadata'] = {
    name,
    labels: { app: name, 'tier.example.com/name': 'x' },
    annotations: { note: TEXT, multiline: 'first line\nsecond line\n', empty: '', pad: 'p'.repeat(900) },
  };
  const spec = d['spec'] as { template: { metadata: Record<string, unknown>; spec: { containers: unknown[] } } };
  spec.template.metadata['annotations'] = {};
  spec.template.spec.containers = [
    { name: 'main', image: 'nginx:1.25', args: ['--a', TEXT], env: [], ports: [{ containerPort: 80 }] },
  ];
  return d;
}

const NAMESPACES = { empty: 'sl-empty', one: 'sl-one', many: 'sl-many' } as const;
const RESOURCES = {
  deployments: (ns: string) => `/apis/apps/v1/namespaces/${ns}/deployments`,
};
const QUERIES = ['', '?resourceVersion=0', '?limit=2'];
const PARTIAL = 'as=PartialObjectMetadataList;v=v1;g=meta.k8s.io';
const TABLE = 'as=Table;v=v1;g=meta.k8s.io';

describe('streamed LIST bodies equal the whole-body serialization', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer();
    for (const ns of Object.values(NAMESPACES)) await createNamespace(ts.api, ns);
    const create = async (ns: string, name: string): Promise<void> => {
      const res = await ts.api.post(RESOURCES.deployments(ns), richDeployment(name));
      expect(res.status).toBe(201);
    };
    await create(NAMESPACES.one, 'only');
    for (let i = 0; i < MANY; i += 25)
      await Promise.all(Array.from({ length: 25 }, (_, k) => create(NAMESPACES.many, `d-${i + k}`)));
  }, 120_000);
  afterAll(() => ts.stop());

  /**
   * The plain JSON list (itself streamed from kept bytes, pinned by other tests) as the objects the other forms are
   * written from: decoded, so each item's resourceVersion is the last field of its metadata.
   */
  async function plainList(path: string): Promise<List> {
    const res = await rawGet(ts.url, path, {});
    expect(res.status).toBe(200);
    const list = JSON.parse(res.body.toString('utf8'));
    for (const item of list.items) {
      const { resourceVersion, ...rest } = item.metadata;
      item.metadata = { ...rest, resourceVersion };
    }
    return list;
  }

  /** The body as sent plainly, and the same request with gzip negotiated (gzipped only when large). */
  async function bodies(
    path: string,
    headers: Record<string, string>,
    same: (a: Buffer, b: Buffer) => boolean = (a, b) => a.equals(b),
  ): Promise<[string, Buffer]> {
    let plain = await rawGet(ts.url, path, headers);
    await settled(async () => {
      plain = await rawGet(ts.url, path, headers);
      expect(plain.status).toBe(200);
      const zipped = await rawGet(ts.url, path, { ...headers, 'Accept-Encoding': 'gzip' });
      expect(zipped.status).toBe(200);
      const large = plain.body.length > 128 * 1024;
      expect(zipped.headers['content-encoding']).toBe(large ? 'gzip' : undefined);
      // Small bodies keep the head of a body written at once; large ones are chunked, but for protobuf, whose
      // envelope starts with the length anyway.
      const length = plain.headers['content-length'];
      if (!large || length !== undefined) expect(length).toBe(String(plain.body.length));
      const unzipped = large ? gunzipSync(zipped.body) : zipped.body;
      return [same(unzipped, plain.body), true];
    });
    return [plain.body.toString('utf8'), plain.body];
  }

  /** The form at `path` equals `expected` of the plain list at `reference` (both fetched afresh until settled). */
  async function matches(
    reference: string,
    path: string,
    headers: Record<string, string>,
    expected: (list: List) => string | Buffer,
  ): Promise<void> {
    await settled(async () => {
      const want = expected(await plainList(reference));
      const [text, bytes] = await bodies(path, headers);
      return Buffer.isBuffer(want) ? [bytes, want] : [text, want];
    });
  }

  function partialOf(list: List): Record<string, unknown> {
    const apiVersion = 'meta.k8s.io/v1';
    return {
      kind: 'PartialObjectMetadataList',
      apiVersion,
      metadata: list.metadata,
      items:
        list.items.length === 0
          ? null
          : list.items.map((i) => ({ kind: 'PartialObjectMetadata', apiVersion, metadata: i.metadata })),
    };
  }

  for (const [size, ns] of Object.entries(NAMESPACES))
    for (const [resource, pathOf] of Object.entries(RESOURCES))
      for (const query of QUERIES) {
        const path = pathOf(ns) + query;
        it(`${resource}, ${size} list${query}: pretty JSON, curl's default, YAML, PartialObjectMetadataList`, async () => {
          const list = await plainList(path);
          expect(list.items.length).toBe(
            query === '?limit=2'
              ? Math.min(2, { empty: 0, one: 1, many: MANY }[size] ?? 0)
              : { empty: 0, one: 1, many: MANY }[size],
          );
          const sep = query === '' ? '?' : '&';
          const same = (p: string, headers: Record<string, string>, expected: (l: List) => string | Buffer) =>
            matches(path, p, headers, expected);
          const pretty = (l: List): string => JSON.stringify(l, null, 2);
          await same(`${path}${sep}pretty=true`, {}, pretty);
          await same(path, { 'User-Agent': 'curl/8.5.0' }, pretty);
          if (size === 'one') {
            // isPrettyPrint: only agents starting with curl, Wget or Mozilla/5.0 get the pretty default.
            await same(path, { 'User-Agent': 'Wget/1.21' }, pretty);
            await same(path, { 'User-Agent': 'Mozilla/5.0 (X11)' }, pretty);
            expect((await bodies(path, { 'User-Agent': 'kubectl/v1.27 (uses curl)' }))[0][1]).toBe('"');
            expect((await bodies(path, { 'User-Agent': 'Mozilla/4.0' }))[0][1]).toBe('"');
          }
          await same(path, { Accept: 'application/yaml' }, (l) => jsonToYaml(l));
          const accept = (type: string): Record<string, string> => ({ Accept: `${type};${PARTIAL}` });
          await same(path, accept('application/json'), (l) => `${JSON.stringify(partialOf(l))}\n`);
          await same(`${path}${sep}pretty=1`, accept('application/json'), (l) => JSON.stringify(partialOf(l), null, 2));
          await same(path, accept('application/yaml'), (l) => jsonToYaml(partialOf(l)));
          await same(
            path,
            accept('application/vnd.kubernetes.protobuf'),
            (l) => encodeProtobufResponse(partialOf(l)) ?? Buffer.alloc(0),
          );
        });
      }

  for (const [size, ns] of Object.entries(NAMESPACES))
    for (const include of ['None', 'Metadata', 'Object'])
      it(`Table of a ${size} list, includeObject=${include}: compact, pretty and YAML bodies`, async () => {
        const path = `${RESOURCES.deployments(ns)}?includeObject=${include}`;
        const list = await plainList(RESOURCES.deployments(ns));
        const accept = (type: string): Record<string, string> => ({ Accept: `${type};${TABLE}` });
        // The Age column and the list's resourceVersion may move between requests: each body is checked against its
        // own value, and the others (the gzipped one too) against the compact one without those.
        const columns = JSON.parse((await rawGet(ts.url, path, accept('application/json'))).body.toString('utf8'));
        const age = columns.columnDefinitions.findIndex((c: { name: string }) => c.name === 'Age');
        expect(age).toBeGreaterThan(0);
        const withoutAge = (t: any): unknown => ({
          ...t,
          metadata: undefined,
          rows: t.rows.map((r: any) => ({ ...r, cells: r.cells.filter((_: unknown, i: number) => i !== age) })),
        });
        // JSON is YAML: one parser reads every form.
        const sameTable = (a: Buffer, b: Buffer): boolean =>
          JSON.stringify(withoutAge(YAML.parse(a.toString('utf8')))) ===
          JSON.stringify(withoutAge(YAML.parse(b.toString('utf8'))));
        const [compact] = await bodies(path, accept('application/json'), sameTable);
        const table = JSON.parse(compact);
        expect(compact).toBe(`${JSON.stringify(table)}\n`);
        expect(Object.keys(table.metadata)).toEqual(Object.keys(list.metadata as object));
        expect(table.rows.map((row: any) => row.object)).toEqual(
          list.items.map((item) =>
            include === 'None'
              ? undefined
              : include === 'Metadata'
                ? { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: item.metadata }
                : { apiVersion: 'apps/v1', kind: 'Deployment', ...item },
          ),
        );
        const [pretty] = await bodies(`${path}&pretty=true`, accept('application/json'), sameTable);
        expect(pretty).toBe(JSON.stringify(JSON.parse(pretty), null, 2));
        expect(withoutAge(JSON.parse(pretty))).toEqual(withoutAge(table));
        const [yaml] = await bodies(path, accept('application/yaml'), sameTable);
        const fromYaml = YAML.parse(yaml);
        expect(yaml).toBe(jsonToYaml(fromYaml));
        expect(withoutAge(fromYaml)).toEqual(withoutAge(table));
      });

  it('sends a large pretty list in several HTTP chunks (written while serialized, no Content-Length)', async () => {
    const path = `${RESOURCES.deployments(NAMESPACES.many)}?pretty=true`;
    for (const accept of ['application/json', 'application/yaml', `application/json;${TABLE}`]) {
      const { head, chunks } = await getChunks(ts.url, path, { Accept: accept });
      expect(head).toMatch(/^HTTP\/1\.1 200/);
      expect(head).not.toMatch(/content-length/i);
      expect(chunks.length).toBeGreaterThan(3);
      if (accept === 'application/json')
        await settled(async () => [
          Buffer.concat((await getChunks(ts.url, path, {})).chunks),
          (await rawGet(ts.url, path, {})).body,
        ]);
    }
  });
});
