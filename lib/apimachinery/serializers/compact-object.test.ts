import { compactFromStored, compactObject, detachedCopy } from './compact-object';
import { decodeStoredValue, rememberStoredJson, servedItemBytes, servedJson } from './served-json';
import type { ApiObject } from '../meta/types';

const stored = (obj: object): Buffer => Buffer.from(JSON.stringify(obj));

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'web',
    namespace: 'ns',
    labels: { app: 'web' },
    annotations: { 'a.io/x': 'y "quoted" \\ back', 'k\\"': '{"x":[1,2]}' },
    managedFields: [{ manager: 'm', fieldsV1: { 'f:spec': { '.': {} } } }],
  },
  spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, 'we"ird': [null, true, -1.5e3, 'ü€'] },
  status: { replicas: 3 },
};

function decoded(value: Buffer, rv: string): ApiObject {
  const obj = decodeStoredValue(value, rv);
  rememberStoredJson(obj, value);
  return obj;
}

describe('compact objects', () => {
  const value = stored(deployment);

  it('read, serialize, spread and clone like the decoded object, with the same keys in the same order', () => {
    const compact = compactFromStored(value, '42') as ApiObject;
    const plain = decoded(value, '42');
    expect(JSON.stringify(compact)).toBe(JSON.stringify(plain));
    expect(Object.keys(compact)).toEqual(Object.keys(plain));
    expect(Object.keys(compact.metadata)).toEqual(Object.keys(plain.metadata));
    expect(compact).toEqual(plain);
    expect(structuredClone(compact)).toEqual(plain);
    expect({ ...compact, metadata: { ...compact.metadata } }).toEqual(plain);
    expect(compact['spec']).toBe(compact['spec']);
    expect(servedJson(compact)).toBe(servedJson(plain));
    expect(servedItemBytes(compact)?.equals(servedItemBytes(plain) as Buffer)).toBe(true);
  });

  it('turns an assigned or deleted member into a plain one', () => {
    const compact = compactFromStored(value, '7') as ApiObject;
    compact['spec'] = { replicas: 1 };
    compact.metadata.annotations = { b: 'c' };
    delete compact['status'];
    expect(JSON.parse(JSON.stringify(compact))).toEqual({
      ...deployment,
      metadata: { ...deployment.metadata, annotations: { b: 'c' }, resourceVersion: '7' },
      spec: { replicas: 1 },
      status: undefined,
    });
    expect(Object.keys(compact)).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
  });

  it('compacts a decoded object from its kept bytes, and leaves objects without them as they are', () => {
    const plain = decoded(value, '9');
    const compact = compactObject(plain);
    expect(compact).not.toBe(plain);
    expect(JSON.stringify(compact)).toBe(JSON.stringify(plain));
    expect(servedJson(compact)).toBe(servedJson(plain));
    const unkept = { ...deployment } as unknown as ApiObject;
    expect(compactObject(unkept)).toBe(unkept);
  });

  it('declines values in another layout', () => {
    expect(compactFromStored(Buffer.from('{"kind":"X","apiVersion":"v1","metadata":{}}'), '1')).toBeUndefined();
    expect(compactFromStored(Buffer.from('not json'), '1')).toBeUndefined();
  });

  it('declines values malformed after metadata or naming apiVersion or kind again', () => {
    const head = '{"apiVersion":"v1","kind":"X","metadata":{"name":"a"}';
    for (const rest of [',"spec":', ',"spec":{"a":1}', '"spec":{}}', ',"kind":"Y"}', ',"spec":{},"apiVersion":"v2"}'])
      expect(compactFromStored(Buffer.from(head + rest), '1')).toBeUndefined();
    const empty = compactFromStored(Buffer.from('{"apiVersion":"v1","kind":"X","metadata":{},"spec":{"a":1}}'), '2');
    expect(JSON.stringify(empty)).toBe(
      '{"apiVersion":"v1","kind":"X","metadata":{"resourceVersion":"2"},"spec":{"a":1}}',
    );
  });

  it('holds objects without members beyond metadata', () => {
    const compact = compactFromStored(stored({ apiVersion: 'v1', kind: 'Namespace', metadata: {} }), '3') as ApiObject;
    expect(JSON.stringify(compact)).toBe('{"apiVersion":"v1","kind":"Namespace","metadata":{"resourceVersion":"3"}}');
  });

  it('gives a detached copy equal to the compact object (keys, order, values, pretty form) that shares nothing', () => {
    for (const [obj, rv] of [
      [deployment, '11'],
      [{ apiVersion: 'v1', kind: 'X', metadata: { name: 'a', managedFields: [] }, data: { k: 'v' } }, '13'],
    ] as const) {
      const compact = compactFromStored(stored(obj), rv) as ApiObject;
      const copy = detachedCopy(compact);
      expect(copy).not.toBe(compact);
      expect(JSON.stringify(copy, null, 2)).toBe(JSON.stringify(compact, null, 2));
      expect(Object.keys(copy)).toEqual(Object.keys(compact));
      expect(Object.keys(copy.metadata)).toEqual(Object.keys(compact.metadata));
      expect(Object.getOwnPropertyDescriptor(copy, 'metadata')?.value).not.toBe(compact.metadata);
      expect(Object.values(copy).every((v) => typeof v !== 'object' || !Object.values(compact).includes(v))).toBe(true);
    }
    const plain = decoded(value, '14');
    expect(detachedCopy(plain)).toBe(plain);
    // Nothing lazy (nothing decoded on read): the object itself.
    const bare = compactFromStored(stored({ apiVersion: 'v1', kind: 'Namespace', metadata: {} }), '12') as ApiObject;
    expect(detachedCopy(bare)).toBe(bare);
  });

  it('made from a view of a larger buffer (a fill page), holds bytes of its own', () => {
    const values = [value, stored({ apiVersion: 'v1', kind: 'Pod', metadata: {}, spec: { a: 1 } }), value];
    const page = Buffer.concat(values);
    let at = 0;
    const views = values.map((v) => page.subarray(at, (at += v.length)));
    const versions = ['42', '12345678901234567890', '43'];
    const compacts = views.map((v, i) => compactFromStored(v, versions[i] as string) as ApiObject);
    const copies = values.map((v, i) => compactFromStored(Buffer.from(v), versions[i] as string) as ApiObject);
    expect(compacts.map((c) => (servedItemBytes(c) as Buffer).buffer === page.buffer)).toEqual([false, false, false]);
    page.fill(0); // the page's bytes are no longer read
    compacts.forEach((compact, i) => {
      const copy = copies[i] as ApiObject;
      expect(JSON.stringify(compact)).toBe(JSON.stringify(copy));
      expect(compact).toEqual(copy);
      expect(servedJson(compact)).toBe(servedJson(copy));
      expect(servedItemBytes(compact)?.equals(servedItemBytes(copy) as Buffer)).toBe(true);
    });
  });
});
