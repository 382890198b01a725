// Relative file paths inside a volume or profile directory (validateLocalDescendingPath, validateLocalNonReservedPath), 1.26 texts.
import type { FieldError } from '../../apimachinery/field/errors';
import { invalidValue } from '../../apimachinery/field/errors';
import type { FieldPath } from '../../apimachinery/field/path';

/** validateLocalDescendingPath: relative, and no `..` element (one error however many there are). */
export function validateLocalDescendingPath(errs: FieldError[], target: string, path: FieldPath): void {
  if (target.startsWith('/')) errs.push(invalidValue(path, target, 'must be a relative path'));
  if (target.split('/').includes('..')) errs.push(invalidValue(path, target, "must not contain '..'"));
}

/** validateLocalNonReservedPath: also no leading `..` (such as `..data`, the kubelet's own entry). */
export function validateLocalNonReservedPath(errs: FieldError[], target: string, path: FieldPath): void {
  validateLocalDescendingPath(errs, target, path);
  if (target.startsWith('..') && !target.startsWith('../'))
    errs.push(invalidValue(path, target, "must not start with '..'"));
}
