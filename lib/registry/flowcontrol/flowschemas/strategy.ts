// FlowSchema registry behaviour: cluster-scoped, status cleared on create and carried on update, /status writes only status.
import { isDeepStrictEqual } from 'node:util';
import type { ApiObject } from '../../../apimachinery/meta/types';
import { applyFlowSchemaDefaults } from '../../../apis/flowcontrol/v1beta3/defaults';
import { validateFlowSchema, validateFlowSchemaStatus, validateFlowSchemaUpdate } from '../../../apis/flowcontrol/validation';
import type { Strategy } from '../../rest/strategy';
import { defaultStrategy } from '../../rest/strategy';
import { flowSchemaTable } from './table';

export const flowSchemaStrategy: Strategy = {
  ...defaultStrategy,
  namespaced: false,
  applyDefaults: applyFlowSchemaDefaults,
  prepareForCreate(obj: ApiObject): void {
    obj.status = {};
    obj.metadata.generation = 1;
  },
  prepareForUpdate(obj: ApiObject, old: ApiObject): void {
    obj.status = structuredClone(old.status);
    // Only spec changes bump the generation, so controllers can tell them from status writes.
    obj.metadata.generation = isDeepStrictEqual(obj.spec, old.spec) ? old.metadata.generation : (old.metadata.generation ?? 0) + 1;
    if (obj.metadata.generation === undefined) delete obj.metadata.generation;
  },
  validate: validateFlowSchema,
  validateUpdate: validateFlowSchemaUpdate,
  table: flowSchemaTable,
};

export const flowSchemaStatusStrategy: Strategy = {
  ...flowSchemaStrategy,
  prepareForUpdate(obj: ApiObject, old: ApiObject): void {
    obj.spec = structuredClone(old.spec);
    // Everything in metadata but managedFields (which records this very status write) comes from
    // storage: label or annotation edits sent to /status are dropped, as in Kubernetes.
    const managedFields = obj.metadata.managedFields;
    obj.metadata = structuredClone(old.metadata);
    if (managedFields === undefined) delete obj.metadata.managedFields;
    else obj.metadata.managedFields = managedFields;
  },
  validateUpdate: validateFlowSchemaStatus,
};
