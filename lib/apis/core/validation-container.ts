// Container validation (validateContainers/validateInitContainers and their parts) with 1.26's texts.
import type { FieldError } from '../../apimachinery/field/errors';
import {
  duplicate,
  forbiddenField,
  invalidValue,
  notFoundField,
  notSupported,
  required,
} from '../../apimachinery/field/errors';
import type { FieldPath } from '../../apimachinery/field/path';
import { isPlainObject } from '../../apimachinery/meta/types';
import { isDNS1123Label } from '../../apimachinery/validation/names';
import type { JsonObject, Read } from '../../apimachinery/validation/untrusted-json';
import {
  WRONG_TYPE,
  isAbsent,
  readInt32,
  readObjectList,
  readString,
} from '../../apimachinery/validation/untrusted-json';
import { validateEnv, validateEnvFrom } from './validation-env';
import { validateLocalDescendingPath } from './validation-paths';
import {
  isValidPortName,
  isValidPortNum,
  requireSuccessThresholdOne,
  validateLifecycle,
  validateProbe,
} from './validation-probe';
import { validateResourceRequirements } from './validation-resources';
import { validateSecurityContext } from './validation-security-context';

export const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
export const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];
const PORT_PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const INIT_CONTAINER_FORBIDDEN = 'may not be set for init containers';

/** A string enum field: Required when empty, NotSupported (list in the order given) when unknown. */
export function validateEnum(
  errs: FieldError[],
  path: FieldPath,
  value: unknown,
  supported: readonly string[],
): Read<string> {
  const s = readString(errs, path, value);
  if (s === WRONG_TYPE) return s;
  if (!s) errs.push(required(path));
  else if (!supported.includes(s)) errs.push(notSupported(path, s, supported));
  return s;
}

function validatePorts(errs: FieldError[], value: unknown, path: FieldPath): void {
  const ports = readObjectList(errs, path, value);
  if (!Array.isArray(ports)) return;
  const names = new Set<string>();
  ports.forEach((port, i) => {
    if (port === WRONG_TYPE || port === undefined) return;
    const p = path.index(i);
    const name = readString(errs, p.child('name'), port.name);
    if (typeof name === 'string' && name !== '') {
      const msgs = isValidPortName(name);
      if (msgs.length > 0) for (const msg of msgs) errs.push(invalidValue(p.child('name'), name, msg));
      else if (names.has(name)) errs.push(duplicate(p.child('name'), name));
      else names.add(name);
    }
    const containerPort = readInt32(errs, p.child('containerPort'), port.containerPort);
    if (containerPort === undefined || containerPort === 0) errs.push(required(p.child('containerPort')));
    else if (containerPort !== WRONG_TYPE)
      for (const msg of isValidPortNum(containerPort))
        errs.push(invalidValue(p.child('containerPort'), containerPort, msg));
    const hostPort = readInt32(errs, p.child('hostPort'), port.hostPort);
    if (typeof hostPort === 'number' && hostPort !== 0)
      for (const msg of isValidPortNum(hostPort)) errs.push(invalidValue(p.child('hostPort'), hostPort, msg));
    validateEnum(errs, p.child('protocol'), port.protocol, PORT_PROTOCOLS);
  });
}

