import { applyDeploymentDefaults } from '../../apis/apps/v1/defaults';
import type { ApiObject } from '../meta/types';
import { applyToObject, updateManagedFields } from './field-manager';
import { StatusError } from '../errors';
import { deploymentScope } from './testing/deployment-scope';

const NOW = '2024-05-01T10:00:00Z';
const scope = deploymentScope(NOW);

function deployment(extra: Record<string, unknown> = {}): ApiObject {
  const obj: ApiObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] },
      },
    },
    ...extra,
  };
  applyDeploymentDefaults(obj);
  return obj;
}

const entries = (obj: ApiObject): unknown => obj.metadata.managedFields;
const stored = (obj: ApiObject): ApiObject => ({
  ...obj,
  metadata: { ...obj.metadata, uid: 'u1', resourceVersion: '5' },
});

describe('managed fields on create (Update operation)', () => {
  it('records what the creating manager set, in the Kubernetes FieldsV1 encoding', () => {
    const obj = updateManagedFields(undefined, deployment(), 'kubectl-create', scope);
    const json = JSON.stringify(entries(obj));
    expect(json).toBe(
      JSON.stringify([
        {
          manager: 'kubectl-create',
          operation: 'Update',
          apiVersion: 'apps/v1',
          time: NOW,
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
            'f:spec': {
              'f:progressDeadlineSeconds': {},
              'f:replicas': {},
              'f:revisionHistoryLimit': {},
              'f:selector': {},
              'f:strategy': { 'f:rollingUpdate': { '.': {}, 'f:maxSurge': {}, 'f:maxUnavailable': {} }, 'f:type': {} },
              'f:template': {
                'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
                'f:spec': {
                  'f:containers': {
                    'k:{"name":"nginx"}': {
                      '.': {},
                      'f:image': {},
                      'f:imagePullPolicy': {},
                      'f:name': {},
                      'f:resources': {},
                      'f:terminationMessagePath': {},
                      'f:terminationMessagePolicy': {},
                    },
                  },
                  'f:dnsPolicy': {},
                  'f:restartPolicy': {},
                  'f:schedulerName': {},
                  'f:securityContext': {},
                  'f:terminationGracePeriodSeconds': {},
                },
              },
            },
          },
        },
      ]),
    );
  });

  it('a second manager takes the fields it changes; the first keeps the rest', () => {
    const created = stored(updateManagedFields(undefined, deployment(), 'creator', scope));
    const next = structuredClone(created);
    (next['spec'] as Record<string, unknown>)['replicas'] = 5;
    const out = updateManagedFields(created, next, 'scaler', scope);
    const managers = (out.metadata.managedFields as Array<Record<string, unknown>>).map((e) => [
      e['manager'],
      JSON.stringify(e['fieldsV1']).includes('f:replicas'),
    ]);
    expect(managers).toEqual([
      ['creator', false],
      ['scaler', true],
    ]);
  });

  it('an object stored without managedFields stays untracked on update; [{}] resets to nothing', () => {
    const untracked = stored(deployment());
    const next = structuredClone(untracked);
    next.metadata.labels = { app: 'web', tier: 'x' };
    expect(updateManagedFields(untracked, next, 'm', scope).metadata.managedFields).toBeUndefined();
    const tracked = stored(updateManagedFields(undefined, deployment(), 'creator', scope));
    const reset = {
      ...structuredClone(tracked),
      metadata: { ...structuredClone(tracked.metadata), managedFields: [{}] },
    } as ApiObject;
    expect(updateManagedFields(tracked, reset, 'm', scope).metadata.managedFields).toBeUndefined();
    const emptyList = {
      ...structuredClone(tracked),
      metadata: { ...structuredClone(tracked.metadata), managedFields: [] },
    } as ApiObject;
    expect(updateManagedFields(tracked, emptyList, 'm', scope).metadata.managedFields).toEqual(
      tracked.metadata.managedFields,
    );
    const omitted = structuredClone(tracked);
    delete omitted.metadata.managedFields;
    expect(updateManagedFields(tracked, omitted, 'm', scope).metadata.managedFields).toEqual(
      tracked.metadata.managedFields,
    );
  });
});

