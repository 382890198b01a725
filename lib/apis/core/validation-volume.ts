// Pod volumes (ValidateVolumes/validateVolumeSource, the common source types) with 1.26's texts.
import type { FieldError } from '../../apimachinery/field/errors';
import { duplicate, forbiddenField, invalidValue, notSupported, required } from '../../apimachinery/field/errors';
import type { FieldPath } from '../../apimachinery/field/path';
import { isDNS1123Label } from '../../apimachinery/validation/names';
import { validateContainerResourceFieldSelector, validateObjectFieldSelector } from './validation-env';
import { validateLocalNonReservedPath } from './validation-paths';
import type { JsonObject } from '../../apimachinery/validation/untrusted-json';
import {
  WRONG_TYPE,
  readBoolean,
  readInt32,
  readObject,
  readObjectList,
  readString,
} from '../../apimachinery/validation/untrusted-json';

/** Every VolumeSource member, in the order validateVolumeSource looks at them. */
export const VOLUME_SOURCE_TYPES = [
  'emptyDir',
  'hostPath',
  'gitRepo',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'secret',
  'nfs',
  'iscsi',
  'glusterfs',
  'flocker',
  'persistentVolumeClaim',
  'rbd',
  'cinder',
  'cephfs',
  'quobyte',
  'downwardAPI',
  'fc',
  'flexVolume',
  'configMap',
  'azureFile',
  'vsphereVolume',
  'photonPersistentDisk',
  'portworxVolume',
  'azureDisk',
  'storageos',
  'projected',
  'scaleIO',
  'csi',
  'ephemeral',
] as const;

const HOST_PATH_TYPES = [
  '',
  'BlockDevice',
  'CharDevice',
  'Directory',
  'DirectoryOrCreate',
  'File',
  'FileOrCreate',
  'Socket',
];
const FILE_MODE_ERROR = 'must be a number between 0 and 0777 (octal), both inclusive';
const MAX_FILE_MODE = 0o777;

function requireString(errs: FieldError[], source: JsonObject, key: string, path: FieldPath): string | undefined {
  const value = readString(errs, path.child(key), source[key]);
  if (value === WRONG_TYPE) return undefined;
  if (!value) errs.push(required(path.child(key)));
  return value ?? '';
}

function validateDefaultMode(errs: FieldError[], source: JsonObject, path: FieldPath): void {
  const mode = readInt32(errs, path.child('defaultMode'), source.defaultMode);
  if (typeof mode === 'number' && (mode < 0 || mode > MAX_FILE_MODE))
    errs.push(invalidValue(path.child('defaultMode'), mode, FILE_MODE_ERROR));
}

/** sets.List() order of validVolumeDownwardAPIFieldPathExpressions. */
const VOLUME_FIELD_PATHS = [
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
];

