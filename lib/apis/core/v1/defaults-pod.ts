// core/v1 defaults a PodTemplateSpec gets through its owner's defaulter (SetDefaults_PodSpec, _Container, _Volume, …), 1.26.
import type { JsonObject } from '../../../apimachinery/validation/untrusted-json';
import { ensureObject, isAbsent, objectAt, objectsAt } from '../../../apimachinery/validation/untrusted-json';
import { VOLUME_SOURCE_TYPES } from '../validation-volume';
import { DEFAULT_IMAGE_TAG, imageTag } from './image-reference';

export const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30;
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';
export const TERMINATION_MESSAGE_PATH_DEFAULT = '/dev/termination-log';
/** Secret, ConfigMap, DownwardAPI and Projected volumes: 0644. */
export const VOLUME_DEFAULT_MODE = 0o644;
const SERVICE_ACCOUNT_TOKEN_EXPIRATION_SECONDS = 3600;

/** Sets `obj[key]` when it is absent, null or (for Go non-pointer fields) the zero value `zero`. */
function setDefault(obj: JsonObject, key: string, value: unknown, zero?: unknown): void {
  if (isAbsent(obj[key]) || (zero !== undefined && obj[key] === zero)) obj[key] = value;
}

function defaultFieldRef(holder: JsonObject | undefined): void {
  const fieldRef = objectAt(holder, 'fieldRef');
  if (fieldRef !== undefined) setDefault(fieldRef, 'apiVersion', 'v1', '');
}

function defaultHTTPGet(handler: JsonObject | undefined): void {
  const httpGet = objectAt(handler, 'httpGet');
  if (httpGet === undefined) return;
  setDefault(httpGet, 'path', '/', '');
  setDefault(httpGet, 'scheme', 'HTTP', '');
}

/** SetDefaults_Probe plus its handler's HTTPGetAction and GRPCAction (`service` defaults to ""). */
function defaultProbe(probe: JsonObject | undefined): void {
  if (probe === undefined) return;
  setDefault(probe, 'timeoutSeconds', 1, 0);
  setDefault(probe, 'periodSeconds', 10, 0);
  setDefault(probe, 'successThreshold', 1, 0);
  setDefault(probe, 'failureThreshold', 3, 0);
  defaultHTTPGet(probe);
  const grpc = objectAt(probe, 'grpc');
  if (grpc !== undefined) setDefault(grpc, 'service', '');
}

/** SetDefaults_Container and the generated defaults of its members. */
function defaultContainer(ctr: JsonObject): void {
  if (isAbsent(ctr.imagePullPolicy) || ctr.imagePullPolicy === '') {
    ctr.imagePullPolicy =
      imageTag(typeof ctr.image === 'string' ? ctr.image : '') === DEFAULT_IMAGE_TAG ? 'Always' : 'IfNotPresent';
  }
  setDefault(ctr, 'terminationMessagePath', TERMINATION_MESSAGE_PATH_DEFAULT, '');
  setDefault(ctr, 'terminationMessagePolicy', 'File', '');
  for (const port of objectsAt(ctr, 'ports')) setDefault(port, 'protocol', 'TCP', '');
  for (const env of objectsAt(ctr, 'env')) defaultFieldRef(objectAt(env, 'valueFrom'));
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) defaultProbe(objectAt(ctr, probe));
  const lifecycle = objectAt(ctr, 'lifecycle');
  defaultHTTPGet(objectAt(lifecycle, 'postStart'));
  defaultHTTPGet(objectAt(lifecycle, 'preStop'));
}

/** SetDefaults_Volume (no source → emptyDir) and the per-source defaults. */
function defaultVolume(volume: JsonObject): void {
  if (VOLUME_SOURCE_TYPES.every((type) => isAbsent(volume[type]))) volume.emptyDir = {};
  for (const type of ['secret', 'configMap', 'downwardAPI', 'projected']) {
    const source = objectAt(volume, type);
    if (source !== undefined) setDefault(source, 'defaultMode', VOLUME_DEFAULT_MODE);
  }
  for (const item of objectsAt(objectAt(volume, 'downwardAPI'), 'items')) defaultFieldRef(item);
  for (const projection of objectsAt(objectAt(volume, 'projected'), 'sources')) {
    for (const item of objectsAt(objectAt(projection, 'downwardAPI'), 'items')) defaultFieldRef(item);
    const token = objectAt(projection, 'serviceAccountToken');
    if (token !== undefined) setDefault(token, 'expirationSeconds', SERVICE_ACCOUNT_TOKEN_EXPIRATION_SECONDS);
  }
  const hostPath = objectAt(volume, 'hostPath');
  if (hostPath !== undefined) setDefault(hostPath, 'type', '');
  const iscsi = objectAt(volume, 'iscsi');
  if (iscsi !== undefined) setDefault(iscsi, 'iscsiInterface', 'default', '');
  const rbd = objectAt(volume, 'rbd');
  if (rbd !== undefined) {
    setDefault(rbd, 'pool', 'rbd', '');
    setDefault(rbd, 'user', 'admin', '');
    setDefault(rbd, 'keyring', '/etc/ceph/keyring', '');
  }
  const azureDisk = objectAt(volume, 'azureDisk');
  if (azureDisk !== undefined) {
    setDefault(azureDisk, 'cachingMode', 'ReadWrite');
    setDefault(azureDisk, 'fsType', 'ext4');
    setDefault(azureDisk, 'readOnly', false);
    setDefault(azureDisk, 'kind', 'Shared');
  }
  const scaleIO = objectAt(volume, 'scaleIO');
  if (scaleIO !== undefined) {
    setDefault(scaleIO, 'storageMode', 'ThinProvisioned', '');
    setDefault(scaleIO, 'fsType', 'xfs', '');
  }
}

/** With host networking every container port's hostPort defaults to its containerPort (PodSpec defaulter in 1.26). */
function defaultHostNetworkPorts(containers: readonly JsonObject[]): void {
  for (const ctr of containers) {
    for (const port of objectsAt(ctr, 'ports')) {
      if ((isAbsent(port.hostPort) || port.hostPort === 0) && typeof port.containerPort === 'number')
        port.hostPort = port.containerPort;
    }
  }
}

/** SetDefaults_PodSpec and everything the generated defaulter reaches below a PodSpec. */
export function applyPodSpecDefaults(spec: JsonObject): void {
  setDefault(spec, 'dnsPolicy', 'ClusterFirst', '');
  setDefault(spec, 'restartPolicy', 'Always', '');
  if (spec.hostNetwork === true) {
    defaultHostNetworkPorts(objectsAt(spec, 'containers'));
    defaultHostNetworkPorts(objectsAt(spec, 'initContainers'));
  }
  setDefault(spec, 'securityContext', {});
  setDefault(spec, 'terminationGracePeriodSeconds', DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS);
  setDefault(spec, 'schedulerName', DEFAULT_SCHEDULER_NAME, '');
  for (const volume of objectsAt(spec, 'volumes')) defaultVolume(volume);
  for (const list of ['initContainers', 'containers', 'ephemeralContainers'])
    for (const ctr of objectsAt(spec, list)) defaultContainer(ctr);
}

/** Defaults of a PodTemplateSpec embedded in a workload: its `spec` is created when absent (a Go struct). */
export function applyPodTemplateSpecDefaults(template: JsonObject): void {
  const spec = ensureObject(template, 'spec');
  if (spec !== undefined) applyPodSpecDefaults(spec);
}
