import { storageVersionHash } from './storage-version-hash';

describe('storageVersionHash', () => {
  it.each([
    ['', 'v1', 'Namespace', 'Q3oi5N2YM8M='],
    ['apps', 'v1', 'Deployment', '8aSe+NMegvE='],
    ['autoscaling', 'v2', 'HorizontalPodAutoscaler', 'qwQve8ut294='],
  ])('hashes %s/%s/%s like Kubernetes', (group, version, kind, hash) => {
    expect(storageVersionHash(group, version, kind)).toBe(hash);
  });
});
