// Pins the pod template's securityContext, affinity, topologySpreadConstraints and downwardAPI volume rules to 1.26's texts, paths and order.
import { fieldErrorText } from '../../apimachinery/field/errors';
import type { ApiObject } from '../../apimachinery/meta/types';
import { applyDeploymentDefaults } from '../apps/v1/defaults';
import { validateDeployment } from '../apps/validation';
import { setPath } from './testing/json-path';

type Mutation = (d: ApiObject) => void;

function aDeployment(mutate: Mutation): ApiObject {
  const d: ApiObject = {
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] } },
    },
  };
  mutate(d);
  applyDeploymentDefaults(d); // as the server does: defaults, then validation
  return d;
}

const texts = (mutate: Mutation): string[] => validateDeployment(aDeployment(mutate)).map(fieldErrorText);
const set =
  (path: string, value: unknown): Mutation =>
  (d) =>
    setPath(d, path, value);
const annotate =
  (annotations: Record<string, string>): Mutation =>
  (d) =>
    setPath(d, 'spec.template.metadata.annotations', annotations);

const SPEC = 'spec.template.spec';
const SC = `${SPEC}.containers.0.securityContext`;
const SC_PATH = 'spec.template.spec.containers[0].securityContext';
const NAME_EMPTY = 'name part must be non-empty';
const NAME_FORMAT =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const DNS_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const ID_RANGE = 'must be between 0 and 2147483647, inclusive';
const ptr = (type: string, set: boolean): string => `(*${type})(${set ? '0xc000000000' : 'nil'})`;

