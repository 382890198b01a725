// Deployment registry behaviour (pkg/registry/apps/deployment): status reset on create and carried on update, generation bumps, /status.
import type { ApiObject } from '../../../apimachinery/meta/types';
import { validateDeployment, validateDeploymentStatus, validateDeploymentUpdate } from '../../../apis/apps/validation';
import { applyDeploymentDefaults } from '../../../apis/apps/v1/defaults';
import { semanticEqual } from '../../../apimachinery/validation/semantic-equal';
import type { Strategy } from '../../rest/strategy';
import { defaultStrategy } from '../../rest/strategy';
import { carryFromStorage, carryStatusAndBumpGeneration, clearStatusAndStartGeneration } from '../../rest/spec-status';
import { deploymentTable } from './table';
import { resetFieldsOf } from '../../../apimachinery/managed-fields/reset-fields';

export const deploymentStrategy: Strategy = {
  ...defaultStrategy,
  applyDefaults: applyDeploymentDefaults,
  prepareForCreate: clearStatusAndStartGeneration,
  prepareForUpdate(obj: ApiObject, old: ApiObject): void {
    // Spec changes bump the generation so controllers can tell template changes from scaling; so do
    // annotation changes, because the controller copies annotations to the ReplicaSets. Labels do not.
    // Semantic equality: a nil and an empty list or map are the same (Kubernetes' Semantic.DeepEqual).
    const changed =
      !semanticEqual(obj.spec, old.spec) || !semanticEqual(obj.metadata.annotations, old.metadata.annotations);
    carryStatusAndBumpGeneration(obj, old, changed);
  },
  validate: validateDeployment,
  validateUpdate: validateDeploymentUpdate,
  table: deploymentTable,
};

/** /status: spec and labels come from storage; other metadata (annotations, finalizers, owners) may change. */
export const deploymentStatusStrategy: Strategy = {
  ...deploymentStrategy,
  prepareForUpdate(obj: ApiObject, old: ApiObject): void {
    carryFromStorage(obj, old, 'spec');
    if (old.metadata.labels === undefined) delete obj.metadata.labels;
    else obj.metadata.labels = old.metadata.labels;
  },
  validateUpdate: validateDeploymentStatus,
  resetFields: resetFieldsOf(['spec'], ['metadata', 'labels']),
};
