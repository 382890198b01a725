// Container securityContext (ValidateSecurityContext), seccomp profiles and Windows options, with
// pkg/apis/core/validation's 1.26 rules and texts.
import type { FieldError } from '../../apimachinery/field/errors';
import { goLiteral, goQuote, invalidValue, notSupported, required } from '../../apimachinery/field/errors';
import type { FieldPath } from '../../apimachinery/field/path';
import { isDNS1123Subdomain } from '../../apimachinery/validation/names';
import type { JsonObject } from '../../apimachinery/validation/untrusted-json';
import {
  WRONG_TYPE,
  goPointerText,
  isAbsent,
  readBoolean,
  readInt64,
  readObject,
  readString,
  readStringList,
  stringAt,
} from '../../apimachinery/validation/untrusted-json';
import { validateLocalDescendingPath } from './validation-paths';

const MAX_ID = 2 ** 31 - 1;
const ID_RANGE_ERROR = `must be between 0 and ${MAX_ID}, inclusive`;

/** IsValidUserID / IsValidGroupID for one optional id. */
export function validateId(errs: FieldError[], value: unknown, path: FieldPath): void {
  const id = readInt64(errs, path, value);
  if (typeof id === 'number' && (id < 0 || id > MAX_ID)) errs.push(invalidValue(path, id, ID_RANGE_ERROR));
}

const SECCOMP_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];
const PROC_MOUNT_TYPES = ['Default', 'Unmasked'];

/** Go's `%#v` of a *core.SeccompProfile (dereferenced by the field error printer). */
function seccompProfileLiteral(sp: JsonObject): string {
  return `core.SeccompProfile{Type:${goQuote(stringAt(sp, 'type'))}, LocalhostProfile:${goPointerText('string', isAbsent(sp.localhostProfile))}}`;
}

/** validateSeccompProfileField (pod and container securityContext.seccompProfile). */
export function validateSeccompProfileField(errs: FieldError[], value: unknown, path: FieldPath): void {
  const sp = readObject(errs, path, value);
  if (sp === undefined || sp === WRONG_TYPE) return;
  const type = readString(errs, path.child('type'), sp.type);
  const localhost = readString(errs, path.child('localhostProfile'), sp.localhostProfile);
  if (type === WRONG_TYPE || localhost === WRONG_TYPE) return;
  if (!type) errs.push(required(path.child('type'), 'type is required when seccompProfile is set'));
  else if (!SECCOMP_TYPES.includes(type)) errs.push(notSupported(path.child('type'), type, SECCOMP_TYPES));
  if (type === 'Localhost') {
    if (localhost === undefined)
      errs.push(required(path.child('localhostProfile'), 'must be set when seccomp type is Localhost'));
    else validateLocalDescendingPath(errs, localhost, path.child('localhostProfile'));
  } else if (localhost !== undefined) {
    errs.push(
      invalidValue(
        path.child('localhostProfile'),
        goLiteral(seccompProfileLiteral(sp)),
        'can only be set when seccomp type is Localhost',
      ),
    );
  }
}