describe('container securityContext', () => {
  it('accepts a restrictive, valid securityContext', () => {
    expect(
      texts(
        set(SC, {
          capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] },
          privileged: false,
          allowPrivilegeEscalation: false,
          runAsUser: 1000,
          runAsGroup: 1000,
          runAsNonRoot: true,
          readOnlyRootFilesystem: true,
          procMount: 'Default',
          seLinuxOptions: { level: 's0:c123,c456' },
          seccompProfile: { type: 'Localhost', localhostProfile: 'profiles/audit.json' },
          windowsOptions: { runAsUserName: 'CONTOSO\\svc-web', gmsaCredentialSpecName: 'gmsa-web' },
        }),
      ),
    ).toEqual([]);
  });

  it.each<[string, Mutation, string[]]>([
    ['runAsUser below 0', set(`${SC}.runAsUser`, -1), [`${SC_PATH}.runAsUser: Invalid value: -1: ${ID_RANGE}`]],
    [
      'runAsGroup above int32',
      set(`${SC}.runAsGroup`, 2 ** 31),
      [`${SC_PATH}.runAsGroup: Invalid value: 2147483648: ${ID_RANGE}`],
    ],
    [
      'unknown procMount',
      set(`${SC}.procMount`, 'Masked'),
      [`${SC_PATH}.procMount: Unsupported value: "Masked": supported values: "Default", "Unmasked"`],
    ],
    [
      'seccomp without type',
      set(`${SC}.seccompProfile`, {}),
      [`${SC_PATH}.seccompProfile.type: Required value: type is required when seccompProfile is set`],
    ],
    [
      'unknown seccomp type',
      set(`${SC}.seccompProfile`, { type: 'Default' }),
      [
        `${SC_PATH}.seccompProfile.type: Unsupported value: "Default": supported values: "Localhost", "RuntimeDefault", "Unconfined"`,
      ],
    ],
    [
      'Localhost seccomp without profile',
      set(`${SC}.seccompProfile`, { type: 'Localhost' }),
      [`${SC_PATH}.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost`],
    ],
    [
      'Localhost seccomp profile escaping its directory',
      set(`${SC}.seccompProfile`, { type: 'Localhost', localhostProfile: '/etc/../x.json' }),
      [
        `${SC_PATH}.seccompProfile.localhostProfile: Invalid value: "/etc/../x.json": must be a relative path`,
        `${SC_PATH}.seccompProfile.localhostProfile: Invalid value: "/etc/../x.json": must not contain '..'`,
      ],
    ],
    [
      'localhostProfile with another seccomp type',
      set(`${SC}.seccompProfile`, { type: 'RuntimeDefault', localhostProfile: 'x.json' }),
      [
        `${SC_PATH}.seccompProfile.localhostProfile: Invalid value: core.SeccompProfile{Type:"RuntimeDefault", LocalhostProfile:(*string)(0xc000000000)}: can only be set when seccomp type is Localhost`,
      ],
    ],
    [
      'privileged without privilege escalation',
      set(SC, { privileged: true, allowPrivilegeEscalation: false }),
      [
        `${SC_PATH}: Invalid value: core.SecurityContext{Capabilities:${ptr('core.Capabilities', false)}, Privileged:${ptr('bool', true)}, SELinuxOptions:${ptr('core.SELinuxOptions', false)}, WindowsOptions:${ptr('core.WindowsSecurityContextOptions', false)}, RunAsUser:${ptr('int64', false)}, RunAsGroup:${ptr('int64', false)}, RunAsNonRoot:${ptr('bool', false)}, ReadOnlyRootFilesystem:${ptr('bool', false)}, AllowPrivilegeEscalation:${ptr('bool', true)}, ProcMount:${ptr('core.ProcMountType', false)}, SeccompProfile:${ptr('core.SeccompProfile', false)}}: cannot set \`allowPrivilegeEscalation\` to false and \`privileged\` to true`,
      ],
    ],
    [
      'CAP_SYS_ADMIN without privilege escalation',
      set(SC, { capabilities: { add: ['CAP_SYS_ADMIN'] }, allowPrivilegeEscalation: false }),
      [
        `${SC_PATH}: Invalid value: core.SecurityContext{Capabilities:${ptr('core.Capabilities', true)}, Privileged:${ptr('bool', false)}, SELinuxOptions:${ptr('core.SELinuxOptions', false)}, WindowsOptions:${ptr('core.WindowsSecurityContextOptions', false)}, RunAsUser:${ptr('int64', false)}, RunAsGroup:${ptr('int64', false)}, RunAsNonRoot:${ptr('bool', false)}, ReadOnlyRootFilesystem:${ptr('bool', false)}, AllowPrivilegeEscalation:${ptr('bool', true)}, ProcMount:${ptr('core.ProcMountType', false)}, SeccompProfile:${ptr('core.SeccompProfile', false)}}: cannot set \`allowPrivilegeEscalation\` to false and \`capabilities.Add\` CAP_SYS_ADMIN`,
      ],
    ],
    [
      'privileged with escalation allowed',
      set(SC, { privileged: true, allowPrivilegeEscalation: true, capabilities: { add: ['CAP_SYS_ADMIN'] } }),
      [],
    ],
    [
      'gmsaCredentialSpecName not a DNS subdomain',
      set(`${SC}.windowsOptions`, { gmsaCredentialSpecName: 'Web' }),
      [
        `${SC_PATH}.windowsOptions.gmsaCredentialSpecName: Invalid value: "Web": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    ],
    [
      'empty gmsaCredentialSpec',
      set(`${SC}.windowsOptions`, { gmsaCredentialSpec: '' }),
      [`${SC_PATH}.windowsOptions.gmsaCredentialSpec: Invalid value: "": gmsaCredentialSpec cannot be an empty string`],
    ],
    [
      'gmsaCredentialSpec over 64 KiB',
      set(`${SC}.windowsOptions`, { gmsaCredentialSpec: 'x'.repeat(64 * 1024 + 1) }),
      [
        `${SC_PATH}.windowsOptions.gmsaCredentialSpec: Invalid value: "${'x'.repeat(64 * 1024 + 1)}": gmsaCredentialSpec size must be under 64 KiB`,
      ],
    ],
    [
      'empty runAsUserName',
      set(`${SC}.windowsOptions.runAsUserName`, ''),
      [`${SC_PATH}.windowsOptions.runAsUserName: Invalid value: "": runAsUserName cannot be an empty string`],
    ],
    [
      'runAsUserName with a control character',
      set(`${SC}.windowsOptions.runAsUserName`, 'a\tb'),
      [
        `${SC_PATH}.windowsOptions.runAsUserName: Invalid value: "a\\tb": runAsUserName cannot contain control characters`,
      ],
    ],
    [
      'runAsUserName with two backslashes',
      set(`${SC}.windowsOptions.runAsUserName`, 'a\\b\\c'),
      [
        `${SC_PATH}.windowsOptions.runAsUserName: Invalid value: "a\\\\b\\\\c": runAsUserName cannot contain more than one backslash`,
      ],
    ],
    [
      'runAsUserName with a bad domain and an empty user',
      set(`${SC}.windowsOptions.runAsUserName`, '.bad domain\\'),
      [
        `${SC_PATH}.windowsOptions.runAsUserName: Invalid value: ".bad domain\\\\": runAsUserName's Domain doesn't match the NetBios nor the DNS format`,
        `${SC_PATH}.windowsOptions.runAsUserName: Invalid value: ".bad domain\\\\": runAsUserName's User cannot be empty`,
      ],
    ],
    [
      'runAsUserName user too long',
      set(`${SC}.windowsOptions.runAsUserName`, 'u'.repeat(105)),
      [
        `${SC_PATH}.windowsOptions.runAsUserName: Invalid value: "${'u'.repeat(105)}": runAsUserName's User length must not be longer than 104 characters`,
      ],
    ],
    [
      'runAsUserName domain too long',
      set(`${SC}.windowsOptions.runAsUserName`, `${'d'.repeat(256)}\\u`),
      [
        `${SC_PATH}.windowsOptions.runAsUserName: Invalid value: "${'d'.repeat(256)}\\\\u": runAsUserName's Domain length must be under 256 characters`,
        `${SC_PATH}.windowsOptions.runAsUserName: Invalid value: "${'d'.repeat(256)}\\\\u": runAsUserName's Domain doesn't match the NetBios nor the DNS format`,
      ],
    ],
    [
      'runAsUserName user of dots and forbidden characters',
      set(`${SC}.windowsOptions.runAsUserName`, '..'),
      [
        `${SC_PATH}.windowsOptions.runAsUserName: Invalid value: "..": runAsUserName's User cannot contain only periods or spaces`,
      ],
    ],
    [
      'runAsUserName user with a forbidden character',
      set(`${SC}.windowsOptions.runAsUserName`, 'web@corp'),
      [
        `${SC_PATH}.windowsOptions.runAsUserName: Invalid value: "web@corp": runAsUserName's User cannot contain the following characters: "/\\:;|=,+*?<>@[]`,
      ],
    ],
    [
      'pod-level seccomp type',
      set(`${SPEC}.securityContext.seccompProfile`, { type: 'x' }),
      [
        `${SPEC}.securityContext.seccompProfile.type: Unsupported value: "x": supported values: "Localhost", "RuntimeDefault", "Unconfined"`,
      ],
    ],
    [
      'pod-level runAsUserName',
      set(`${SPEC}.securityContext.windowsOptions`, { runAsUserName: '' }),
      [
        `${SPEC}.securityContext.windowsOptions.runAsUserName: Invalid value: "": runAsUserName cannot be an empty string`,
      ],
    ],
    [
      'wrongly typed capabilities',
      set(`${SC}.capabilities`, { add: 'NET_ADMIN' }),
      [`${SC_PATH}.capabilities.add: Invalid value: "NET_ADMIN": must be a list`],
    ],
  ])('%s', (_name, mutate, expected) => {
    expect(texts(mutate)).toEqual(expected);
  });
});