function validateVolumeMounts(errs: FieldError[], value: unknown, path: FieldPath, volumes: ReadonlySet<string>): void {
  const mounts = readObjectList(errs, path, value);
  if (!Array.isArray(mounts)) return;
  const mountPoints = new Set<string>();
  mounts.forEach((mnt, i) => {
    if (mnt === WRONG_TYPE) return;
    const p = path.index(i);
    const name = readString(errs, p.child('name'), mnt?.name);
    const mountPath = readString(errs, p.child('mountPath'), mnt?.mountPath);
    if (name !== WRONG_TYPE) {
      if (!name) errs.push(required(p.child('name')));
      if (!volumes.has(name ?? '')) errs.push(notFoundField(p.child('name'), name ?? ''));
    }
    if (mountPath !== WRONG_TYPE) {
      if (!mountPath) errs.push(required(p.child('mountPath')));
      if (mountPoints.has(mountPath ?? ''))
        errs.push(invalidValue(p.child('mountPath'), mountPath ?? '', 'must be unique'));
      mountPoints.add(mountPath ?? '');
    }
    const subPath = readString(errs, p.child('subPath'), mnt?.subPath);
    if (typeof subPath === 'string' && subPath !== '')
      validateLocalDescendingPath(errs, subPath, path.child('subPath'));
    const subPathExpr = readString(errs, p.child('subPathExpr'), mnt?.subPathExpr);
    if (typeof subPathExpr === 'string' && subPathExpr !== '') {
      if (typeof subPath === 'string' && subPath !== '')
        errs.push(invalidValue(p.child('subPathExpr'), subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      validateLocalDescendingPath(errs, subPathExpr, path.child('subPathExpr'));
    }
  });
}

/** validateContainerCommon; returns the container's name ('' when missing, undefined when wrongly typed). */
function validateContainerCommon(
  errs: FieldError[],
  ctr: JsonObject,
  path: FieldPath,
  volumes: ReadonlySet<string>,
): string | undefined {
  const name = readString(errs, path.child('name'), ctr.name);
  if (name === undefined || name === '') errs.push(required(path.child('name')));
  else if (name !== WRONG_TYPE)
    for (const msg of isDNS1123Label(name)) errs.push(invalidValue(path.child('name'), name, msg));
  const image = readString(errs, path.child('image'), ctr.image);
  if (image === undefined || image === '') errs.push(required(path.child('image')));
  validateEnum(
    errs,
    path.child('terminationMessagePolicy'),
    ctr.terminationMessagePolicy,
    TERMINATION_MESSAGE_POLICIES,
  );
  validatePorts(errs, ctr.ports, path.child('ports'));
  validateEnv(errs, ctr.env, path.child('env'));
  validateEnvFrom(errs, ctr.envFrom, path.child('envFrom'));
  validateVolumeMounts(errs, ctr.volumeMounts, path.child('volumeMounts'), volumes);
  validateEnum(errs, path.child('imagePullPolicy'), ctr.imagePullPolicy, PULL_POLICIES);
  errs.push(...validateResourceRequirements(ctr.resources, path.child('resources')));
  validateSecurityContext(errs, ctr.securityContext, path.child('securityContext'));
  return name === WRONG_TYPE ? undefined : (name ?? '');
}

/** AccumulateUniqueHostPorts: `<hostIP>/<protocol>/<hostPort>` must not repeat. */
function checkHostPortConflicts(errs: FieldError[], containers: readonly JsonObject[], path: FieldPath): void {
  const seen = new Set<string>();
  containers.forEach((ctr, ci) => {
    const ports = Array.isArray(ctr.ports) ? ctr.ports : [];
    ports.forEach((port: unknown, pi) => {
      if (!isPlainObject(port)) return;
      const { hostPort, hostIP, protocol } = port;
      if (typeof hostPort !== 'number' || hostPort === 0) return;
      const key = `${typeof hostIP === 'string' ? hostIP : ''}/${typeof protocol === 'string' ? protocol : ''}/${hostPort}`;
      if (seen.has(key)) errs.push(duplicate(path.index(ci).child('ports').index(pi).child('hostPort'), key));
      else seen.add(key);
    });
  });
}

function presentObjects(list: Read<Read<JsonObject>[]>): JsonObject[] {
  return Array.isArray(list) ? list.filter((c): c is JsonObject => c !== undefined && c !== WRONG_TYPE) : [];
}

/** validateContainers; returns the names seen, for the init containers' uniqueness rule. */
export function validateContainers(
  errs: FieldError[],
  value: unknown,
  path: FieldPath,
  volumes: ReadonlySet<string>,
): Set<string> {
  const names = new Set<string>();
  const list = readObjectList(errs, path, value);
  if (list === WRONG_TYPE) return names;
  if (list === undefined || list.length === 0) {
    errs.push(required(path));
    return names;
  }
  list.forEach((ctr, i) => {
    if (ctr === WRONG_TYPE) return;
    const p = path.index(i);
    const name = validateContainerCommon(errs, ctr ?? {}, p, volumes);
    if (name !== undefined && names.has(name)) errs.push(duplicate(p.child('name'), name));
    else if (name !== undefined) names.add(name);
    if (!isAbsent(ctr?.lifecycle)) validateLifecycle(errs, ctr?.lifecycle, p.child('lifecycle'));
    requireSuccessThresholdOne(
      errs,
      validateProbe(errs, ctr?.livenessProbe, p.child('livenessProbe')),
      p.child('livenessProbe'),
    );
    const readiness = validateProbe(errs, ctr?.readinessProbe, p.child('readinessProbe'));
    if (readiness !== undefined && !isAbsent(readiness.terminationGracePeriodSeconds)) {
      const grace = readiness.terminationGracePeriodSeconds;
      if (typeof grace === 'number')
        errs.push(
          invalidValue(
            p.child('readinessProbe', 'terminationGracePeriodSeconds'),
            grace,
            'must not be set for readinessProbes',
          ),
        );
    }
    requireSuccessThresholdOne(
      errs,
      validateProbe(errs, ctr?.startupProbe, p.child('startupProbe')),
      p.child('startupProbe'),
    );
  });
  checkHostPortConflicts(errs, presentObjects(list), path);
  return names;
}

/** validateInitContainers: names unique across regular and init containers; probes and lifecycle forbidden. */
export function validateInitContainers(
  errs: FieldError[],
  value: unknown,
  path: FieldPath,
  volumes: ReadonlySet<string>,
  regularNames: ReadonlySet<string>,
): void {
  const list = readObjectList(errs, path, value);
  if (!Array.isArray(list)) return;
  const names = new Set(regularNames);
  list.forEach((ctr, i) => {
    if (ctr === WRONG_TYPE) return;
    const p = path.index(i);
    const name = validateContainerCommon(errs, ctr ?? {}, p, volumes);
    if (name !== undefined && names.has(name)) errs.push(duplicate(p.child('name'), name));
    else if (name) names.add(name);
    // Upstream checks each init container alone (they run one by one), so the index is always 0.
    checkHostPortConflicts(errs, [ctr ?? {}], path);
    for (const forbidden of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
      if (!isAbsent(ctr?.[forbidden])) errs.push(forbiddenField(p.child(forbidden), INIT_CONTAINER_FORBIDDEN));
    }
  });
}
