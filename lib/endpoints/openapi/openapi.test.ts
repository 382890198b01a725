// The generated OpenAPI v3 and v2 documents: structure, GVK extensions, schemas from the type catalog, parameters.
import { groupVersionDocument } from './v3';
import { swaggerDocument } from './v2';
import { fakeRegistry, SERVED_RESOURCES } from './testing/fake-registry';
import { refsIn, resolvePointer, structuralProblems } from './testing/structure';

type Json = Record<string, any>;

const registry = fakeRegistry();
const key = (group: string, version: string): string => (group === '' ? `api/${version}` : `apis/${group}/${version}`);
const v3 = new Map(
  registry
    .groups()
    .flatMap(({ group, versions }) =>
      versions.map((v) => [key(group, v), groupVersionDocument(registry, group, v) as Json]),
    ),
);
const v2 = swaggerDocument(registry) as Json;
const apps = v3.get('apis/apps/v1') as Json;
const schemas = apps['components']['schemas'] as Json;

describe('OpenAPI v3 group-version documents', () => {
  it.each([...v3.keys()])('%s is a structurally valid OpenAPI 3.0 document whose $refs all resolve', (k) => {
    expect(structuralProblems(v3.get(k) as Json, true)).toEqual([]);
  });

  it.each(SERVED_RESOURCES.map((r) => [r.kind, r]))(
    '%s has a schema carrying its GVK in both extension names',
    (_kind, r) => {
      const doc = v3.get(key(r.group, r.version)) as Json;
      const gvk = { group: r.group, kind: r.kind, version: r.version };
      const withGvk = Object.entries(doc['components']['schemas'] as Json).filter(([, s]) =>
        (s['x-kubernetes-group-version-kind'] ?? []).some((g: Json) => JSON.stringify(g) === JSON.stringify(gvk)),
      );
      expect(withGvk.map(([n]) => n)).toHaveLength(1);
      expect(withGvk[0]?.[1]['x-orch-group-version-kind']).toEqual(withGvk[0]?.[1]['x-kubernetes-group-version-kind']);
    },
  );

  it('names definitions as Kubernetes does and wraps refs with siblings in allOf with default {}', () => {
    const deployment = schemas['io.k8s.api.apps.v1.Deployment'];
    expect(deployment['properties']['spec']).toEqual({
      description: expect.any(String),
      allOf: [{ $ref: '#/components/schemas/io.k8s.api.apps.v1.DeploymentSpec' }],
      default: {},
    });
    expect(deployment['properties']['metadata']).toEqual({
      description: expect.any(String),
      allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }],
      default: {},
    });
    expect(deployment['properties']['kind']).toEqual({ description: expect.any(String), type: 'string' });
    const spec = schemas['io.k8s.api.apps.v1.DeploymentSpec'];
    expect(spec['required']).toEqual(['selector', 'template']);
    expect(spec['properties']['replicas']).toEqual({
      description: expect.any(String),
      type: 'integer',
      format: 'int32',
    });
    // A description beside the $ref makes kube-openapi's builder3 wrap it in allOf.
    expect(spec['properties']['selector']).toEqual({
      description: expect.any(String),
      allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector' }],
    });
  });

  it('carries list, map and patch extensions from the catalog', () => {
    const containers = schemas['io.k8s.api.core.v1.PodSpec']['properties']['containers'];
    expect(containers).toMatchObject({
      type: 'array',
      items: { allOf: [{ $ref: '#/components/schemas/io.k8s.api.core.v1.Container' }], default: {} },
      'x-kubernetes-patch-strategy': 'merge',
      'x-orch-patch-strategy': 'merge',
      'x-kubernetes-patch-merge-key': 'name',
      'x-orch-patch-merge-key': 'name',
    });
    const ports = schemas['io.k8s.api.core.v1.Container']['properties']['ports'];
    expect(ports).toMatchObject({
      'x-orch-list-type': 'map',
      'x-orch-list-map-keys': ['containerPort', 'protocol'],
      'x-kubernetes-list-type': 'map',
    });
    expect(schemas['io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector']).toMatchObject({
      'x-orch-map-type': 'atomic',
      'x-kubernetes-map-type': 'atomic',
    });
    expect(schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']['properties']['labels']).toEqual({
      description: expect.any(String),
      type: 'object',
      additionalProperties: { type: 'string', default: '' },
    });
  });

  it('gives the special types their Kubernetes forms', () => {
    expect(schemas['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toEqual({
      description: expect.any(String),
      oneOf: [{ type: 'integer' }, { type: 'string' }],
      format: 'int-or-string',
      'x-kubernetes-int-or-string': true,
      'x-orch-int-or-string': true,
    });
    expect(schemas['io.k8s.apimachinery.pkg.api.resource.Quantity']).toEqual({
      description: expect.any(String),
      oneOf: [{ type: 'string' }, { type: 'number' }],
    });
    expect(schemas['io.k8s.apimachinery.pkg.apis.meta.v1.Time']).toEqual({
      description: expect.any(String),
      type: 'string',
      format: 'date-time',
    });
    expect(schemas['io.k8s.apimachinery.pkg.runtime.RawExtension']).toEqual({
      description: expect.any(String),
      type: 'object',
    });
    expect(schemas['io.k8s.api.core.v1.ResourceRequirements']['properties']['limits']).toEqual({
      description: expect.any(String),
      type: 'object',
      additionalProperties: { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity' },
    });
  });

  it('flattens inline members (Volume has its VolumeSource properties)', () => {
    const volume = schemas['io.k8s.api.core.v1.Volume']['properties'];
    expect(Object.keys(volume)).toEqual(expect.arrayContaining(['name', 'configMap', 'emptyDir', 'secret']));
    expect(schemas['io.k8s.api.core.v1.VolumeSource']).toBeUndefined();
  });

  it('documents every operation with its query parameters, action and GVK', () => {
    const item = apps['paths']['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'];
    const names = (op: Json): string[] => op['parameters'].map((p: Json) => p['name']);
    expect(names(item['patch'])).toEqual(['dryRun', 'fieldManager', 'fieldValidation', 'force']);
    expect(names(item['put'])).toEqual(['dryRun', 'fieldManager', 'fieldValidation']);
    expect(names(item['delete'])).toEqual(['dryRun', 'gracePeriodSeconds', 'orphanDependents', 'propagationPolicy']);
    expect(item['parameters'].map((p: Json) => p['name'])).toEqual(['namespace', 'name', 'pretty']);
    expect(item['patch']).toMatchObject({
      operationId: 'patchAppsV1NamespacedDeployment',
      'x-kubernetes-action': 'patch',
      'x-kubernetes-group-version-kind': { group: 'apps', kind: 'Deployment', version: 'v1' },
      'x-orch-group-version-kind': { group: 'apps', kind: 'Deployment', version: 'v1' },
    });
    expect(Object.keys(item['patch']['requestBody']['content'])).toEqual([
      'application/apply-patch+yaml',
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
    ]);
    const list = apps['paths']['/apis/apps/v1/namespaces/{namespace}/deployments']['get'];
    expect(names(list)).toEqual([
      'allowWatchBookmarks',
      'continue',
      'fieldSelector',
      'labelSelector',
      'limit',
      'resourceVersion',
      'resourceVersionMatch',
      'timeoutSeconds',
      'watch',
    ]);
    expect(Object.keys(list['responses']['200']['content'])).toEqual([
      'application/json',
      'application/yaml',
      'application/vnd.orch.protobuf',
      'application/json;stream=watch',
      'application/vnd.orch.protobuf;stream=watch',
    ]);
    expect(apps['paths']['/apis/apps/v1/namespaces/{namespace}/deployments']['delete']['operationId']).toBe(
      'deleteAppsV1CollectionNamespacedDeployment',
    );
    expect(apps['paths']['/apis/apps/v1/deployments']['get']['operationId']).toBe(
      'listAppsV1DeploymentForAllNamespaces',
    );
  });

  it("every PATCH operation lists fieldValidation (kubectl takes the first PATCH with the kind's GVK)", () => {
    for (const doc of v3.values()) {
      for (const [path, item] of Object.entries(doc['paths'] as Json)) {
        if (item['patch'])
          expect([
            path,
            item['patch']['parameters'].some((p: Json) => p['name'] === 'fieldValidation' && p['in'] === 'query'),
          ]).toEqual([path, true]);
      }
    }
  });

  it('documents the scale subresource as autoscaling/v1 Scale and the namespace finalize subresource', () => {
    expect(
      apps['paths']['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale']['put'][
        'x-kubernetes-group-version-kind'
      ],
    ).toEqual({ group: 'autoscaling', kind: 'Scale', version: 'v1' });
    expect(schemas['io.k8s.api.autoscaling.v1.Scale']['x-kubernetes-group-version-kind']).toEqual([
      { group: 'autoscaling', kind: 'Scale', version: 'v1' },
    ]);
    const core = v3.get('api/v1') as Json;
    expect(Object.keys(core['paths']['/api/v1/namespaces/{name}/finalize'])).toEqual(['parameters', 'put']);
    expect(core['paths']['/api/v1/namespaces/{name}/finalize']['put']['operationId']).toBe(
      'replaceCoreV1NamespaceFinalize',
    );
  });

  it('serves the flowcontrol kinds under the orch group', () => {
    const fc = v3.get('apis/flowcontrol.apiserver.orch.io/v1beta3') as Json;
    expect(
      fc['components']['schemas']['io.k8s.api.flowcontrol.v1beta3.FlowSchema']['x-kubernetes-group-version-kind'],
    ).toEqual([
      { group: 'flowcontrol.apiserver.orch.io', kind: 'FlowSchema', version: 'v1beta3' },
      { group: 'flowcontrol.apiserver.k8s.io', kind: 'FlowSchema', version: 'v1beta3' },
    ]);
    expect(fc['paths']['/apis/flowcontrol.apiserver.orch.io/v1beta3/flowschemas']['get']['operationId']).toBe(
      'listFlowcontrolApiserverV1beta3FlowSchema',
    );
  });

  it('lists the Kubernetes group name beside the orch name on the events and webhook configuration kinds', () => {
    const events = (v3.get('apis/events.orch.io/v1') as Json)['components']['schemas'] as Json;
    expect(events['io.k8s.api.events.v1.Event']['x-kubernetes-group-version-kind']).toEqual([
      { group: 'events.orch.io', kind: 'Event', version: 'v1' },
      { group: 'events.k8s.io', kind: 'Event', version: 'v1' },
    ]);
    expect(events['io.k8s.api.events.v1.Event']['required']).toEqual(['eventTime']);
    const ar = (v3.get('apis/admissionregistration.orch.io/v1') as Json)['components']['schemas'] as Json;
    const vwc = ar['io.k8s.api.admissionregistration.v1.ValidatingWebhookConfigurationList'];
    expect(vwc['x-kubernetes-group-version-kind']).toEqual([
      { group: 'admissionregistration.orch.io', kind: 'ValidatingWebhookConfigurationList', version: 'v1' },
      { group: 'admissionregistration.k8s.io', kind: 'ValidatingWebhookConfigurationList', version: 'v1' },
    ]);
    const webhooks = ar['io.k8s.api.admissionregistration.v1.MutatingWebhookConfiguration']['properties']['webhooks'];
    expect(webhooks).toMatchObject({ 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge' });
    expect(ar['io.k8s.api.admissionregistration.v1.ValidatingWebhook']['required']).toEqual([
      'name',
      'clientConfig',
      'sideEffects',
      'admissionReviewVersions',
    ]);
    // RuleWithOperations embeds Rule inline: its properties sit beside `operations`.
    expect(Object.keys(ar['io.k8s.api.admissionregistration.v1.RuleWithOperations']['properties']).sort()).toEqual([
      'apiGroups',
      'apiVersions',
      'operations',
      'resources',
      'scope',
    ]);
    const core = (v3.get('api/v1') as Json)['components']['schemas'] as Json;
    expect(core['io.k8s.api.core.v1.Event']['x-kubernetes-group-version-kind']).toEqual([
      { group: '', kind: 'Event', version: 'v1' },
    ]);
    expect(core['io.k8s.api.core.v1.ObjectReference']['x-kubernetes-map-type']).toBe('atomic');
  });
});

describe('OpenAPI v2 (Swagger 2.0) document', () => {
  it('is structurally valid and every $ref resolves', () => {
    expect(structuralProblems(v2, false)).toEqual([]);
  });

  it("holds every served group-version's paths and keeps $ref siblings unwrapped", () => {
    for (const r of SERVED_RESOURCES)
      expect(Object.keys(v2['paths'])).toContain(
        `/${key(r.group, r.version)}${r.namespaced ? '/namespaces/{namespace}' : ''}/${r.resource}`,
      );
    expect(v2['definitions']['io.k8s.api.apps.v1.Deployment']['properties']['spec']).toEqual({
      description: expect.any(String),
      $ref: '#/definitions/io.k8s.api.apps.v1.DeploymentSpec',
      default: {},
    });
    expect(v2['definitions']['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toMatchObject({
      type: 'string',
      format: 'int-or-string',
    });
    const patch = v2['paths']['/apis/apps/v1/namespaces/{namespace}/deployments/{name}']['patch'];
    expect(patch['consumes']).toContain('application/apply-patch+yaml');
    expect(patch['parameters'][0]).toEqual({
      name: 'body',
      in: 'body',
      required: true,
      schema: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch' },
    });
  });
});

describe('structural checks', () => {
  it('catch an unresolved $ref and a $ref with siblings in v3', () => {
    const bad = {
      openapi: '3.0.0',
      info: { title: 't', version: 'v' },
      paths: {},
      components: { schemas: { a: { $ref: '#/components/schemas/b', default: {} } } },
    };
    expect(structuralProblems(bad, true)).toEqual([
      'a: $ref with siblings (ignored by OpenAPI 3.0)',
      'unresolved $ref #/components/schemas/b',
    ]);
    expect(resolvePointer(bad, '#/components/schemas/a')).toBeDefined();
    expect(refsIn(bad)).toEqual(['#/components/schemas/b']);
  });
});