describe('pod-specific annotations (mirror pod, deletion cost, seccomp, AppArmor)', () => {
  it.each<[string, Record<string, string>, string[]]>([
    [
      'valid profiles',
      {
        'seccomp.security.alpha.kubernetes.io/pod': 'runtime/default',
        'container.seccomp.security.alpha.kubernetes.io/web': 'localhost/p.json',
        'container.apparmor.security.beta.kubernetes.io/web': 'localhost/k8s-web',
      },
      [],
    ],
    [
      'seccomp pod profile',
      { 'seccomp.security.alpha.kubernetes.io/pod': 'default' },
      [
        'spec.template.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: "default": must be a valid seccomp profile',
      ],
    ],
    [
      'seccomp container localhost profile going up',
      { 'container.seccomp.security.alpha.kubernetes.io/web': 'localhost/../p' },
      [
        'spec.template.annotations.container.seccomp.security.alpha.kubernetes.io/web: Invalid value: "../p": must not contain \'..\'',
      ],
    ],
    [
      'AppArmor for an unknown container with a bad profile',
      { 'container.apparmor.security.beta.kubernetes.io/db': 'docker-default' },
      [
        'spec.template.annotations[container.apparmor.security.beta.kubernetes.io/db]: Invalid value: "db": container not found',
        'spec.template.annotations[container.apparmor.security.beta.kubernetes.io/db]: Invalid value: "docker-default": invalid AppArmor profile name: "docker-default"',
      ],
    ],
    ['deletion cost', { 'controller.kubernetes.io/pod-deletion-cost': '-007' }, []],
    [
      'deletion cost with a plus sign',
      { 'controller.kubernetes.io/pod-deletion-cost': '+5' },
      [
        'spec.template.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "+5": must be a 32bit integer',
      ],
    ],
    [
      'deletion cost with a leading zero',
      { 'controller.kubernetes.io/pod-deletion-cost': '05' },
      [
        'spec.template.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "05": must be a 32bit integer',
      ],
    ],
    [
      'deletion cost beyond int32',
      { 'controller.kubernetes.io/pod-deletion-cost': '2147483648' },
      [
        'spec.template.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "2147483648": must be a 32bit integer',
      ],
    ],
    [
      'mirror pod annotation without nodeName',
      { 'kubernetes.io/config.mirror': 'abc' },
      [
        'spec.template.annotations[kubernetes.io/config.mirror]: Invalid value: "abc": must set spec.nodeName if mirror pod annotation is set',
      ],
    ],
  ])('%s', (_name, annotations, expected) => {
    expect(texts(annotate(annotations))).toEqual(expected);
  });
});

