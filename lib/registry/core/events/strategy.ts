// Event (core v1, also served as events.orch.io/v1): created and updated freely (PUT creates), validated by the
// legacy rules on core writes and the strict v1 rules on events.orch.io/v1 writes (pkg/registry/core/event).
import type { Strategy } from '../../rest/strategy';
import { defaultStrategy } from '../../rest/strategy';
import { validateEventLegacy, validateEventV1Create, validateEventV1Update } from '../../../apis/core/validation-event';
import { shapeCoreEvent } from '../../../apis/events/v1/conversion';
import { eventTable } from './table';

export const eventStrategy: Strategy = {
  ...defaultStrategy,
  namespaced: true,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  validate: validateEventLegacy,
  validateUpdate: (obj) => validateEventLegacy(obj),
  canonicalize(obj) {
    Object.assign(obj, shapeCoreEvent({ ...obj }));
  },
  table: eventTable,
};

/** The validation of writes through events.orch.io/v1 (Kubernetes validates by the request's version). */
export const eventsV1Validation: Pick<Strategy, 'validate' | 'validateUpdate'> = {
  validate: validateEventV1Create,
  validateUpdate: validateEventV1Update,
};
