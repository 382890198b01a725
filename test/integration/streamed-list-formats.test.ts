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

const MANY = 150;
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
  async function plainList(path: string): Promise<{ kind: string; metadata: unknown; items: any[] }> {
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
    const plain = await rawGet(ts.url, path, headers);
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
    expect(same(unzipped, plain.body)).toBe(true);
    return [plain.body.toString('utf8'), plain.body];
  }

  function partialOf(list: { metadata: unknown; items: any[] }): Record<string, unknown> {
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
          const pretty = JSON.stringify(list, null, 2);
          const sep = query === '' ? '?' : '&';
          expect((await bodies(`${path}${sep}pretty=true`, {}))[0]).toBe(pretty);
          expect((await bodies(path, { 'User-Agent': 'curl/8.5.0' }))[0]).toBe(pretty);
          expect((await bodies(path, { Accept: 'application/yaml' }))[0]).toBe(jsonToYaml(list));
          const partial = partialOf(list);
          const accept = (type: string): Record<string, string> => ({ Accept: `${type};${PARTIAL}` });
          expect((await bodies(path, accept('application/json')))[0]).toBe(`${JSON.stringify(partial)}\n`);
          expect((await bodies(`${path}${sep}pretty=1`, accept('application/json')))[0]).toBe(
            JSON.stringify(partial, null, 2),
          );
          expect((await bodies(path, accept('application/yaml')))[0]).toBe(jsonToYaml(partial));
          const proto = (await bodies(path, accept('application/vnd.kubernetes.protobuf')))[1];
          expect(proto.equals(encodeProtobufResponse(partial) ?? Buffer.alloc(0))).toBe(true);
        });
      }

  for (const [size, ns] of Object.entries(NAMESPACES))
    for (const include of ['None', 'Metadata', 'Object'])
      it(`Table of a ${size} list, includeObject=${include}: compact, pretty and YAML bodies`, async () => {
        const path = `${RESOURCES.deployments(ns)}?includeObject=${include}`;
        const list = await plainList(RESOURCES.deployments(ns));
        const accept = (type: string): Record<string, string> => ({ Accept: `${type};${TABLE}` });
        // The Age column may tick between requests: each body is checked against its own value, and the others
        // (the gzipped one too) against the compact one without that column.
        const columns = JSON.parse((await rawGet(ts.url, path, accept('application/json'))).body.toString('utf8'));
        const age = columns.columnDefinitions.findIndex((c: { name: string }) => c.name === 'Age');
        expect(age).toBeGreaterThan(0);
        const withoutAge = (t: any): unknown => ({
          ...t,
          rows: t.rows.map((r: any) => ({ ...r, cells: r.cells.filter((_: unknown, i: number) => i !== age) })),
        });
        // JSON is YAML: one parser reads every form.
        const sameTable = (a: Buffer, b: Buffer): boolean =>
          JSON.stringify(withoutAge(YAML.parse(a.toString('utf8')))) ===
          JSON.stringify(withoutAge(YAML.parse(b.toString('utf8'))));
        const [compact] = await bodies(path, accept('application/json'), sameTable);
        const table = JSON.parse(compact);
        expect(compact).toBe(`${JSON.stringify(table)}\n`);
        expect(table.metadata).toEqual(list.metadata);
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
    const whole = (await rawGet(ts.url, path, {})).body;
    for (const accept of ['application/json', 'application/yaml', `application/json;${TABLE}`]) {
      const { head, chunks } = await getChunks(ts.url, path, { Accept: accept });
      expect(head).toMatch(/^HTTP\/1\.1 200/);
      expect(head).not.toMatch(/content-length/i);
      expect(chunks.length).toBeGreaterThan(3);
      if (accept === 'application/json') expect(Buffer.concat(chunks).equals(whole)).toBe(true);
    }
  });
});
