// Deployment pod templates: env/envFrom sources, host networking ports, pod securityContext ids and tolerations get 1.26's 422 texts.
import { startTestServer, createNamespace, type TestServer } from '../helpers/test-server';
import { aDeployment } from '../helpers/fixtures';

let ts: TestServer;
const NS = 'pod-template-validation';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;
const SPEC = 'spec.template.spec';
const CTR = `${SPEC}.containers[0]`;

beforeAll(async () => {
  ts = await startTestServer();
  await createNamespace(ts.api, NS);
});
afterAll(() => ts.stop());

/** A Deployment whose pod spec (and first container) are changed by `edit`. */
function withPodSpec(
  name: string,
  edit: (spec: Record<string, any>, ctr: Record<string, any>) => void,
): Record<string, any> {
  const obj = aDeployment(name);
  const spec = obj['spec'].template.spec;
  edit(spec, spec.containers[0]);
  return obj;
}

async function causesOf(obj: Record<string, any>): Promise<{ reason: string; field: string; message: string }[]> {
  const res = await ts.api.post(DEPLOYMENTS, obj);
  expect(res.status).toBe(422);
  expect(res.body.reason).toBe('Invalid');
  return res.body.details.causes;
}

describe('env and envFrom', () => {
  it('rejects valueFrom with no source, several sources, or next to a value', async () => {
    const obj = withPodSpec('env-sources', (_, ctr) => {
      ctr.env = [
        { name: 'A', valueFrom: {} },
        { name: 'B', valueFrom: { fieldRef: { fieldPath: 'metadata.name' }, secretKeyRef: { name: 's', key: 'k' } } },
        { name: 'C', value: 'v', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k' } } },
      ];
    });
    const res = await ts.api.post(DEPLOYMENTS, obj);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      `Deployment.apps "env-sources" is invalid: [${CTR}.env[0].valueFrom: Invalid value: "": must specify one of: \`fieldRef\`, \`resourceFieldRef\`, \`configMapKeyRef\` or \`secretKeyRef\`, ` +
        `${CTR}.env[1].valueFrom: Invalid value: "": may not have more than one field specified at a time, ` +
        `${CTR}.env[2].valueFrom: Invalid value: "": may not be specified when \`value\` is not empty]`,
    );
    expect(res.body.details.causes[0]).toEqual({
      reason: 'FieldValueInvalid',
      field: `${CTR}.env[0].valueFrom`,
      message:
        'Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
    });
  });

  it('checks fieldRef paths, key selectors and resourceFieldRef resources', async () => {
    const causes = await causesOf(
      withPodSpec('env-refs', (_, ctr) => {
        ctr.env = [
          { name: 'A', valueFrom: { fieldRef: { fieldPath: 'metadata.labels' } } },
          { name: 'B', valueFrom: { fieldRef: { fieldPath: 'spec.foo' } } },
          { name: 'C', valueFrom: { configMapKeyRef: { name: 'cm', key: 'a/b' } } },
          { name: 'D', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: '2' } } },
        ];
      }),
    );
    expect(causes.map((c) => [c.field, c.message])).toEqual([
      [
        `${CTR}.env[0].valueFrom.fieldRef.fieldPath`,
        'Unsupported value: "metadata.labels": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.podIP", "status.podIPs"',
      ],
      [
        `${CTR}.env[1].valueFrom.fieldRef.fieldPath`,
        'Invalid value: "spec.foo": error converting fieldPath: field label not supported: spec.foo',
      ],
      [
        `${CTR}.env[2].valueFrom.configMapKeyRef.key`,
        "Invalid value: \"a/b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
      ],
      [
        `${CTR}.env[3].valueFrom.resourceFieldRef.divisor`,
        'Invalid value: "limits.cpu": only divisor\'s values 1m and 1 are supported with the cpu resource',
      ],
    ]);
  });

  it('accepts valid references, defaulting fieldRef.apiVersion', async () => {
    const res = await ts.api.post(
      DEPLOYMENTS,
      withPodSpec('env-ok', (_, ctr) => {
        ctr.env = [
          { name: 'A', valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } },
          { name: 'B', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } },
          { name: 'C', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
        ];
        ctr.envFrom = [{ prefix: 'P_', configMapRef: { name: 'cm' } }];
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.spec.template.spec.containers[0].env[0].valueFrom.fieldRef).toEqual({
      fieldPath: "metadata.labels['app']",
      apiVersion: 'v1',
    });
  });

  it('rejects envFrom entries without exactly one source (reported at the list) and bad names', async () => {
    const causes = await causesOf(
      withPodSpec('env-from', (_, ctr) => {
        ctr.envFrom = [{}, { configMapRef: { name: 'a' }, secretRef: { name: 'b' } }, { prefix: '1x', secretRef: {} }];
      }),
    );
    expect(causes.map((c) => [c.reason, c.field, c.message])).toEqual([
      ['FieldValueInvalid', `${CTR}.envFrom`, 'Invalid value: "": must specify one of: `configMapRef` or `secretRef`'],
      [
        'FieldValueInvalid',
        `${CTR}.envFrom`,
        'Invalid value: "": may not have more than one field specified at a time',
      ],
      [
        'FieldValueInvalid',
        `${CTR}.envFrom[2].prefix`,
        expect.stringMatching(/^Invalid value: "1x": a valid environment variable name must consist of/),
      ],
      ['FieldValueRequired', `${CTR}.envFrom[2].secretRef.name`, 'Required value'],
    ]);
  });
});

