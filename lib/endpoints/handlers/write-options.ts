// Query options shared by create, update and patch: dryRun, fieldManager, fieldValidation (422 on bad values).
import { invalid } from '../../apimachinery/errors';
import type { FieldError } from '../../apimachinery/field/errors';
import { invalidValue, notSupported, tooLong } from '../../apimachinery/field/errors';
import { FieldPath } from '../../apimachinery/field/path';
import { validateDryRun } from '../../apimachinery/meta/delete-options';
import { META_GROUP } from './list-options';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';
const FIELD_MANAGER_MAX_BYTES = 128;

export interface WriteQuery {
  dryRun: boolean;
  fieldManager: string;
  fieldValidation: FieldValidation;
}

/** `?dryRun` bare or empty means no dry run; `All` is the only other accepted value. */
export function dryRunValues(query: URLSearchParams): string[] {
  return query.getAll('dryRun').filter((v) => v !== '');
}

export function parseWriteQuery(
  query: URLSearchParams,
  optionsKind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions',
): WriteQuery {
  const errs: FieldError[] = [];
  const dryRun = dryRunValues(query);
  errs.push(...validateDryRun(dryRun));
  const fieldManager = query.get('fieldManager') ?? '';
  if (Buffer.byteLength(fieldManager) > FIELD_MANAGER_MAX_BYTES)
    errs.push(tooLong(FieldPath.root('fieldManager'), FIELD_MANAGER_MAX_BYTES));
  const badRune = [...fieldManager].findIndex((ch) => (ch.codePointAt(0) ?? 0) < 0x20 || ch === '\u007f');
  if (badRune >= 0) {
    const cp = fieldManager.codePointAt(badRune) ?? 0;
    errs.push(
      invalidValue(
        FieldPath.root('fieldManager'),
        fieldManager,
        `invalid character U+${cp.toString(16).toUpperCase().padStart(4, '0')} (at position ${badRune})`,
      ),
    );
  }
  const fieldValidation = query.get('fieldValidation') ?? '';
  if (!['', 'Ignore', 'Warn', 'Strict'].includes(fieldValidation))
    errs.push(notSupported(FieldPath.root('fieldValidation'), fieldValidation, ['', 'Ignore', 'Strict', 'Warn']));
  if (errs.length > 0) throw invalid({ group: META_GROUP, kind: optionsKind }, '', errs);
  return { dryRun: dryRun.length > 0, fieldManager, fieldValidation: (fieldValidation || 'Warn') as FieldValidation };
}