const MAX_GMSA_SPEC_KIB = 64;
const MAX_DOMAIN_LENGTH = 256;
const MAX_USER_LENGTH = 104;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\x00-\x1f\x7f]/;
const NETBIOS_DOMAIN = /^[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}$/;
const DNS_LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?';
const DNS_DOMAIN = new RegExp(`^${DNS_LABEL}(?:\\.${DNS_LABEL})*$`);
const USER_BAD_CHARS = /["/\\:;|=,+*?<>@[\]]/;
const USER_ONLY_DOTS_SPACES = /^[. ]+$/;

/** The messages validateWindowsSecurityContextOptions gives a runAsUserName (DOMAIN\USER). */
function runAsUserNameErrors(name: string): string[] {
  if (name.length === 0) return ['runAsUserName cannot be an empty string'];
  if (CONTROL_CHARS.test(name)) return ['runAsUserName cannot contain control characters'];
  const parts = name.split('\\');
  if (parts.length > 2) return ['runAsUserName cannot contain more than one backslash'];
  const [domain, user] = parts.length === 1 ? ['', parts[0] ?? ''] : [parts[0] ?? '', parts[1] ?? ''];
  const msgs: string[] = [];
  if (Buffer.byteLength(domain) >= MAX_DOMAIN_LENGTH)
    msgs.push(`runAsUserName's Domain length must be under ${MAX_DOMAIN_LENGTH} characters`);
  if (parts.length === 2 && !(NETBIOS_DOMAIN.test(domain) || DNS_DOMAIN.test(domain)))
    msgs.push("runAsUserName's Domain doesn't match the NetBios nor the DNS format");
  const userLength = Buffer.byteLength(user);
  if (userLength === 0) msgs.push("runAsUserName's User cannot be empty");
  else if (userLength > MAX_USER_LENGTH)
    msgs.push(`runAsUserName's User length must not be longer than ${MAX_USER_LENGTH} characters`);
  if (USER_ONLY_DOTS_SPACES.test(user)) msgs.push("runAsUserName's User cannot contain only periods or spaces");
  if (USER_BAD_CHARS.test(user))
    msgs.push('runAsUserName\'s User cannot contain the following characters: "/\\:;|=,+*?<>@[]');
  return msgs;
}

/** validateWindowsSecurityContextOptions */
export function validateWindowsOptions(errs: FieldError[], value: unknown, path: FieldPath): void {
  const wo = readObject(errs, path, value);
  if (wo === undefined || wo === WRONG_TYPE) return;
  const specName = readString(errs, path.child('gmsaCredentialSpecName'), wo.gmsaCredentialSpecName);
  if (typeof specName === 'string')
    for (const msg of isDNS1123Subdomain(specName))
      errs.push(invalidValue(path.child('gmsaCredentialSpecName'), specName, msg));
  const spec = readString(errs, path.child('gmsaCredentialSpec'), wo.gmsaCredentialSpec);
  if (spec === '')
    errs.push(invalidValue(path.child('gmsaCredentialSpec'), spec, 'gmsaCredentialSpec cannot be an empty string'));
  else if (typeof spec === 'string' && Buffer.byteLength(spec) > MAX_GMSA_SPEC_KIB * 1024) {
    errs.push(
      invalidValue(
        path.child('gmsaCredentialSpec'),
        spec,
        `gmsaCredentialSpec size must be under ${MAX_GMSA_SPEC_KIB} KiB`,
      ),
    );
  }
  const userName = readString(errs, path.child('runAsUserName'), wo.runAsUserName);
  if (typeof userName === 'string')
    for (const msg of runAsUserNameErrors(userName))
      errs.push(invalidValue(path.child('runAsUserName'), userName, msg));
  readBoolean(errs, path.child('hostProcess'), wo.hostProcess);
}

/** Go's `%#v` of a *core.SecurityContext (the value of the allowPrivilegeEscalation errors). */
function securityContextLiteral(sc: JsonObject): string {
  const ptr = (type: string, key: string): string =>
    `${key[0]?.toUpperCase()}${key.slice(1)}:${goPointerText(type, isAbsent(sc[key]))}`;
  return (
    'core.SecurityContext{' +
    [
      ptr('core.Capabilities', 'capabilities'),
      ptr('bool', 'privileged'),
      `SELinuxOptions:${goPointerText('core.SELinuxOptions', isAbsent(sc.seLinuxOptions))}`,
      ptr('core.WindowsSecurityContextOptions', 'windowsOptions'),
      ptr('int64', 'runAsUser'),
      ptr('int64', 'runAsGroup'),
      ptr('bool', 'runAsNonRoot'),
      ptr('bool', 'readOnlyRootFilesystem'),
      ptr('bool', 'allowPrivilegeEscalation'),
      ptr('core.ProcMountType', 'procMount'),
      ptr('core.SeccompProfile', 'seccompProfile'),
    ].join(', ') +
    '}'
  );
}

/** Type checks of the parts 1.26 does not otherwise validate (capabilities, seLinuxOptions, the booleans). */
function readUncheckedParts(errs: FieldError[], sc: JsonObject, path: FieldPath): string[] {
  const caps = readObject(errs, path.child('capabilities'), sc.capabilities);
  let added: string[] = [];
  if (caps !== undefined && caps !== WRONG_TYPE) {
    const add = readStringList(errs, path.child('capabilities', 'add'), caps.add);
    readStringList(errs, path.child('capabilities', 'drop'), caps.drop);
    if (Array.isArray(add)) added = add;
  }
  const se = readObject(errs, path.child('seLinuxOptions'), sc.seLinuxOptions);
  if (se !== undefined && se !== WRONG_TYPE)
    for (const key of ['user', 'role', 'type', 'level']) readString(errs, path.child('seLinuxOptions', key), se[key]);
  for (const key of ['runAsNonRoot', 'readOnlyRootFilesystem']) readBoolean(errs, path.child(key), sc[key]);
  return added;
}

/**
 * ValidateSecurityContext (1.26). Privileged containers are allowed (kube-apiserver with
 * --allow-privileged=true); procMount is validated as with the ProcMountType gate on.
 */
export function validateSecurityContext(errs: FieldError[], value: unknown, path: FieldPath): void {
  const sc = readObject(errs, path, value);
  if (sc === undefined || sc === WRONG_TYPE) return;
  const privileged = readBoolean(errs, path.child('privileged'), sc.privileged);
  validateId(errs, sc.runAsUser, path.child('runAsUser'));
  validateId(errs, sc.runAsGroup, path.child('runAsGroup'));
  const procMount = readString(errs, path.child('procMount'), sc.procMount);
  if (typeof procMount === 'string' && !PROC_MOUNT_TYPES.includes(procMount))
    errs.push(notSupported(path.child('procMount'), procMount, PROC_MOUNT_TYPES));
  validateSeccompProfileField(errs, sc.seccompProfile, path.child('seccompProfile'));
  const added = readUncheckedParts(errs, sc, path);
  const escalation = readBoolean(errs, path.child('allowPrivilegeEscalation'), sc.allowPrivilegeEscalation);
  if (escalation === false) {
    const literal = goLiteral(securityContextLiteral(sc));
    if (privileged === true)
      errs.push(invalidValue(path, literal, 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
    for (const cap of added) {
      if (cap === 'CAP_SYS_ADMIN')
        errs.push(
          invalidValue(
            path,
            literal,
            'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN',
          ),
        );
    }
  }
  validateWindowsOptions(errs, sc.windowsOptions, path.child('windowsOptions'));
}
