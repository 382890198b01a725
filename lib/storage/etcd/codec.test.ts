import {
  rememberStoredJson,
  servedItemBytes,
  servedJson,
  withResourceVersion,
} from '../../apimachinery/serializers/served-json';
import { decodeObject, encodeObject, withStoredJson } from './codec';
import type { ApiObject } from '../../apimachinery/meta/types';

describe('serving stored JSON', () => {
  const obj: ApiObject = {
    kind: 'Deployment',
    apiVersion: 'apps/v1',
    spec: { template: { metadata: { name: 'inner' } } },
    metadata: { name: 'web', resourceVersion: '9' },
  };

  it('stores apiVersion, kind and metadata first, without the resourceVersion', () => {
    expect(encodeObject(obj)).toBe(
      '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"template":{"metadata":{"name":"inner"}}}}',
    );
  });

  it('splices the resourceVersion into the top-level metadata of decoded objects', () => {
    const decoded = decodeObject('/k', Buffer.from(encodeObject(obj)), 42);
    const served = servedJson(decoded);
    expect(served).toBe(
      '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"resourceVersion":"42","name":"web"},"spec":{"template":{"metadata":{"name":"inner"}}}}',
    );
    expect(JSON.parse(served ?? '')).toEqual(decoded);
  });

  it('drops apiVersion and kind for list items', () => {
    const decoded = decodeObject('/k', Buffer.from(encodeObject(obj)), 7);
    expect(JSON.parse(servedJson(decoded, false) ?? '')).toEqual({
      metadata: { name: 'web', resourceVersion: '7' },
      spec: obj['spec'],
    });
  });

  it('handles empty metadata', () => {
    const empty: ApiObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { resourceVersion: '3' } };
    rememberStoredJson(empty, '{"apiVersion":"v1","kind":"Namespace","metadata":{}}');
    expect(servedJson(empty)).toBe('{"apiVersion":"v1","kind":"Namespace","metadata":{"resourceVersion":"3"}}');
  });

  it('knows nothing about objects it did not decode, or bytes in another layout', () => {
    expect(servedJson({ metadata: {} })).toBeUndefined();
    const foreign: ApiObject = { metadata: { name: 'x' } };
    rememberStoredJson(foreign, '{"spec":{"metadata":{}},"metadata":{"name":"x"}}');
    expect(servedJson(foreign)).toBeUndefined();
  });

  it('keeps one encoding per decoded object: list-item bytes of their own, every served form derived from them', () => {
    const response = Buffer.concat([Buffer.from('other bytes of the etcd response'), Buffer.from(encodeObject(obj))]);
    const decoded = decodeObject('/k', response.subarray(32), 42);
    const item = servedItemBytes(decoded);
    expect(item?.toString()).toBe(
      '{"metadata":{"resourceVersion":"42","name":"web"},"spec":{"template":{"metadata":{"name":"inner"}}}}',
    );
    expect(item?.buffer.byteLength).toBe(item?.length); // not a view pinning the whole response
    expect(servedItemBytes(decoded)).toBe(item);
    expect(servedJson(decoded, false)).toBe(item?.toString());
    expect(JSON.parse(servedJson(decoded) ?? '')).toEqual(decoded);
  });

  it('serves a copy with another resourceVersion (DELETED events) in every form, the original unchanged', () => {
    const decoded = decodeObject('/k', Buffer.from(encodeObject({ ...obj, metadata: { name: 'web' } })), 42);
    const deleted = withResourceVersion(decoded, '50');
    expect(servedJson(deleted)).toBe(
      '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"resourceVersion":"50","name":"web"},"spec":{"template":{"metadata":{"name":"inner"}}}}',
    );
    expect(JSON.parse(servedItemBytes(deleted)?.toString() ?? '')).toMatchObject({
      metadata: { resourceVersion: '50' },
    });
    expect(JSON.parse(servedJson(decoded) ?? '')).toEqual(decoded);
  });

  it('serves a just-written object from its stored string, then from list-item bytes once listed', () => {
    const written = withStoredJson(obj, encodeObject(obj), 77);
    const before = servedJson(written);
    expect(JSON.parse(before ?? '')).toEqual(written);
    expect(JSON.parse(servedItemBytes(written)?.toString() ?? '')).toEqual({
      metadata: { resourceVersion: '77', name: 'web' },
      spec: obj['spec'],
    });
    expect(servedJson(written)).toBe(before);
  });
});
