// Client-side to server-side apply: `kubectl` takes over what the last-applied annotation still describes, without conflicts.
import { applyDeploymentDefaults } from '../../apis/apps/v1/defaults';
import type { ApiObject } from '../meta/types';
import { applyToObject, updateManagedFields } from './field-manager';
import { deploymentScope } from './testing/deployment-scope';

const scope = deploymentScope();
const ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

const config = (replicas: number): Record<string, any> => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } },
  },
});

/** What `kubectl apply` (client-side) of `config(replicas)` leaves stored, optionally under another annotation key. */
function clientSideApplied(replicas: number, annotation = ANNOTATION): ApiObject {
  const obj = structuredClone(config(replicas)) as ApiObject;
  if (annotation) obj.metadata.annotations = { [annotation]: JSON.stringify(config(replicas)) };
  applyDeploymentDefaults(obj);
  const created = updateManagedFields(undefined, obj, 'kubectl-client-side-apply', scope);
  return { ...created, metadata: { ...created.metadata, uid: 'u1' } };
}

const entry = (obj: ApiObject, manager: string): Record<string, any> | undefined =>
  (obj.metadata.managedFields as Array<Record<string, any>>).find((e) => e['manager'] === manager);

describe('last-applied migration', () => {
  it('kubectl takes the fields the annotation still describes; the annotation follows the new configuration', () => {
    const obj = applyToObject(clientSideApplied(2), config(3), 'kubectl', false, scope);
    expect(obj['spec']).toMatchObject({ replicas: 3 });
    expect(entry(obj, 'kubectl')).toMatchObject({ operation: 'Apply', fieldsV1: { 'f:spec': { 'f:replicas': {} } } });
    expect(entry(obj, 'kubectl-client-side-apply')?.['fieldsV1']['f:spec']['f:replicas']).toBeUndefined();
    expect(JSON.parse(obj.metadata.annotations?.[ANNOTATION] ?? '')).toMatchObject({ spec: { replicas: 3 } });
  });

  it('the orch-branded annotation works the same way', () => {
    const obj = applyToObject(
      clientSideApplied(2, 'kubectl.orch.io/last-applied-configuration'),
      config(3),
      'kubectl',
      false,
      scope,
    );
    expect(obj['spec']).toMatchObject({ replicas: 3 });
  });

  it('another manager name opts out: the client-side owner conflicts', () => {
    expect(() => applyToObject(clientSideApplied(2), config(3), 'my-tool', false, scope)).toThrow(
      'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas',
    );
  });

  it('without the annotation kubectl conflicts too', () => {
    expect(() => applyToObject(clientSideApplied(2, ''), config(3), 'kubectl', false, scope)).toThrow(
      'conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas',
    );
  });

  it('a field changed by other means since (a scale) still conflicts', () => {
    const live = clientSideApplied(2);
    const scaled = structuredClone(live);
    (scaled['spec'] as Record<string, unknown>)['replicas'] = 5;
    const afterScale = updateManagedFields(live, scaled, 'hpa', scope);
    expect(() => applyToObject(afterScale, config(3), 'kubectl', false, scope)).toThrow(
      'Apply failed with 1 conflict: conflict with "hpa" using apps/v1: .spec.replicas',
    );
  });
});
