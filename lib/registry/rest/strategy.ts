// The per-resource strategy: how a kind differs from the generic store's behaviour.
import type { ApiObject } from '../../apimachinery/meta/types';
import type { FieldError } from '../../apimachinery/field/errors';
import type { NameValidator } from '../../apimachinery/validation/names';
import { validateDNS1123SubdomainName } from '../../apimachinery/validation/names';
import type { TableConvertor } from './table';
import type { FieldSet } from '../../apimachinery/managed-fields/field-set';
import { RESET_STATUS } from '../../apimachinery/managed-fields/reset-fields';

export interface Strategy {
  /** Namespaced kinds live under /namespaces/{ns}/; cluster-scoped ones do not. */
  namespaced: boolean;
  /** PUT of a missing object creates it. */
  allowCreateOnUpdate: boolean;
  /** PUT without metadata.resourceVersion is accepted (last write wins). */
  allowUnconditionalUpdate: boolean;
  /** Checks metadata.name / generateName syntax. */
  validateName: NameValidator;
  /** Version defaults (defaults.ts of the served version); runs on every decoded write body. */
  applyDefaults(obj: ApiObject): void;
  /** Clears fields a create may not set (status, generation); runs before validation. */
  prepareForCreate(obj: ApiObject): void;
  /** Carries over what an update may not change (status on main writes, spec on status writes); bumps generation. */
  prepareForUpdate(obj: ApiObject, old: ApiObject): void;
  /** Kind-specific validation of a new object; ObjectMeta is validated by the store. */
  validate(obj: ApiObject): FieldError[];
  /** Kind-specific validation of an update. */
  validateUpdate(obj: ApiObject, old: ApiObject): FieldError[];
  /** Warnings returned in `Warning` headers on create/update. */
  warningsOnCreate(obj: ApiObject): string[];
  warningsOnUpdate(obj: ApiObject, old: ApiObject): string[];
  /** Normalizes the object just before storage. */
  canonicalize(obj: ApiObject): void;
  /** True while kind-specific state still holds a terminating object (a namespace's spec.finalizers). */
  blocksDeletion?(obj: ApiObject): boolean;
  /** Called when a delete starts terminating the object (a namespace's phase becomes Terminating). */
  prepareForTerminating?(obj: ApiObject): void;
  /** An error for a repeated delete of a terminating object, when the kind refuses it (namespaces: 409). */
  deleteWhileTerminatingError?(obj: ApiObject): Error | undefined;
  /** Fields writes through this strategy reset, so no field manager records them (GetResetFields); read only. */
  resetFields: FieldSet;
  /** Printer columns; undefined → the default Name / Created At table. */
  table?: TableConvertor;
}

/** Spread this and override what the kind needs. */
export const defaultStrategy: Strategy = {
  namespaced: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  validateName: validateDNS1123SubdomainName,
  applyDefaults: () => {},
  prepareForCreate: () => {},
  prepareForUpdate: () => {},
  validate: () => [],
  validateUpdate: () => [],
  warningsOnCreate: () => [],
  warningsOnUpdate: () => [],
  canonicalize: () => {},
  resetFields: RESET_STATUS,
};