const NA = `${SPEC}.affinity.nodeAffinity`;
const NA_PATH = 'spec.template.spec.affinity.nodeAffinity';
const TERMS = `${NA_PATH}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`;
const nodeTerm = (term: unknown): Mutation =>
  set(`${NA}.requiredDuringSchedulingIgnoredDuringExecution`, { nodeSelectorTerms: [term] });
const PA_PATH = 'spec.template.spec.affinity.podAffinity';
const ANTI_PATH = 'spec.template.spec.affinity.podAntiAffinity';

describe('seccomp annotations against seccompProfile fields', () => {
  it.each<[string, Record<string, string>, Record<string, unknown>, string[]]>([
    [
      'pod: Unconfined field, runtime/default annotation',
      { 'seccomp.security.alpha.kubernetes.io/pod': 'runtime/default' },
      { pod: { type: 'Unconfined' } },
      [`${SPEC}.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match`],
    ],
    [
      'pod: RuntimeDefault field, localhost annotation',
      { 'seccomp.security.alpha.kubernetes.io/pod': 'localhost/x' },
      { pod: { type: 'RuntimeDefault' } },
      [`${SPEC}.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match`],
    ],
    [
      'container: other localhost profile',
      { 'container.seccomp.security.alpha.kubernetes.io/web': 'localhost/b.json' },
      { ctr: { type: 'Localhost', localhostProfile: 'a.json' } },
      [`${SC_PATH}.seccompProfile.localhostProfile: Forbidden: seccomp profile in annotation and field must match`],
    ],
    [
      'container: Localhost field, unconfined annotation',
      { 'container.seccomp.security.alpha.kubernetes.io/web': 'unconfined' },
      { ctr: { type: 'Localhost', localhostProfile: 'a.json' } },
      [`${SC_PATH}.seccompProfile.type: Forbidden: seccomp type in annotation and field must match`],
    ],
    [
      'matching pod and container annotations',
      {
        'seccomp.security.alpha.kubernetes.io/pod': 'docker/default',
        'container.seccomp.security.alpha.kubernetes.io/web': 'localhost/a.json',
      },
      { pod: { type: 'RuntimeDefault' }, ctr: { type: 'Localhost', localhostProfile: 'a.json' } },
      [],
    ],
    [
      'annotation for another container',
      { 'container.seccomp.security.alpha.kubernetes.io/db': 'unconfined' },
      { ctr: { type: 'RuntimeDefault' } },
      [],
    ],
  ])('%s', (_name, annotations, profiles, expected) => {
    const mutate: Mutation = (d) => {
      annotate(annotations)(d);
      if (profiles.pod) setPath(d, `${SPEC}.securityContext.seccompProfile`, profiles.pod);
      if (profiles.ctr) setPath(d, `${SC}.seccompProfile`, profiles.ctr);
    };
    expect(texts(mutate)).toEqual(expected);
  });
});

