// How the objects of one webhook call are shown to the webhook and how its patched object comes back: in the served
// version its rules matched, or, on a `scale` subresource, as the autoscaling/v1 Scale the request is about (as
// Kubernetes admits scale writes: the Scale, whose patched spec.replicas goes back to the parent object).
import { internalError } from '../../../apimachinery/errors';
import type { ApiObject } from '../../../apimachinery/meta/types';
import { isPlainObject } from '../../../apimachinery/meta/types';
import { convertObject } from '../../../apis/conversion';
import { conversionsOf } from '../../../apis/conversions';
import type { ResourceDefinition } from '../../../registry/rest/resource';
import type { ServedResource } from '../../../registry/resource-registry';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface ObjectView {
  /** The kind the webhook is told it gets (request.kind). */
  kind: GroupVersionKind;
  show(obj: ApiObject | undefined): ApiObject | null;
  /** The patched object shown back as the stored (hub) object, `current` being that object before the patch. */
  takeBack(patched: ApiObject, current: ApiObject, webhook: string): ApiObject;
}

export const SCALE_KIND: GroupVersionKind = { group: 'autoscaling', version: 'v1', kind: 'Scale' };

export function objectViewOf(served: ServedResource, subresource: string, hub: ResourceDefinition): ObjectView {
  const scale = subresource === 'scale' ? served.scale : undefined;
  if (scale) {
    return {
      kind: SCALE_KIND,
      show: (obj) => (obj === undefined ? null : scale.toScale(obj)),
      takeBack: (patched, current, webhook) => {
        const spec = isPlainObject(patched['spec']) ? patched['spec'] : {};
        const replicas = spec['replicas'] ?? 0;
        if (typeof replicas !== 'number' || !Number.isInteger(replicas))
          throw internalError(
            new Error(`webhook "${webhook}" patched the Scale into an invalid one: spec.replicas is not an integer`),
          );
        return scale.setReplicas(current, replicas);
      },
    };
  }
  const def = served.definition;
  const conversions = conversionsOf(def.group, def.kind);
  return {
    kind: { group: def.group, version: def.version, kind: def.kind },
    show: (obj) => (obj === undefined ? null : convertObject(conversions, obj, def.group, def.kind, def.version)),
    takeBack: (patched) => convertObject(conversions, patched, hub.group, hub.kind, hub.version),
  };
}
