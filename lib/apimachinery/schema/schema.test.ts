// The kind schemas derived from the type catalog: shapes, Kubernetes' special JSON types, list/map/patch metadata, Go type names.
import type { SchemaNode } from './node';
import { schemaFor } from './kinds';

function at(node: SchemaNode | undefined, path: string): SchemaNode {
  let current = node;
  for (const segment of path.split('.')) {
    if (current === undefined) break;
    current = segment === '[]' ? current.items : segment === '{}' ? current.values : current.fieldAt(segment);
  }
  if (current === undefined) throw new Error(`no schema node at ${path}`);
  return current;
}

const deployment = schemaFor('apps/v1', 'Deployment');

describe('schemaFor', () => {
  it.each([
    ['v1', 'Namespace'],
    ['apps/v1', 'Deployment'],
    ['autoscaling/v1', 'HorizontalPodAutoscaler'],
    ['autoscaling/v1', 'Scale'],
    ['autoscaling/v2', 'HorizontalPodAutoscaler'],
    ['flowcontrol.apiserver.orch.io/v1beta3', 'FlowSchema'],
    ['flowcontrol.apiserver.orch.io/v1beta3', 'PriorityLevelConfiguration'],
    ['flowcontrol.apiserver.orch.io/v1beta2', 'FlowSchema'],
    ['flowcontrol.apiserver.orch.io/v1beta2', 'PriorityLevelConfiguration'],
    ['apps/v1', 'DeploymentList'],
  ])('has a schema for %s %s with kind, apiVersion and metadata', (apiVersion, kind) => {
    const node = schemaFor(apiVersion, kind);
    expect(node?.type).toBe('object');
    expect(node?.fieldNames).toEqual(expect.arrayContaining(['kind', 'apiVersion', 'metadata']));
  });

  it.each([
    ['apps/v1', 'Gadget'],
    ['apps/v2', 'Deployment'],
    ['example.com/v1', 'Deployment'],
    ['v1', 'Time'],
  ])('has none for %s %s', (apiVersion, kind) => {
    expect(schemaFor(apiVersion, kind)).toBeUndefined();
  });

  it('returns the same tree every time', () => {
    expect(schemaFor('apps/v1', 'Deployment')).toBe(deployment);
  });
});

