// Per-request CPU of a profiled workload, by area of the server (HTTP parsing, decoding, defaulting, … GC).
import { indexProfile, type CpuProfile } from './cpu-profile';

/** First matching rule names the area of a frame ("name path:line"); order matters (specific before generic). */
const AREAS: Array<[string, RegExp]> = [
  ['GC', /^\(garbage collector\)/],
  [
    'HTTP parsing',
    /node:_http_(common|incoming)|parserOn|lib\/endpoints\/request-info|lib\/endpoints\/request-body|node:internal\/url|node:url/,
  ],
  ['logging', /npm:pino|node_modules\/(pino|sonic-boom|thread-stream)|lib\/server\/filters\/request-log/],
  ['metrics', /node_modules\/prom-client|lib\/server\/metrics\/|lib\/storage\/etcd\/metrics/],
  ['audit', /lib\/server\/filters\/audit/],
  ['managedFields', /lib\/apimachinery\/managed-fields|lib\/endpoints\/handlers\/field-manager|internal-field-manager/],
  ['Go shape', /lib\/apimachinery\/serializers\/go-shape/],
  ['defaulting', /lib\/apis\/[^ ]*defaults/],
  ['validation', /lib\/apis\/[^ ]*validation|lib\/apimachinery\/validation|lib\/apimachinery\/field\//],
  ['body decode / schema walk', /lib\/apimachinery\/(schema|json|strategic-merge-patch)|lib\/endpoints\/decode-/],
  [
    'etcd3 / gRPC',
    /node_modules\/(etcd3|@grpc|protobufjs|@protobufjs|cockatiel)|node:internal\/http2|node:http2|lib\/storage\/etcd\//,
  ],
  ['watch cache', /lib\/storage\/cacher\//],
  [
    'response writing',
    /node:_http_(outgoing|server)|lib\/endpoints\/handlers\/write-|lib\/endpoints\/negotiation|lib\/apimachinery\/serializers\//,
  ],
  ['registry (store, strategy, admission)', /lib\/registry\//],
  ['other project code', /\s(lib|cmd)\//],
  ['other npm', /node_modules\//],
  ['other Node.js internals', /node:/], // includes node:net and stream_base_commons (socket writes of HTTP and HTTP/2)
  ['V8 / native (program)', /^\(program\)/],
];

export interface AreaRow {
  area: string;
  /** Samples whose own (leaf, or nearest located caller of a native leaf) frame is in the area. */
  selfUs: number;
  /** Samples with any frame of the area on the stack. */
  inclusiveUs: number;
}

export interface FunctionRow {
  fn: string;
  area: string;
  us: number;
}

export interface ProfileBreakdown {
  /** Busy (non-idle) CPU in the window, µs. */
  busyUs: number;
  windowSeconds: number;
  areas: AreaRow[];
  topSelf: FunctionRow[];
  topInclusive: FunctionRow[];
}

/** Areas that say where, not why: a sample there is charged to the nearest caller in a specific area. */
const GENERIC = new Set(['other Node.js internals', 'other npm']);

function areaOf(loc: string): string {
  for (const [name, re] of AREAS) if (re.test(loc)) return name;
  return 'V8 / native (program)';
}

/** Breaks down the samples taken between `fromUs` and `toUs` (V8 profile clock = CLOCK_MONOTONIC µs, as hrtime). */
export function breakdown(profile: CpuProfile, fromUs: number, toUs: number, top = 15): ProfileBreakdown {
  const { byId, parent, loc } = indexProfile(profile);
  const selfArea = new Map<string, number>();
  const inclArea = new Map<string, number>();
  const selfFn = new Map<string, number>();
  const inclFn = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, v: number): void => void m.set(k, (m.get(k) ?? 0) + v);
  let t = profile.startTime;
  let busy = 0;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    const dt = profile.timeDeltas[i + 1] ?? 0;
    if (t < fromUs || t > toUs) return;
    const leaf = loc(id);
    if (/^\((idle|root)\)/.test(leaf)) return;
    busy += dt;
    // A native leaf (JSON.parse, writev …) counts for the nearest caller that has a source location.
    let own = id;
    while (!byId.get(own)!.callFrame.url && parent.has(own) && !/^\((garbage collector|program)\)/.test(loc(own)))
      own = parent.get(own)!;
    if (!byId.get(own)!.callFrame.url && !/^\((garbage collector|program)\)/.test(loc(own))) own = id;
    let ownArea = areaOf(own === id ? leaf : loc(own));
    // Socket writes, events and promise machinery belong to whoever called them (HTTP response, gRPC, …).
    for (let cur = parent.get(own); GENERIC.has(ownArea) && cur !== undefined; cur = parent.get(cur)) {
      const a = areaOf(loc(cur));
      if (!GENERIC.has(a) && !/^\(root\)/.test(loc(cur))) ownArea = a;
    }
    add(selfArea, ownArea, dt);
    add(selfFn, leaf === loc(own) ? leaf : `${leaf} ← ${loc(own)}`, dt);
    const seenAreas = new Set<string>();
    const seenFns = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const l = loc(cur);
      if (/^\(root\)/.test(l)) continue;
      const a = areaOf(l);
      if (!seenAreas.has(a)) {
        seenAreas.add(a);
        add(inclArea, a, dt);
      }
      if (!seenFns.has(l)) {
        seenFns.add(l);
        add(inclFn, l, dt);
      }
    }
  });
  const areas = AREAS.map(([area]) => ({
    area,
    selfUs: selfArea.get(area) ?? 0,
    inclusiveUs: inclArea.get(area) ?? 0,
  })).filter((r) => r.selfUs > 0 || r.inclusiveUs > 0);
  const rows = (m: Map<string, number>, filter: (k: string) => boolean): FunctionRow[] =>
    [...m]
      .filter(([k]) => filter(k))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([fn, us]) => ({ fn, area: areaOf(fn.split(' ← ').pop()!), us }));
  return {
    busyUs: busy,
    windowSeconds: (toUs - fromUs) / 1e6,
    areas,
    topSelf: rows(selfFn, () => true),
    // Inclusive rows: project code, plus the event-loop entry points left out (they include everything).
    topInclusive: rows(inclFn, (k) => /\s(lib|cmd)\//.test(k) && !/lib\/server\/handler-chain|cmd\/apiserver/.test(k)),
  };
}
