// Namespace deletion rules: spec.finalizers hold a namespace; deleting starts Terminating; repeats are refused.
import { conflict } from '../../../apimachinery/errors';
import type { ApiObject } from '../../../apimachinery/meta/types';
import { isPlainObject } from '../../../apimachinery/meta/types';
import { NAMESPACE_TERMINATING } from '../../../apis/core/well-known-names';
import type { Strategy } from '../../rest/strategy';

/** Kubernetes' text, two spaces after the first full stop included. */
export const NAMESPACE_BEING_EMPTIED_TEXT =
  'The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.';

function hasSpecFinalizers(obj: ApiObject): boolean {
  const spec = obj['spec'];
  return isPlainObject(spec) && Array.isArray(spec['finalizers']) && spec['finalizers'].length > 0;
}

export const namespaceDeletionHooks: Pick<
  Strategy,
  'blocksDeletion' | 'prepareForTerminating' | 'deleteWhileTerminatingError'
> = {
  blocksDeletion: hasSpecFinalizers,
  prepareForTerminating(obj) {
    const status = isPlainObject(obj['status']) ? obj['status'] : {};
    obj['status'] = { ...status, phase: NAMESPACE_TERMINATING };
  },
  deleteWhileTerminatingError(obj) {
    return hasSpecFinalizers(obj)
      ? conflict({ group: '', resource: 'namespaces' }, obj.metadata.name ?? '', NAMESPACE_BEING_EMPTIED_TEXT)
      : undefined;
  },
};
