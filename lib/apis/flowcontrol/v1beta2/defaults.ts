// Defaults of flowcontrol.apiserver.orch.io/v1beta2: v1beta3's, with the shares field under its v1beta2 name.
import type { ApiObject } from '../../../apimachinery/meta/types';
import { applyPriorityLevelConfigurationDefaults as v1beta3Defaults } from '../v1beta3/defaults';
import { v1beta2PriorityLevelToV1beta3, v1beta3PriorityLevelToV1beta2 } from '../conversion-v1beta2-v1beta3';

export { applyFlowSchemaDefaults } from '../v1beta3/defaults';

/** Mutates `obj` like v1beta3's defaults (assuredConcurrencyShares 30 when 0 or absent, …). */
export function applyPriorityLevelConfigurationDefaults(obj: ApiObject): void {
  const hub = v1beta2PriorityLevelToV1beta3(structuredClone(obj));
  v1beta3Defaults(hub);
  const back = v1beta3PriorityLevelToV1beta2(hub);
  for (const key of Object.keys(obj)) delete obj[key];
  Object.assign(obj, back);
}