/** validateDownwardAPIVolumeFile for each item; upstream reports at the source's path, not the item's. */
function validateDownwardAPIItems(errs: FieldError[], value: unknown, path: FieldPath): void {
  const items = readObjectList(errs, path.child('items'), value);
  if (!Array.isArray(items)) return;
  items.forEach((item, i) => {
    if (item === WRONG_TYPE) return;
    const file = item ?? {};
    const itemPath = path.child('items').index(i); // type errors only (they are ours)
    const filePath = readString(errs, itemPath.child('path'), file.path);
    if (filePath !== WRONG_TYPE) {
      if (!filePath) errs.push(required(path.child('path')));
      validateLocalNonReservedPath(errs, filePath ?? '', path.child('path'));
    }
    const fieldRef = readObject(errs, itemPath.child('fieldRef'), file.fieldRef);
    const resourceFieldRef = readObject(errs, itemPath.child('resourceFieldRef'), file.resourceFieldRef);
    if (fieldRef === WRONG_TYPE || resourceFieldRef === WRONG_TYPE) return;
    if (fieldRef !== undefined) {
      validateObjectFieldSelector(errs, fieldRef, path.child('fieldRef'), VOLUME_FIELD_PATHS);
      if (resourceFieldRef !== undefined)
        errs.push(invalidValue(path, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
    } else if (resourceFieldRef !== undefined) {
      validateContainerResourceFieldSelector(errs, resourceFieldRef, path.child('resourceFieldRef'), true);
    } else {
      errs.push(required(path, 'one of fieldRef and resourceFieldRef is required'));
    }
    const mode = readInt32(errs, itemPath.child('mode'), file.mode);
    if (typeof mode === 'number' && (mode < 0 || mode > MAX_FILE_MODE))
      errs.push(invalidValue(path.child('mode'), mode, FILE_MODE_ERROR));
  });
}

const SOURCE_VALIDATORS: Partial<
  Record<(typeof VOLUME_SOURCE_TYPES)[number], (errs: FieldError[], source: JsonObject, path: FieldPath) => void>
> = {
  hostPath(errs, source, path) {
    const p = requireString(errs, source, 'path', path);
    if (!p) return;
    if (p.split('/').includes('..')) errs.push(invalidValue(path.child('path'), p, "must not contain '..'"));
    const type = readString(errs, path.child('type'), source.type);
    if (typeof type === 'string' && !HOST_PATH_TYPES.includes(type))
      errs.push(notSupported(path.child('type'), type, HOST_PATH_TYPES));
  },
  gcePersistentDisk(errs, source, path) {
    requireString(errs, source, 'pdName', path);
  },
  secret(errs, source, path) {
    requireString(errs, source, 'secretName', path);
    validateDefaultMode(errs, source, path);
  },
  configMap(errs, source, path) {
    requireString(errs, source, 'name', path);
    validateDefaultMode(errs, source, path);
  },
  downwardAPI(errs, source, path) {
    validateDefaultMode(errs, source, path);
    validateDownwardAPIItems(errs, source.items, path);
  },
  projected: validateDefaultMode,
  persistentVolumeClaim(errs, source, path) {
    requireString(errs, source, 'claimName', path);
  },
  nfs(errs, source, path) {
    requireString(errs, source, 'server', path);
    const p = requireString(errs, source, 'path', path);
    if (p && !p.startsWith('/')) errs.push(invalidValue(path.child('path'), p, 'must be an absolute path'));
  },
};

/** validateVolumeSource: exactly one source type, then that type's own rules. */
function validateVolumeSource(volume: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const type of VOLUME_SOURCE_TYPES) {
    const source = readObject(errs, path.child(type), volume[type]);
    if (source === undefined) continue;
    if (count > 0) {
      errs.push(forbiddenField(path.child(type), 'may not specify more than 1 volume type'));
      continue;
    }
    count++;
    if (source !== WRONG_TYPE) SOURCE_VALIDATORS[type]?.(errs, source, path.child(type));
  }
  if (count === 0) errs.push(required(path, 'must specify a volume type'));
  return errs;
}

/** ValidateVolumes; returns the names of the valid volumes (what volumeMounts may refer to). */
export function validateVolumes(errs: FieldError[], value: unknown, path: FieldPath): Set<string> {
  const names = new Set<string>();
  const volumes = readObjectList(errs, path, value);
  if (!Array.isArray(volumes)) return names;
  volumes.forEach((volume, i) => {
    if (volume === WRONG_TYPE) return;
    const p = path.index(i);
    const volumeErrs = validateVolumeSource(volume ?? {}, p);
    const name = readString(volumeErrs, p.child('name'), volume?.name);
    if (name === undefined || name === '') volumeErrs.push(required(p.child('name')));
    else if (name !== WRONG_TYPE)
      for (const msg of isDNS1123Label(name)) volumeErrs.push(invalidValue(p.child('name'), name, msg));
    if (typeof name === 'string' && names.has(name)) volumeErrs.push(duplicate(p.child('name'), name));
    if (volumeErrs.length === 0 && typeof name === 'string') names.add(name);
    errs.push(...volumeErrs);
  });
  return names;
}

const GCE_PD_READ_ONLY =
  'must be true for replicated pods > 1; GCE PD can only be mounted on multiple machines if it is read-only';

/** ValidateReadOnlyPersistentDisks: replicated pods may only mount GCE PDs read-only. */
export function validateReadOnlyPersistentDisks(value: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!Array.isArray(value)) return errs;
  value.forEach((volume: unknown, i) => {
    const ignored: FieldError[] = []; // type errors were reported by validateVolumes
    const vol = readObject(ignored, path.index(i), volume);
    if (vol === undefined || vol === WRONG_TYPE) return;
    const pd = readObject(ignored, path, vol.gcePersistentDisk);
    if (pd === undefined || pd === WRONG_TYPE) return;
    if (readBoolean(ignored, path, pd.readOnly) !== true)
      errs.push(invalidValue(path.index(i).child('gcePersistentDisk', 'readOnly'), false, GCE_PD_READ_ONLY));
  });
  return errs;
}
