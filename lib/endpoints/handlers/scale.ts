// GET, PUT and PATCH of a `scale` subresource: the object read as an autoscaling/v1 Scale; writes change only replicas.
import { badRequest, conflict, invalid } from '../../apimachinery/errors';
import type { ApiObject } from '../../apimachinery/meta/types';
import { isPlainObject } from '../../apimachinery/meta/types';
import type { ResourceDefinition } from '../../registry/rest/resource';
import { defaultStrategy } from '../../registry/rest/strategy';
import type { ScaleAdapter } from '../../registry/rest/scale';
import { requestedReplicas } from '../../registry/apps/deployments/scale';
import type { ApiRequest } from './api-request';
import { requestNamespace } from './api-request';
import { bodyFormatOf, negotiateResponse } from '../negotiation';
import { readBody } from '../request-body';
import { decodeObject } from '../decode-body';
import { parseWriteQuery } from './write-options';
import { rejectUnroutedPatch } from './patch-route';
import { writeResponse } from './write-response';
import { checkNameAndNamespace } from './update';
import { parseForce, parsePatchBody, patcher, patchTypeOf } from './patch';
import {
  applyToObject,
  parentEntriesAfterScale,
  scaleEntries,
  updateManagedFields,
} from '../../apimachinery/managed-fields';
import { apiVersionOfDefinition, groupResource } from '../../registry/rest/resource';
import { fieldValidationDirective } from '../decode-body';
import { applyConfiguration, requireApplyManager } from './apply';
import { managerOrUserAgent, scaleFieldManagerScope } from './field-manager';
import { parseIncludeObject, toTable } from '../table';
import { partialObjectOf } from '../partial-object-metadata';
import { scaleTable } from '../../registry/rest/scale-table';

/** The Scale kind as a body to decode (autoscaling/v1). */
const SCALE: ResourceDefinition = {
  group: 'autoscaling',
  version: 'v1',
  resource: 'scale',
  kind: 'Scale',
  listKind: '',
  shortNames: [],
  categories: [],
  strategy: defaultStrategy,
};

function adapterOf(r: ApiRequest): ScaleAdapter {
  const adapter = r.served.scale;
  if (!adapter) throw new Error(`${r.served.definition.resource} has no scale subresource`);
  return adapter;
}

/** The object after applying a submitted Scale: preconditions from its metadata, replicas from its spec. */
function scaled(r: ApiRequest, current: ApiObject, scale: ApiObject): ApiObject {
  const name = current.metadata.name ?? '';
  const { replicas, errors } = requestedReplicas(scale);
  if (errors.length > 0) throw invalid({ group: SCALE.group, kind: SCALE.kind }, name, errors);
  const uid = scale.metadata.uid;
  if (uid && uid !== current.metadata.uid) {
    throw conflict(
      groupResource(r.served.definition),
      name,
      `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${current.metadata.uid ?? ''}`,
    );
  }
  const next = adapterOf(r).setReplicas(current, replicas);
  // A resourceVersion on the Scale is a precondition on the object; the store compares it with etcd's.
  return {
    ...next,
    metadata: { ...next.metadata, resourceVersion: scale.metadata.resourceVersion || current.metadata.resourceVersion },
  };
}

/** A Scale write: the old Scale carries the parent's replicas owners; the new Scale's owners go back to the parent. */
async function writeScale(r: ApiRequest, toScale: (oldScale: ApiObject) => ApiObject, dryRun: boolean): Promise<void> {
  const adapter = adapterOf(r);
  const parentApiVersion = apiVersionOfDefinition(r.served.definition);
  const result = await r.store.patch(
    requestNamespace(r),
    r.info.name,
    (current) => {
      const oldScale = adapter.toScale(current);
      const entries = scaleEntries(current.metadata.managedFields, adapter.replicasPaths);
      if (entries !== undefined) oldScale.metadata.managedFields = entries as ApiObject['metadata']['managedFields'];
      const scale = toScale(oldScale);
      // Every patch (and apply) of the Scale is checked against the URL, as the patcher's checkName does.
      checkNameAndNamespace(r, scale);
      const next = scaled(r, current, scale);
      const parentEntries = parentEntriesAfterScale(
        current.metadata.managedFields,
        scale.metadata.managedFields,
        parentApiVersion,
        adapter.replicasPaths,
      );
      const metadata = { ...next.metadata, managedFields: parentEntries as ApiObject['metadata']['managedFields'] };
      if (parentEntries === undefined) delete metadata.managedFields;
      return { ...next, metadata };
    },
    { dryRun, context: r.context },
  );
  writeResponse(r.res, 200, adapter.toScale(result.object), r.negotiated ?? { mediaType: 'application/json' }, {
    pretty: r.pretty,
    warnings: result.warnings,
  });
}

