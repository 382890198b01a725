// Deployment registry behaviour (pkg/registry/apps/deployment): status reset on create and carried on update, generation bumps, /status.
import type { ApiObject } from '../../../apimachinery/meta/types';
import { validateDeployment, validateDeploymentStatus, validateDeploymentUpdate } from '../../../apis/apps/validation';
import { applyDeploymentDefaults } from '../../../apis/apps/v1/defaults';
import { semanticEqual } from '../../../apis/core/semantic-equal';
import type { Strategy } from '../../rest/strategy';
import { defaultStrategy } from '../../rest/strategy';
import { deploymentTable } from './table';

function carry(obj: ApiObject, old: ApiObject, key: 'spec' | 'status'): void {
  if (old[key] === undefined) delete obj[key];
  else obj[key] = old[key];
}

export const deploymentStrategy: Strategy = {
  ...defaultStrategy,
  applyDefaults: applyDeploymentDefaults,
  prepareForCreate(obj: ApiObject): void {
    obj.status = {};
    obj.metadata.generation = 1;
  },
  prepareForUpdate(obj: ApiObject, old: ApiObject): void {
    carry(obj, old, 'status');
    // Spec changes bump the generation so controllers can tell template changes from scaling; so do
    // annotation changes, because the controller copies annotations to the ReplicaSets. Labels do not.
    // Semantic equality: a nil and an empty list or map are the same (Kubernetes' Semantic.DeepEqual).
    const changed = !semanticEqual(obj.spec, old.spec) || !semanticEqual(obj.metadata.annotations, old.metadata.annotations);
    const generation = changed ? (old.metadata.generation ?? 0) + 1 : old.metadata.generation;
    if (generation === undefined) delete obj.metadata.generation;
    else obj.metadata.generation = generation;
  },
  validate: validateDeployment,
  validateUpdate: validateDeploymentUpdate,
  table: deploymentTable,
};

/** /status: spec and labels come from storage; other metadata (annotations, finalizers, owners) may change. */
export const deploymentStatusStrategy: Strategy = {
  ...deploymentStrategy,
  prepareForUpdate(obj: ApiObject, old: ApiObject): void {
    carry(obj, old, 'spec');
    if (old.metadata.labels === undefined) delete obj.metadata.labels;
    else obj.metadata.labels = old.metadata.labels;
  },
  validateUpdate: validateDeploymentStatus,
};
