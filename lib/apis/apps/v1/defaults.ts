// apps/v1 Deployment defaults (SetDefaults_Deployment plus the pod template's core/v1 defaults), 1.26.
import type { ApiObject } from '../../../apimachinery/meta/types';
import { ensureObject, isAbsent } from '../../../apimachinery/validation/untrusted-json';
import { applyPodTemplateSpecDefaults } from '../../core/v1/defaults-pod';

export const DEFAULT_REPLICAS = 1;
export const DEFAULT_MAX_UNAVAILABLE = '25%';
export const DEFAULT_MAX_SURGE = '25%';
export const DEFAULT_REVISION_HISTORY_LIMIT = 10;
export const DEFAULT_PROGRESS_DEADLINE_SECONDS = 600;
const ROLLING_UPDATE = 'RollingUpdate';

/**
 * Runs on every decoded write. `spec`, `spec.strategy` and the template are Go structs, so they are
 * created when absent; a member of the wrong type is left for validation to report. minReadySeconds
 * has no default (0 is omitted), and a Recreate strategy's `rollingUpdate` is neither added nor removed.
 */
export function applyDeploymentDefaults(obj: ApiObject): void {
  const spec = ensureObject(obj, 'spec');
  if (spec === undefined) return;
  if (isAbsent(spec.replicas)) spec.replicas = DEFAULT_REPLICAS;
  const strategy = ensureObject(spec, 'strategy');
  if (strategy !== undefined) {
    if (isAbsent(strategy.type) || strategy.type === '') strategy.type = ROLLING_UPDATE;
    if (strategy.type === ROLLING_UPDATE) {
      const rollingUpdate = ensureObject(strategy, 'rollingUpdate');
      if (rollingUpdate !== undefined) {
        if (isAbsent(rollingUpdate.maxUnavailable)) rollingUpdate.maxUnavailable = DEFAULT_MAX_UNAVAILABLE;
        if (isAbsent(rollingUpdate.maxSurge)) rollingUpdate.maxSurge = DEFAULT_MAX_SURGE;
      }
    }
  }
  if (isAbsent(spec.revisionHistoryLimit)) spec.revisionHistoryLimit = DEFAULT_REVISION_HISTORY_LIMIT;
  if (isAbsent(spec.progressDeadlineSeconds)) spec.progressDeadlineSeconds = DEFAULT_PROGRESS_DEADLINE_SECONDS;
  const template = ensureObject(spec, 'template');
  if (template !== undefined) applyPodTemplateSpecDefaults(template);
}