/** GET of the Scale, also as a Table (`kubectl get --subresource=scale`) or PartialObjectMetadata, as 1.26 serves it. */
export async function handleGetScale(r: ApiRequest): Promise<void> {
  r.negotiated = negotiateResponse(r.req.headers.accept, true);
  const obj = await r.store.get(requestNamespace(r), r.info.name);
  const scale = adapterOf(r).toScale(obj);
  if (r.negotiated.table) {
    const includeObject = parseIncludeObject(r.query.get('includeObject'));
    const table = toTable(
      [scale],
      scaleTable,
      { resourceVersion: scale.metadata.resourceVersion ?? '' },
      {
        request: r.negotiated.table,
        includeObject,
      },
    );
    writeResponse(r.res, 200, table, r.negotiated, { pretty: r.pretty });
    return;
  }
  const partial = r.negotiated.partial;
  writeResponse(r.res, 200, partial ? partialObjectOf(scale, partial, SCALE.group) : scale, r.negotiated, {
    pretty: r.pretty,
  });
}

export async function handleUpdateScale(r: ApiRequest): Promise<void> {
  r.negotiated = negotiateResponse(r.req.headers.accept, false);
  const options = parseWriteQuery(r.query, 'UpdateOptions');
  const format = bodyFormatOf(r.req.headers['content-type']);
  const scale = decodeObject(await readBody(r.req), format, SCALE, (v, k) => v === 'autoscaling/v1' && k === 'Scale');
  checkNameAndNamespace(r, scale);
  const manager = managerOrUserAgent(options.fieldManager, r.req.headers['user-agent']);
  await writeScale(
    r,
    (oldScale) => updateManagedFields(oldScale, structuredClone(scale), manager, scaleFieldManagerScope()),
    options.dryRun,
  );
}

export async function handlePatchScale(r: ApiRequest): Promise<void> {
  rejectUnroutedPatch(r);
  r.negotiated = negotiateResponse(r.req.headers.accept, false);
  const type = patchTypeOf(r.req.headers['content-type']);
  const options = parseWriteQuery(r.query, 'PatchOptions');
  const force = parseForce(r.query, type);
  const body = await readBody(r.req);
  const scope = scaleFieldManagerScope();
  if (type === 'apply') {
    const manager = requireApplyManager(options);
    const { config } = applyConfiguration(
      body,
      fieldValidationDirective(options.fieldValidation, r.features.serverSideFieldValidation !== false),
    );
    await writeScale(r, (oldScale) => applyToObject(oldScale, config, manager, force, scope), options.dryRun);
    return;
  }
  // Decoded once the Deployment is known to exist (a patch of a missing one is a 404 whatever its body).
  let apply: ((current: ApiObject) => ApiObject) | undefined;
  const manager = managerOrUserAgent(options.fieldManager, r.req.headers['user-agent']);
  await writeScale(
    r,
    (oldScale) => {
      apply ??= patcher(type, parsePatchBody(body));
      const patched = apply(structuredClone(oldScale));
      if (!isPlainObject(patched) || !isPlainObject(patched['metadata']))
        throw badRequest('the patched object is not a valid Scale');
      return updateManagedFields(oldScale, patched as ApiObject, manager, scope); // checked to be an object with metadata just above
    },
    options.dryRun,
  );
}
