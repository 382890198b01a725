// Objects as Kubernetes writes them after a decode into their Go types: always-written struct and non-omitempty
// fields appear, omitempty zero values go, everything else stays as it was.
import { goShape } from './go-shape';

describe('goShape', () => {
  it('writes an empty Deployment as Go writes one (the shape of a BOOKMARK event object)', () => {
    // /work/shared/reference/api-machinery.md, Watch events: the BOOKMARK object "serialised with Go zero values".
    const bookmark = { kind: 'Deployment', apiVersion: 'apps/v1', metadata: { resourceVersion: '12345' } };
    expect(goShape(bookmark)).toEqual({
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: { resourceVersion: '12345', creationTimestamp: null },
      spec: {
        selector: null,
        template: { metadata: { creationTimestamp: null }, spec: { containers: null } },
        strategy: {},
      },
      status: {},
    });
  });

  it("adds the template's creationTimestamp: null and every container's resources: {} (resources.md, JSON output quirks)", () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default', creationTimestamp: '2026-01-01T00:00:00Z' },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [
              { name: 'a', image: 'nginx' },
              { name: 'b', image: 'x', resources: { limits: { cpu: '1' } } },
            ],
          },
        },
      },
    };
    const shaped = goShape(deployment);
    expect(shaped.spec.template.metadata).toEqual({ labels: { app: 'web' }, creationTimestamp: null });
    expect(shaped.spec.template.spec.containers).toEqual([
      { name: 'a', image: 'nginx', resources: {} },
      { name: 'b', image: 'x', resources: { limits: { cpu: '1' } } },
    ]);
    expect(shaped.spec.replicas).toBe(0); // a pointer: an explicit 0 is kept
    expect(shaped.metadata.creationTimestamp).toBe('2026-01-01T00:00:00Z');
    expect(deployment.spec.template.metadata).toEqual({ labels: { app: 'web' } }); // the argument is not changed
  });

  it('leaves out omitempty zero values and empty lists and maps, and nulls of pointers', () => {
    const shaped = goShape({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', generateName: '', labels: {}, finalizers: [], deletionTimestamp: null },
      spec: {
        paused: false,
        minReadySeconds: 0,
        selector: { matchLabels: {} },
        template: { spec: { containers: [{ name: 'a', ports: [], env: null }] } },
      },
    });
    expect(shaped.metadata).toEqual({ name: 'web', creationTimestamp: null });
    expect(shaped.spec).toEqual({
      selector: {},
      strategy: {},
      template: { metadata: { creationTimestamp: null }, spec: { containers: [{ name: 'a', resources: {} }] } },
    });
  });

  it('writes non-omitempty fields of an HPA status (autoscaling/v2: desiredReplicas 0, currentMetrics null)', () => {
    const hpa = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'h' },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 3 },
    };
    expect((goShape(hpa) as Record<string, unknown>)['status']).toEqual({ desiredReplicas: 0, currentMetrics: null });
    const v1 = {
      ...hpa,
      apiVersion: 'autoscaling/v1',
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 3 },
    };
    expect((goShape(v1) as Record<string, unknown>)['status']).toEqual({ currentReplicas: 0, desiredReplicas: 0 });
  });

  it('keeps what the catalog does not describe: unknown kinds, unknown properties, map values', () => {
    const table = { apiVersion: 'meta.orch.io/v1', kind: 'Table', rows: [] };
    expect(goShape(table)).toBe(table);
    const ns = goShape({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'a', annotations: { empty: '' } },
      extra: { x: 1 },
    });
    expect(ns).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'a', annotations: { empty: '' }, creationTimestamp: null },
      extra: { x: 1 },
      spec: {},
      status: {},
    });
  });

  it('is idempotent', () => {
    const once = goShape({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'x' },
      spec: { template: { spec: { containers: [{ name: 'a' }] } } },
    });
    expect(goShape(once)).toEqual(once);
  });
});
