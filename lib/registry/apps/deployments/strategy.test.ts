// Deployment strategy: status reset and carry-over, generation bumps, /status writes.
import type { ApiObject } from '../../../apimachinery/meta/types';
import { deploymentStatusStrategy, deploymentStrategy } from './strategy';

const baseSpec = (): Record<string, unknown> => ({
  replicas: 2,
  selector: { matchLabels: { app: 'web' } },
  template: { metadata: { labels: { app: 'web' } }, spec: { containers: [] } },
});

function aDeployment(extra: Partial<ApiObject> = {}): ApiObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', generation: 3, labels: { app: 'web' } },
    spec: baseSpec(),
    status: { replicas: 2, observedGeneration: 3 },
    ...extra,
  };
}

describe('deploymentStrategy', () => {
  it('clears status and sets generation 1 on create', () => {
    const d = aDeployment();
    deploymentStrategy.prepareForCreate(d);
    expect(d.status).toEqual({});
    expect(d.metadata.generation).toBe(1);
  });

  it.each<[string, Partial<ApiObject>, number]>([
    ['unchanged spec', {}, 3],
    ['status only', { status: { replicas: 9 } }, 3],
    ['label change', { metadata: { name: 'web', generation: 3, labels: { app: 'web', x: 'y' } } }, 3],
    [
      'nil vs empty lists',
      {
        spec: {
          ...baseSpec(),
          paused: undefined,
          template: { metadata: { labels: { app: 'web' } }, spec: { containers: [], volumes: [] } },
        },
      },
      3,
    ],
    ['spec change', { spec: { ...baseSpec(), replicas: 3 } }, 4],
    ['annotation change', { metadata: { name: 'web', generation: 3, annotations: { note: 'x' } } }, 4],
  ])('on update with %s sets generation %d and keeps the stored status', (_name, extra, generation) => {
    const old = aDeployment();
    const next = aDeployment({ ...extra, status: { replicas: 9 } });
    deploymentStrategy.prepareForUpdate(next, old);
    expect(next.metadata.generation).toBe(generation);
    expect(next.status).toEqual(old.status);
  });

  it('is namespaced with DNS-subdomain names and allows unconditional updates only for existing objects', () => {
    expect(deploymentStrategy.namespaced).toBe(true);
    expect(deploymentStrategy.allowCreateOnUpdate).toBe(false);
    expect(deploymentStrategy.allowUnconditionalUpdate).toBe(true);
    expect(deploymentStrategy.validateName('web.v1', false)).toEqual([]);
  });
});

describe('deploymentStatusStrategy', () => {
  it('takes spec and labels from storage, keeps other metadata and the generation', () => {
    const old = aDeployment();
    const next = aDeployment({
      metadata: { name: 'web', generation: 3, labels: { changed: 'yes' }, annotations: { a: 'b' } },
      spec: { replicas: 7 },
      status: { replicas: 1 },
    });
    deploymentStatusStrategy.prepareForUpdate(next, old);
    expect(next.spec).toEqual(old.spec);
    expect(next.metadata).toEqual({ name: 'web', generation: 3, labels: { app: 'web' }, annotations: { a: 'b' } });
    expect(next.status).toEqual({ replicas: 1 });
  });
});