describe('affinity', () => {
  it('accepts realistic node, pod and anti-affinity', () => {
    expect(
      texts(
        set(`${SPEC}.affinity`, {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                {
                  matchExpressions: [
                    { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] },
                    { key: 'gpu', operator: 'DoesNotExist' },
                    { key: 'cores', operator: 'Gt', values: ['4'] },
                  ],
                  matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['node-1'] }],
                },
              ],
            },
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 100, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] } },
            ],
          },
          podAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              {
                labelSelector: { matchLabels: { app: 'cache' } },
                topologyKey: 'kubernetes.io/hostname',
                namespaces: ['cache'],
              },
            ],
          },
          podAntiAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              {
                weight: 1,
                podAffinityTerm: {
                  labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] },
                  namespaceSelector: {},
                  topologyKey: 'topology.kubernetes.io/zone',
                },
              },
            ],
          },
        }),
      ),
    ).toEqual([]);
  });

  it.each<[string, Mutation, string[]]>([
    [
      'no node selector terms',
      set(`${NA}.requiredDuringSchedulingIgnoredDuringExecution`, {}),
      [`${TERMS}: Required value: must have at least one node selector term`],
    ],
    [
      'In without values',
      nodeTerm({ matchExpressions: [{ key: 'zone', operator: 'In' }] }),
      [
        `${TERMS}[0].matchExpressions[0].values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'`,
      ],
    ],
    [
      'Exists with values',
      nodeTerm({ matchExpressions: [{ key: 'zone', operator: 'Exists', values: ['a'] }] }),
      [
        `${TERMS}[0].matchExpressions[0].values: Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`,
      ],
    ],
    [
      'Gt with two values',
      nodeTerm({ matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['1', '2'] }] }),
      [
        `${TERMS}[0].matchExpressions[0].values: Required value: must be specified single value when \`operator\` is 'Lt' or 'Gt'`,
      ],
    ],
    [
      'unknown operator and empty key',
      nodeTerm({ matchExpressions: [{ key: '', operator: 'Equals', values: ['a'] }] }),
      [
        `${TERMS}[0].matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator`,
        `${TERMS}[0].matchExpressions[0].key: Invalid value: "": ${NAME_EMPTY}`,
        `${TERMS}[0].matchExpressions[0].key: Invalid value: "": ${NAME_FORMAT}`,
      ],
    ],
    [
      'label value not checked (1.26)',
      nodeTerm({ matchExpressions: [{ key: 'zone', operator: 'In', values: ['not a label value!'] }] }),
      [],
    ],
    [
      'field selector on another field with Exists',
      nodeTerm({ matchFields: [{ key: 'spec.nodeName', operator: 'Exists' }] }),
      [
        `${TERMS}[0].matchFields[0].operator: Invalid value: "Exists": not a valid selector operator`,
        `${TERMS}[0].matchFields[0].key: Invalid value: "spec.nodeName": not a valid field selector key`,
      ],
    ],
    [
      'field selector with two names',
      nodeTerm({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['a', 'b'] }] }),
      [
        `${TERMS}[0].matchFields[0].values: Required value: must be only one value when \`operator\` is 'In' or 'NotIn' for node field selector`,
      ],
    ],
    [
      'field selector with an invalid node name',
      nodeTerm({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['Node_1'] }] }),
      [
        `${TERMS}[0].matchFields[0].values[0]: Invalid value: "Node_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    ],
    [
      'preferred node term weights',
      set(`${NA}.preferredDuringSchedulingIgnoredDuringExecution`, [
        { weight: 0, preference: {} },
        { weight: 101, preference: {} },
      ]),
      [
        `${NA_PATH}.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100`,
        `${NA_PATH}.preferredDuringSchedulingIgnoredDuringExecution[1].weight: Invalid value: 101: must be in the range 1-100`,
      ],
    ],
    [
      'pod affinity term without topologyKey',
      set(`${SPEC}.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution`, [
        { labelSelector: { matchLabels: { app: 'cache' } } },
      ]),
      [
        `${PA_PATH}.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty`,
        `${PA_PATH}.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": ${NAME_EMPTY}`,
        `${PA_PATH}.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": ${NAME_FORMAT}`,
      ],
    ],
    [
      'pod affinity term with bad selectors and namespace',
      set(`${SPEC}.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution`, [
        {
          labelSelector: { matchExpressions: [{ key: 'app', operator: 'In' }] },
          namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'Exists', values: ['a'] }] },
          namespaces: ['Team_A'],
          topologyKey: 'zone',
        },
      ]),
      [
        `${PA_PATH}.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'`,
        `${PA_PATH}.requiredDuringSchedulingIgnoredDuringExecution[0].namespaceSelector.matchExpressions[0].values: Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`,
        `${PA_PATH}.requiredDuringSchedulingIgnoredDuringExecution[0].namespace: Invalid value: "Team_A": ${DNS_LABEL}`,
      ],
    ],
    [
      'weighted anti-affinity term',
      set(`${SPEC}.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution`, [
        { weight: 200, podAffinityTerm: { topologyKey: 'Bad Key' } },
      ]),
      [
        `${ANTI_PATH}.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 200: must be in the range 1-100`,
        `${ANTI_PATH}.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey: Invalid value: "Bad Key": ${NAME_FORMAT}`,
      ],
    ],
  ])('%s', (_name, mutate, expected) => {
    expect(texts(mutate)).toEqual(expected);
  });
});

