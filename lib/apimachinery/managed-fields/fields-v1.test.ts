// FieldsV1 as Kubernetes writes it for each list and map type: `f:` fields, `k:{…}` list-map items, `v:` set members, atomic leaves.
import type { ApiObject } from '../meta/types';
import { updateManagedFields } from './field-manager';
import { FieldSet } from './field-set';
import { deploymentScope } from './testing/deployment-scope';

const scope = deploymentScope('2024-05-01T10:00:00Z');

/** The FieldsV1 the creating manager gets for a Deployment with `container` as its only container and `meta` in metadata. */
function createdFields(
  container: Record<string, unknown>,
  meta: Record<string, unknown> = {},
  spec: Record<string, unknown> = {},
): Record<string, any> {
  const obj: ApiObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', ...meta },
    spec: { template: { spec: { containers: [{ name: 'c', ...container }] } }, ...spec },
  };
  const [entry] = updateManagedFields(undefined, obj, 'm', scope).metadata.managedFields as Array<Record<string, any>>;
  return entry?.['fieldsV1'];
}

const containerFields = (fields: Record<string, any>): unknown =>
  fields['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"c"}'];

describe('FieldsV1 encoding', () => {
  it.each([
    [
      'map list with two keys (ports)',
      { ports: [{ containerPort: 80, protocol: 'TCP', name: 'http' }] },
      {
        'f:ports': {
          '.': {},
          'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:name': {}, 'f:protocol': {} },
        },
      },
    ],
    [
      'map list by patch merge key (env)',
      { env: [{ name: 'A', value: '1' }] },
      { 'f:env': { '.': {}, 'k:{"name":"A"}': { '.': {}, 'f:name': {}, 'f:value': {} } } },
    ],
    ['atomic list (args)', { args: ['--a', '--b'] }, { 'f:args': {} }],
    [
      'struct fields (resources)',
      { resources: { limits: { cpu: '1' } } },
      { 'f:resources': { '.': {}, 'f:limits': { '.': {}, 'f:cpu': {} } } },
    ],
  ])('%s', (_name, container, expected) => {
    // resources is a Go struct: always serialized, so its creator owns it even empty, as in Kubernetes
    expect(containerFields(createdFields(container))).toEqual({
      '.': {},
      'f:name': {},
      'f:resources': {},
      ...expected,
    });
  });

  it('a merge list of scalars without a key is a set: members as v:<json>', () => {
    expect(createdFields({}, { finalizers: ['example.com/a', 'b'] })['f:metadata']).toEqual({
      'f:finalizers': { '.': {}, 'v:"b"': {}, 'v:"example.com/a"': {} },
    });
  });

  it('a granular map (labels) lists its keys; an atomic struct (selector) is one leaf', () => {
    const fields = createdFields(
      {},
      { labels: { app: 'x', 'orch.io/tier': 'web' } },
      { selector: { matchLabels: { app: 'x' } } },
    );
    expect(fields['f:metadata']).toEqual({ 'f:labels': { '.': {}, 'f:app': {}, 'f:orch.io/tier': {} } });
    expect(fields['f:spec']['f:selector']).toEqual({});
  });

  it('round-trips through FieldSet in the same order', () => {
    const fields = createdFields(
      {
        ports: [
          { containerPort: 8080, protocol: 'UDP' },
          { containerPort: 80, protocol: 'TCP' },
        ],
        env: [{ name: 'B' }, { name: 'A' }],
      },
      { finalizers: ['z', 'a'] },
    );
    const text = JSON.stringify(fields);
    expect(JSON.stringify(FieldSet.fromFields(fields).toFields())).toBe(text);
    expect(text.indexOf('"k:{\\"containerPort\\":80,')).toBeLessThan(text.indexOf('"k:{\\"containerPort\\":8080,'));
    expect(text.indexOf('"v:\\"a\\""')).toBeLessThan(text.indexOf('"v:\\"z\\""'));
  });
});
