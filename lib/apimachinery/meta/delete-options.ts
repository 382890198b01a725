// DeleteOptions: the body or query of a DELETE, and its validation (422 on DeleteOptions.meta.orch.io).
import type { FieldError } from '../field/errors';
import { goLiteral, goQuote, invalidValue, notSupported } from '../field/errors';
import { FieldPath } from '../field/path';

export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';
const PROPAGATION_POLICIES: readonly string[] = ['Foreground', 'Background', 'Orphan', 'nil'];

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  orphanDependents?: boolean;
  propagationPolicy?: string;
  dryRun?: string[];
}

export function validateDeleteOptions(options: DeleteOptions): FieldError[] {
  const errs: FieldError[] = [];
  if (options.orphanDependents !== undefined && options.propagationPolicy !== undefined) {
    errs.push(
      invalidValue(
        FieldPath.root('propagationPolicy'),
        options.propagationPolicy,
        'orphanDependents and deletionPropagation cannot be both set',
      ),
    );
  }
  if (
    options.propagationPolicy !== undefined &&
    !['Foreground', 'Background', 'Orphan'].includes(options.propagationPolicy)
  ) {
    errs.push(notSupported(FieldPath.root('propagationPolicy'), options.propagationPolicy, PROPAGATION_POLICIES));
  }
  errs.push(...validateDryRun(options.dryRun));
  return errs;
}

/** `dryRun` may only hold `All` (in any options kind). */
export function validateDryRun(dryRun: readonly string[] | undefined): FieldError[] {
  if (!dryRun || dryRun.every((v) => v === 'All')) return [];
  return [notSupported(FieldPath.root('dryRun'), goLiteral(`[]string{${dryRun.map(goQuote).join(', ')}}`), ['All'])];
}