const TSC = `${SPEC}.topologySpreadConstraints`;
const TSC_PATH = 'spec.template.spec.topologySpreadConstraints';
const zone = {
  maxSkew: 1,
  topologyKey: 'topology.kubernetes.io/zone',
  whenUnsatisfiable: 'DoNotSchedule',
  labelSelector: { matchLabels: { app: 'web' } },
};

describe('topologySpreadConstraints', () => {
  it('accepts realistic constraints', () => {
    expect(
      texts(
        set(TSC, [
          {
            ...zone,
            minDomains: 3,
            nodeAffinityPolicy: 'Honor',
            nodeTaintsPolicy: 'Ignore',
            matchLabelKeys: ['pod-template-hash'],
          },
          { ...zone, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway' },
        ]),
      ),
    ).toEqual([]);
  });

  it.each<[string, unknown[], string[]]>([
    ['maxSkew 0', [{ ...zone, maxSkew: 0 }], [`${TSC_PATH}[0].maxSkew: Invalid value: 0: must be greater than zero`]],
    [
      'maxSkew missing',
      [{ ...zone, maxSkew: undefined }],
      [`${TSC_PATH}[0].maxSkew: Invalid value: 0: must be greater than zero`],
    ],
    [
      'empty topologyKey',
      [{ ...zone, topologyKey: '' }],
      [`${TSC_PATH}[0].topologyKey: Required value: can not be empty`],
    ],
    [
      'unknown whenUnsatisfiable',
      [{ ...zone, whenUnsatisfiable: 'Wait' }],
      [
        `${TSC_PATH}[0].whenUnsatisfiable: Unsupported value: "Wait": supported values: "DoNotSchedule", "ScheduleAnyway"`,
      ],
    ],
    [
      'missing whenUnsatisfiable',
      [{ ...zone, whenUnsatisfiable: undefined }],
      [`${TSC_PATH}[0].whenUnsatisfiable: Unsupported value: "": supported values: "DoNotSchedule", "ScheduleAnyway"`],
    ],
    [
      'repeated {topologyKey, whenUnsatisfiable} (each one with a later twin)',
      [zone, { ...zone, maxSkew: 2 }, { ...zone, maxSkew: 3 }],
      [
        `${TSC_PATH}[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{topology.kubernetes.io/zone, DoNotSchedule}"`,
        `${TSC_PATH}[1].{topologyKey, whenUnsatisfiable}: Duplicate value: "{topology.kubernetes.io/zone, DoNotSchedule}"`,
      ],
    ],
    [
      'minDomains 0',
      [{ ...zone, minDomains: 0 }],
      [`${TSC_PATH}[0].minDomains: Invalid value: 0: must be greater than zero`],
    ],
    [
      'minDomains with ScheduleAnyway',
      [{ ...zone, whenUnsatisfiable: 'ScheduleAnyway', minDomains: 2 }],
      [
        `${TSC_PATH}[0].minDomains: Invalid value: 2: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway`,
      ],
    ],
    [
      'node inclusion policies',
      [{ ...zone, nodeAffinityPolicy: 'honor', nodeTaintsPolicy: 'Always' }],
      [
        `${TSC_PATH}[0].nodeAffinityPolicy: Unsupported value: "honor": supported values: "Honor", "Ignore"`,
        `${TSC_PATH}[0].nodeTaintsPolicy: Unsupported value: "Always": supported values: "Honor", "Ignore"`,
      ],
    ],
    [
      'matchLabelKeys overlapping the selector or not label names',
      [
        {
          ...zone,
          labelSelector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'Exists' }] },
          matchLabelKeys: ['tier', 'app', 'bad key'],
        },
      ],
      [
        `${TSC_PATH}[0].matchLabelKeys[0]: Invalid value: "tier": exists in both matchLabelKeys and labelSelector`,
        `${TSC_PATH}[0].matchLabelKeys[1]: Invalid value: "app": exists in both matchLabelKeys and labelSelector`,
        `${TSC_PATH}[0].matchLabelKeys[2]: Invalid value: "bad key": ${NAME_FORMAT}`,
      ],
    ],
    [
      'matchLabelKeys without a selector (allowed in 1.26)',
      [{ ...zone, labelSelector: undefined, matchLabelKeys: ['app'] }],
      [],
    ],
    [
      'selector values not checked (1.26)',
      [{ ...zone, labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['not valid!'] }] } }],
      [],
    ],
    [
      'errors in constraint order',
      [
        { ...zone, maxSkew: 0, minDomains: -1 },
        { ...zone, topologyKey: '' },
      ],
      [
        `${TSC_PATH}[0].maxSkew: Invalid value: 0: must be greater than zero`,
        `${TSC_PATH}[0].minDomains: Invalid value: -1: must be greater than zero`,
        `${TSC_PATH}[1].topologyKey: Required value: can not be empty`,
      ],
    ],
  ])('%s', (_name, constraints, expected) => {
    expect(texts(set(TSC, constraints))).toEqual(expected);
  });
});

