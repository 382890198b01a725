// Pins the pod template's securityContext, pod annotations and seccomp rules to 1.26's texts, paths and order.
import { setPath } from './testing/json-path';
import { texts, set, annotate, SPEC, SC, SC_PATH, ID_RANGE, ptr } from './testing/deployment-mutations';
import type { Mutation } from './testing/deployment-mutations';

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
