// The classic max-in-flight filter (filters/maxinflight.go), in effect when API Priority and Fairness is off:
// separate limits for read-only and mutating requests; long-running requests and system:masters are not limited.
import type { RequestInfo } from '../../endpoints/request-info';
import type { DigestUser } from '../flowcontrol/classifier';
import type { RequestWatermark } from '../metrics/inflight-watermark';

const READ_ONLY_VERBS = new Set(['get', 'list', 'watch']);
const SYSTEM_MASTERS = 'system:masters';

export class MaxInFlight {
  readOnlyInFlight = 0;
  mutatingInFlight = 0;

  /** A limit of 0 leaves that kind of request unlimited. */
  constructor(
    readonly readOnlyLimit: number,
    readonly mutatingLimit: number,
    /** Notes each limited pool's occupancy when a request takes or gives back a slot (apiserver_current_inflight_requests). */
    readonly watermark?: RequestWatermark,
  ) {}

  /**
   * Takes a slot for the request: 'unlimited' (nothing to release), 'read-only' / 'mutating' (release it with
   * `release` when the response closes), or undefined when the pool is full (answer 429).
   */
  acquire(info: RequestInfo, user: DigestUser): 'unlimited' | 'read-only' | 'mutating' | undefined {
    if (info.isResourceRequest && info.verb === 'watch') return 'unlimited';
    if (user.groups.includes(SYSTEM_MASTERS)) return 'unlimited';
    if (READ_ONLY_VERBS.has(info.verb)) {
      if (this.readOnlyLimit === 0) return 'unlimited';
      if (this.readOnlyInFlight >= this.readOnlyLimit) return undefined;
      this.watermark?.record('readOnly', ++this.readOnlyInFlight);
      return 'read-only';
    }
    if (this.mutatingLimit === 0) return 'unlimited';
    if (this.mutatingInFlight >= this.mutatingLimit) return undefined;
    this.watermark?.record('mutating', ++this.mutatingInFlight);
    return 'mutating';
  }

  release(slot: 'read-only' | 'mutating'): void {
    if (slot === 'read-only') this.watermark?.record('readOnly', --this.readOnlyInFlight);
    else this.watermark?.record('mutating', --this.mutatingInFlight);
  }
}
