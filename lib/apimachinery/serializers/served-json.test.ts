// servedJsonParts: the same bytes as servedJson, in parts written as they are (a GET's body without a string made).
import { compactFromStored } from './compact-object';
import { rememberStoredJson, servedJson, servedJsonParts, withResourceVersion } from './served-json';
import type { ApiObject } from '../meta/types';

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'ns', labels: { app: 'wéb' }, annotations: { q: 'a "quoted" \\ ✓' } },
  spec: { replicas: 3, template: { spec: { containers: [{ name: 'web', image: 'nginx' }] } } },
  status: {},
};

const joined = (parts: readonly Buffer[] | undefined): string | undefined =>
  parts === undefined ? undefined : Buffer.concat(parts).toString('utf8');

describe('servedJsonParts', () => {
  const stored = JSON.stringify(deployment);

  it('are servedJson’s bytes for a cached object, a just-written one and one with another resourceVersion', () => {
    const cached = compactFromStored(Buffer.from(stored), '41') as ApiObject;
    const written: ApiObject = {
      ...structuredClone(deployment),
      metadata: { ...deployment.metadata, resourceVersion: '42' },
    };
    rememberStoredJson(written, stored);
    const deleted = withResourceVersion(cached, '43');
    for (const obj of [cached, written, deleted]) {
      const text = servedJson(obj);
      expect(text).toBeDefined();
      expect(joined(servedJsonParts(obj))).toBe(text);
      expect(JSON.parse(joined(servedJsonParts(obj)) ?? '')).toEqual(JSON.parse(text ?? ''));
    }
    expect(JSON.parse(joined(servedJsonParts(deleted)) ?? '').metadata.resourceVersion).toBe('43');
    expect(JSON.parse(joined(servedJsonParts(written)) ?? '').metadata.resourceVersion).toBe('42');
  });

  it('are undefined for an object whose bytes are unknown', () => {
    expect(servedJsonParts(structuredClone(deployment) as unknown as ApiObject)).toBeUndefined();
  });
});
