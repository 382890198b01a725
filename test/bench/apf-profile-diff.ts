// Two servers' CPU profiles compared per request: the self time of each function (native leaves charged to their
// nearest located caller) in the given windows, divided by the requests answered in them, APF on minus off.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexProfile, type CpuProfile } from './cpu-profile';

export interface ProfileWindow {
  fromUs: number;
  toUs: number;
  requests: number;
}

const TOP = Number(process.env['BENCH_APF_PROFILE_TOP'] ?? 30);

function readProfile(dir: string): CpuProfile {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  const profiles = files.map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as CpuProfile);
  const busiest = profiles.sort((a, b) => b.samples.length - a.samples.length)[0];
  if (!busiest) throw new Error(`no .cpuprofile in ${dir}`);
  return busiest;
}

/** µs of self and inclusive time per request, by function, within the windows. */
function perRequest(profile: CpuProfile, windows: ProfileWindow[]): { self: Map<string, number>; total: number } {
  const { byId, parent, loc } = indexProfile(profile);
  const requests = windows.reduce((s, w) => s + w.requests, 0);
  const self = new Map<string, number>();
  let total = 0;
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    const dt = profile.timeDeltas[i + 1] ?? 0;
    if (!windows.some((w) => t >= w.fromUs && t <= w.toUs)) return;
    if (/^\((idle|root)\)/.test(loc(id))) return;
    let own = id;
    while (!byId.get(own)!.callFrame.url && parent.has(own) && !/^\((garbage collector|program)\)/.test(loc(own)))
      own = parent.get(own)!;
    const key = own === id ? loc(id) : `${loc(id)} ← ${loc(own)}`;
    self.set(key, (self.get(key) ?? 0) + dt / requests);
    total += dt / requests;
  });
  return { self, total };
}

/** Lines: busy µs per request off and on, then the functions whose self time per request differs most. */
export function profileDiff(offDir: string, offWindows: ProfileWindow[], onDir: string, onWindows: ProfileWindow[]) {
  const off = perRequest(readProfile(offDir), offWindows);
  const on = perRequest(readProfile(onDir), onWindows);
  const keys = new Set([...off.self.keys(), ...on.self.keys()]);
  const rows = [...keys]
    .map((k) => ({ k, off: off.self.get(k) ?? 0, on: on.self.get(k) ?? 0 }))
    .sort((a, b) => Math.abs(b.on - b.off) - Math.abs(a.on - a.off))
    .slice(0, TOP);
  const f = (v: number): string => v.toFixed(2);
  return [
    `Profiled main-thread busy time per request in the fixed-rate GET phases: off ${f(off.total)} µs, on ${f(on.total)} µs.`,
    '',
    '| µs/req off | on | on − off | function (self) |',
    '|---:|---:|---:|---|',
    ...rows.map((r) => `| ${f(r.off)} | ${f(r.on)} | ${f(r.on - r.off)} | \`${r.k.replace(/\|/g, '\\|')}\` |`),
  ];
}
