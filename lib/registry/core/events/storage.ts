// How events are served (pkg/registry/core/event/storage): core v1 Events, also served as events.orch.io/v1 with its
// own validation and field selectors; every event expires after --event-ttl.
import { EVENTS_GROUP } from '../../../apis/events/register';
import type { RegistrationOptions, ResourceRegistration } from '../../rest/registration';
import { CORE_EVENT_SELECTORS, EVENTS_V1_SELECTORS } from './selectors';
import { eventStrategy, eventsV1Validation } from './strategy';

export const eventRegistration = ({ ttls }: RegistrationOptions): ResourceRegistration => ({
  definition: {
    group: '',
    version: 'v1',
    resource: 'events',
    kind: 'Event',
    listKind: 'EventList',
    shortNames: ['ev'],
    categories: [],
    strategy: eventStrategy,
  },
  extraVersions: [
    {
      group: EVENTS_GROUP,
      version: 'v1',
      applyDefaults: () => {},
      preferred: false,
      validation: eventsV1Validation,
      selectors: EVENTS_V1_SELECTORS,
    },
  ],
  selectors: CORE_EVENT_SELECTORS,
  ttlSeconds: ttls.eventSeconds,
});
