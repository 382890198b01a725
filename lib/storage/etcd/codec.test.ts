import { rememberStoredJson, servedJson } from '../../apimachinery/serializers/served-json';
import { decodeObject, encodeObject } from './codec';
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
});