const VOL = 'spec.template.spec.volumes[0].downwardAPI';
const downward = (items: unknown[]): Mutation => set(`${SPEC}.volumes`, [{ name: 'podinfo', downwardAPI: { items } }]);

describe('downwardAPI volume items', () => {
  it('accepts realistic items', () => {
    expect(
      texts(
        downward([
          { path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } },
          { path: 'team', fieldRef: { fieldPath: "metadata.annotations['example.com/team']" }, mode: 0o444 },
          { path: 'limits/cpu', resourceFieldRef: { containerName: 'web', resource: 'limits.cpu', divisor: '1m' } },
          { path: 'hp', resourceFieldRef: { containerName: 'web', resource: 'requests.hugepages-2Mi' } },
        ]),
      ),
    ).toEqual([]);
  });

  it.each<[string, unknown[], string[]]>([
    ['no path', [{ fieldRef: { fieldPath: 'metadata.name' } }], [`${VOL}.path: Required value`]],
    [
      'absolute path',
      [{ path: '/etc/name', fieldRef: { fieldPath: 'metadata.name' } }],
      [`${VOL}.path: Invalid value: "/etc/name": must be a relative path`],
    ],
    [
      'path going up',
      [{ path: 'a/../../b', fieldRef: { fieldPath: 'metadata.name' } }],
      [`${VOL}.path: Invalid value: "a/../../b": must not contain '..'`],
    ],
    [
      'path starting with ..',
      [{ path: '..data', fieldRef: { fieldPath: 'metadata.name' } }],
      [`${VOL}.path: Invalid value: "..data": must not start with '..'`],
    ],
    [
      'neither reference',
      [{ path: 'x' }],
      [`${VOL}: Required value: one of fieldRef and resourceFieldRef is required`],
    ],
    [
      'both references',
      [
        {
          path: 'x',
          fieldRef: { fieldPath: 'metadata.name' },
          resourceFieldRef: { containerName: 'web', resource: 'limits.cpu' },
        },
      ],
      [`${VOL}: Invalid value: "resource": fieldRef and resourceFieldRef can not be specified simultaneously`],
    ],
    [
      'a field the volume cannot show',
      [{ path: 'x', fieldRef: { fieldPath: 'status.podIP' } }],
      [
        `${VOL}.fieldRef.fieldPath: Unsupported value: "status.podIP": supported values: "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"`,
      ],
    ],
    [
      'a field label conversion rejects',
      [{ path: 'x', fieldRef: { fieldPath: 'spec.nothing' } }],
      [
        `${VOL}.fieldRef.fieldPath: Invalid value: "spec.nothing": error converting fieldPath: field label not supported: spec.nothing`,
      ],
    ],
    [
      'resourceFieldRef without containerName',
      [{ path: 'x', resourceFieldRef: { resource: 'limits.gpu' } }],
      [`${VOL}.resourceFieldRef.containerName: Required value`],
    ],
    [
      'resourceFieldRef with an unknown resource',
      [{ path: 'x', resourceFieldRef: { containerName: 'web', resource: 'limits.gpu' } }],
      [
        `${VOL}.resourceFieldRef.resource: Unsupported value: "limits.gpu": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"`,
      ],
    ],
    [
      'mode above 0777',
      [{ path: 'x', fieldRef: { fieldPath: 'metadata.name' }, mode: 0o1000 }],
      [`${VOL}.mode: Invalid value: 512: must be a number between 0 and 0777 (octal), both inclusive`],
    ],
    [
      'negative mode',
      [{ path: 'x', fieldRef: { fieldPath: 'metadata.name' }, mode: -1 }],
      [`${VOL}.mode: Invalid value: -1: must be a number between 0 and 0777 (octal), both inclusive`],
    ],
  ])('%s', (_name, items, expected) => {
    expect(texts(downward(items))).toEqual(expected);
  });
});