describe('Deployment schema', () => {
  it('merges containers by name (1.26 declares no listType on them)', () => {
    const containers = at(deployment, 'spec.template.spec.containers');
    expect(containers).toMatchObject({
      type: 'array',
      listType: undefined,
      patchStrategy: 'merge',
      patchMergeKey: 'name',
      goType: '[]v1.Container',
    });
    expect(containers.items).toMatchObject({ type: 'object', goStruct: 'Container', goType: 'v1.Container' });
  });

  it('has map lists with their keys (topologySpreadConstraints)', () => {
    const constraints = at(deployment, 'spec.template.spec.topologySpreadConstraints');
    expect(constraints).toMatchObject({
      listType: 'map',
      listMapKeys: ['topologyKey', 'whenUnsatisfiable'],
      patchStrategy: 'merge',
      patchMergeKey: 'topologyKey',
    });
  });

  it('keeps patch tags without a listType (volumes, env)', () => {
    expect(at(deployment, 'spec.template.spec.volumes')).toMatchObject({
      patchStrategy: 'merge,retainKeys',
      patchMergeKey: 'name',
    });
    expect(at(deployment, 'spec.template.spec.containers.[].env')).toMatchObject({
      patchStrategy: 'merge',
      patchMergeKey: 'name',
    });
  });

  it('marks the strategy with retainKeys and the selector as an atomic struct', () => {
    expect(at(deployment, 'spec.strategy')).toMatchObject({ type: 'object', patchStrategy: 'retainKeys' });
    expect(at(deployment, 'spec.selector')).toMatchObject({
      type: 'object',
      mapType: 'atomic',
      required: true,
      nullable: true,
    });
  });

  it('has int-or-string surge fields and ports', () => {
    expect(at(deployment, 'spec.strategy.rollingUpdate.maxSurge')).toMatchObject({
      type: 'int-or-string',
      format: 'int-or-string',
      nullable: true,
    });
    expect(at(deployment, 'spec.template.spec.containers.[].livenessProbe.httpGet.port')).toMatchObject({
      type: 'int-or-string',
      nullable: false,
    });
  });

  it('has quantities in resource lists, with the Go names of the list', () => {
    const limits = at(deployment, 'spec.template.spec.containers.[].resources.limits');
    expect(limits).toMatchObject({ type: 'map', goType: 'v1.ResourceList' });
    expect(limits.values).toMatchObject({ type: 'quantity', goType: 'resource.Quantity' });
    expect(at(deployment, 'spec.template.spec.volumes.[].emptyDir.sizeLimit')).toMatchObject({ type: 'quantity' });
  });

  it('flattens inline members (volume sources, probe handlers, key selectors)', () => {
    const volume = at(deployment, 'spec.template.spec.volumes.[]');
    expect(volume.fieldNames).toEqual(
      expect.arrayContaining([
        'name',
        'configMap',
        'secret',
        'projected',
        'emptyDir',
        'persistentVolumeClaim',
        'downwardAPI',
      ]),
    );
    expect(at(volume, 'configMap')).toMatchObject({
      type: 'object',
      goType: 'v1.ConfigMapVolumeSource',
      goStruct: 'ConfigMapVolumeSource',
    });
    expect(at(volume, 'configMap').fieldNames).toEqual(
      expect.arrayContaining(['name', 'items', 'defaultMode', 'optional']),
    );
    expect(at(deployment, 'spec.template.spec.containers.[].readinessProbe').fieldNames).toEqual(
      expect.arrayContaining(['exec', 'httpGet', 'tcpSocket', 'grpc', 'initialDelaySeconds']),
    );
    expect(
      at(deployment, 'spec.template.spec.containers.[].env.[].valueFrom.secretKeyRef').fieldNames.slice().sort(),
    ).toEqual(['key', 'name', 'optional']);
  });

  it('types scalars with their Go names', () => {
    expect(at(deployment, 'spec.replicas')).toMatchObject({
      type: 'integer',
      format: 'int32',
      goType: 'int32',
      nullable: true,
    });
    expect(at(deployment, 'spec.paused')).toMatchObject({ type: 'boolean', goType: 'bool', nullable: false });
    expect(at(deployment, 'spec.template.spec.containers.[].imagePullPolicy')).toMatchObject({
      type: 'string',
      goType: 'v1.PullPolicy',
    });
    expect(at(deployment, 'metadata.uid')).toMatchObject({ type: 'string', goType: 'types.UID' });
    expect(at(deployment, 'metadata.generation')).toMatchObject({ type: 'integer', format: 'int64' });
    expect(at(deployment, 'spec.template.spec.containers.[].securityContext.capabilities.add')).toMatchObject({
      goType: '[]v1.Capability',
    });
    expect(at(deployment, 'spec.template.spec.containers.[].securityContext.capabilities.add.[]')).toMatchObject({
      type: 'string',
      goType: 'v1.Capability',
    });
  });

  it('has maps of strings with their map types', () => {
    expect(at(deployment, 'metadata.labels')).toMatchObject({ type: 'map', goType: 'map[string]string' });
    expect(at(deployment, 'metadata.labels').values).toMatchObject({ type: 'string', goType: 'string' });
    expect(at(deployment, 'spec.template.spec.nodeSelector')).toMatchObject({ type: 'map', mapType: 'atomic' });
  });

  it('has timestamps, raw JSON and managed fields metadata', () => {
    expect(at(deployment, 'metadata.creationTimestamp')).toMatchObject({
      type: 'date-time',
      goType: 'v1.Time',
      nullable: false,
    });
    expect(at(deployment, 'metadata.deletionTimestamp')).toMatchObject({ type: 'date-time', nullable: true });
    expect(at(deployment, 'metadata.managedFields.[].fieldsV1')).toMatchObject({ type: 'raw' });
    expect(at(deployment, 'metadata.managedFields.[].time')).toMatchObject({ type: 'date-time' });
    expect(at(deployment, 'metadata.ownerReferences')).toMatchObject({
      patchStrategy: 'merge',
      patchMergeKey: 'uid',
      goType: '[]v1.OwnerReference',
    });
    expect(at(deployment, 'metadata.finalizers')).toMatchObject({ patchStrategy: 'merge', goType: '[]string' });
  });

  it('answers undefined for unknown fields and for fields of non-objects', () => {
    expect(deployment?.fieldAt('spek')).toBeUndefined();
    expect(at(deployment, 'spec.replicas').fieldAt('x')).toBeUndefined();
    expect(at(deployment, 'spec.replicas').fieldNames).toEqual([]);
  });
});

describe('other kinds', () => {
  it('has HPA v2 metrics and behavior', () => {
    const hpa = schemaFor('autoscaling/v2', 'HorizontalPodAutoscaler');
    expect(at(hpa, 'spec.metrics')).toMatchObject({ type: 'array', listType: 'atomic', goType: '[]v2.MetricSpec' });
    expect(at(hpa, 'spec.metrics.[].resource.target.averageValue')).toMatchObject({ type: 'quantity' });
    expect(at(hpa, 'spec.behavior.scaleUp.policies')).toMatchObject({ type: 'array' });
  });

  it('has FlowSchema rules with subjects', () => {
    const fs = schemaFor('flowcontrol.apiserver.orch.io/v1beta3', 'FlowSchema');
    expect(at(fs, 'spec.rules.[].subjects.[].kind')).toMatchObject({ type: 'string', goType: 'v1beta3.SubjectKind' });
    expect(at(fs, 'spec.matchingPrecedence')).toMatchObject({ type: 'integer', format: 'int32' });
  });

  it('has Namespace finalizers of a named type and Scale replicas', () => {
    expect(at(schemaFor('v1', 'Namespace'), 'spec.finalizers.[]')).toMatchObject({ goType: 'v1.FinalizerName' });
    expect(at(schemaFor('autoscaling/v1', 'Scale'), 'spec.replicas')).toMatchObject({
      type: 'integer',
      format: 'int32',
    });
  });
});