const config = (
  replicas: number,
  image = 'nginx:1.25',
  extra: Record<string, unknown> = {},
): Record<string, unknown> => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image }] } },
    ...extra,
  },
});

function applied(live: ApiObject | undefined, cfg: Record<string, unknown>, manager: string, force = false): ApiObject {
  const obj = applyToObject(live, cfg, manager, force, scope);
  applyDeploymentDefaults(obj);
  return stored(obj);
}

describe('apply', () => {
  it('creates with only the applied fields owned', () => {
    const obj = applied(undefined, config(1), 'alice');
    const [entry] = obj.metadata.managedFields as Array<Record<string, unknown>>;
    expect(entry).toMatchObject({ manager: 'alice', operation: 'Apply', apiVersion: 'apps/v1' });
    expect(entry?.['fieldsV1']).toEqual({
      'f:spec': {
        'f:replicas': {},
        'f:selector': {},
        'f:template': {
          'f:metadata': { 'f:labels': { 'f:app': {} } },
          'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
        },
      },
    });
  });

  it('conflicts when another applier owns a field with a different value; force takes it', () => {
    const first = applied(undefined, config(1), 'alice');
    let error: unknown;
    try {
      applyToObject(first, config(3), 'bob', false, scope);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(StatusError);
    expect((error as StatusError).status).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message: 'Apply failed with 1 conflict: conflict with "alice": .spec.replicas',
      details: {
        causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.replicas' }],
      },
    });
    const forced = applied(first, config(3), 'bob', true);
    expect(forced['spec']).toMatchObject({ replicas: 3 });
    const fields = Object.fromEntries(
      (forced.metadata.managedFields as Array<Record<string, unknown>>).map((e) => [
        e['manager'],
        JSON.stringify(e['fieldsV1']),
      ]),
    );
    expect(fields['alice']).not.toContain('f:replicas');
    expect(fields['bob']).toContain('f:replicas');
  });

  it('shares ownership when values agree, and a field dropped by its only applier is removed', () => {
    const first = applied(undefined, config(1, 'nginx:1.25', { minReadySeconds: 5 }), 'alice');
    const shared = applied(first, config(1), 'bob');
    expect(JSON.stringify(shared.metadata.managedFields)).toContain('"manager":"bob"');
    const dropped = applied(shared, config(1), 'alice');
    expect(dropped['spec']).not.toHaveProperty('minReadySeconds');
    expect(dropped['spec']).toMatchObject({ replicas: 1 });
  });

  it('merges containers by name and reports Update owners with their apiVersion', () => {
    const first = applied(undefined, config(1), 'alice');
    const next = structuredClone(first);
    const containers = (next['spec'] as any).template.spec.containers as Array<Record<string, unknown>>;
    containers[0] = { ...containers[0], image: 'nginx:2' };
    const updated = stored(updateManagedFields(first, next, 'editor', scope));
    expect(() => applyToObject(updated, config(1, 'nginx:1.26'), 'alice', false, scope)).toThrow(
      'Apply failed with 1 conflict: conflict with "editor" using apps/v1: .spec.template.spec.containers[name="nginx"].image',
    );
    const sidecar = config(1);
    (sidecar['spec'] as any).template.spec.containers = [{ name: 'sidecar', image: 'busybox' }];
    const both = applied(updated, sidecar, 'carol');
    expect(((both['spec'] as any).template.spec.containers as Array<{ name: string }>).map((c) => c.name)).toEqual([
      'nginx',
      'sidecar',
    ]);
  });

  it('refuses managedFields in the configuration and a wrong apiVersion', () => {
    expect(() =>
      applyToObject(undefined, { ...config(1), metadata: { name: 'web', managedFields: [] } }, 'a', false, scope),
    ).toThrow('metadata.managedFields must be nil');
    expect(() => applyToObject(undefined, { ...config(1), apiVersion: 'apps/v2' }, 'a', false, scope)).toThrow(
      'Incorrect version specified in apply patch. Specified patch version: apps/v2, expected: apps/v1',
    );
  });
});