describe('pod-level rules', () => {
  it('requires hostPort to equal containerPort with host networking (unset hostPorts are defaulted)', async () => {
    const causes = await causesOf(
      withPodSpec('host-net', (spec, ctr) => {
        spec.hostNetwork = true;
        ctr.ports = [{ containerPort: 80, hostPort: 81 }, { containerPort: 90 }];
      }),
    );
    expect(causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: `${CTR}.ports[0].containerPort`,
        message: 'Invalid value: 80: must match `hostPort` when `hostNetwork` is true',
      },
    ]);
  });

  it('range-checks securityContext user and group ids', async () => {
    const causes = await causesOf(
      withPodSpec('sec-ctx', (spec) => {
        spec.securityContext = { runAsUser: -1, supplementalGroups: [1, -2] };
      }),
    );
    expect(causes.map((c) => [c.field, c.message])).toEqual([
      [`${SPEC}.securityContext.runAsUser`, 'Invalid value: -1: must be between 0 and 2147483647, inclusive'],
      [
        `${SPEC}.securityContext.supplementalGroups[1]`,
        'Invalid value: -2: must be between 0 and 2147483647, inclusive',
      ],
    ]);
  });

  it('validates tolerations', async () => {
    const causes = await causesOf(
      withPodSpec('tolerations', (spec) => {
        spec.tolerations = [
          { key: 'k', operator: 'Foo' },
          { operator: 'Equal' },
          { key: 'k', operator: 'Exists', value: 'v' },
          { key: 'k', tolerationSeconds: 5, effect: 'Sometimes' },
        ];
      }),
    );
    expect(causes.map((c) => [c.reason, c.field, c.message])).toEqual([
      [
        'FieldValueNotSupported',
        `${SPEC}.tolerations[0].operator`,
        'Unsupported value: "Foo": supported values: "Equal", "Exists"',
      ],
      [
        'FieldValueInvalid',
        `${SPEC}.tolerations[1].operator`,
        'Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
      ],
      [
        'FieldValueInvalid',
        `${SPEC}.tolerations[2].operator`,
        'Invalid value: core.Toleration{Key:"k", Operator:"Exists", Value:"v", Effect:"", TolerationSeconds:(*int64)(nil)}: value must be empty when `operator` is \'Exists\'',
      ],
      [
        'FieldValueInvalid',
        `${SPEC}.tolerations[3].effect`,
        'Invalid value: "Sometimes": effect must be \'NoExecute\' when `tolerationSeconds` is set',
      ],
      [
        'FieldValueNotSupported',
        `${SPEC}.tolerations[3].effect`,
        'Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      ],
    ]);
  });
});

describe('securityContext, affinity, topology spread and downwardAPI items', () => {
  it('answers 422 with every cause, in 1.26 order, and stores nothing', async () => {
    const obj = withPodSpec('scheduling', (spec, ctr) => {
      spec.volumes = [
        { name: 'podinfo', downwardAPI: { items: [{ path: '../x', fieldRef: { fieldPath: 'status.podIP' } }] } },
      ];
      ctr.securityContext = {
        allowPrivilegeEscalation: false,
        capabilities: { add: ['CAP_SYS_ADMIN'] },
        procMount: 'Masked',
      };
      spec.affinity = {
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, podAffinityTerm: { topologyKey: 'zone' } }],
        },
      };
      spec.topologySpreadConstraints = [
        { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway', minDomains: 2 },
      ];
    });
    const causes = await causesOf(obj);
    const volume = `${SPEC}.volumes[0].downwardAPI`;
    expect(causes.map((c) => [c.reason, c.field, c.message])).toEqual([
      ['FieldValueInvalid', `${volume}.path`, 'Invalid value: "../x": must not contain \'..\''],
      [
        'FieldValueNotSupported',
        `${volume}.fieldRef.fieldPath`,
        'Unsupported value: "status.podIP": supported values: "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"',
      ],
      [
        'FieldValueNotSupported',
        `${CTR}.securityContext.procMount`,
        'Unsupported value: "Masked": supported values: "Default", "Unmasked"',
      ],
      [
        'FieldValueInvalid',
        `${CTR}.securityContext`,
        'Invalid value: core.SecurityContext{Capabilities:(*core.Capabilities)(0xc000000000), Privileged:(*bool)(nil), SELinuxOptions:(*core.SELinuxOptions)(nil), WindowsOptions:(*core.WindowsSecurityContextOptions)(nil), RunAsUser:(*int64)(nil), RunAsGroup:(*int64)(nil), RunAsNonRoot:(*bool)(nil), ReadOnlyRootFilesystem:(*bool)(nil), AllowPrivilegeEscalation:(*bool)(0xc000000000), ProcMount:(*core.ProcMountType)(0xc000000000), SeccompProfile:(*core.SeccompProfile)(nil)}: cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN',
      ],
      [
        'FieldValueInvalid',
        `${SPEC}.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight`,
        'Invalid value: 0: must be in the range 1-100',
      ],
      [
        'FieldValueInvalid',
        `${SPEC}.topologySpreadConstraints[0].minDomains`,
        'Invalid value: 2: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway',
      ],
    ]);
    expect((await ts.api.get(`${DEPLOYMENTS}/scheduling`)).status).toBe(404);
  });
});
