// Summarises a V8 .cpuprofile: top self-time and inclusive-time functions, mapped to .ts file:line via source maps.
// Usage: node dist/test/bench/profile-summary.js <file.cpuprofile> [top=10] [function name whose callers to show]
import { readFileSync } from 'node:fs';
import { location, moduleOf, type CpuProfile } from './cpu-profile';

function main(): void {
  const [file, topText, focus] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-summary <file.cpuprofile> [top]');
  const top = Number(topText ?? 10);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const byModule = new Map<string, number>();
  const callers = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const node = byId.get(id);
    if (!node) return;
    const key = location(node.callFrame);
    self.set(key, (self.get(key) ?? 0) + dt);
    const mod = moduleOf(key);
    byModule.set(mod, (byModule.get(mod) ?? 0) + dt);
    if (focus && node.callFrame.functionName === focus) {
      const chain: string[] = [];
      for (let cur = parent.get(id); cur !== undefined && chain.length < 9; cur = parent.get(cur))
        chain.push(location(byId.get(cur)!.callFrame));
      const k = chain.join(' ← ');
      callers.set(k, (callers.get(k) ?? 0) + dt);
    }
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const k = location(byId.get(cur)!.callFrame);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + dt);
    }
  });
  const print = (title: string, m: Map<string, number>, filter: (k: string) => boolean = () => true): void => {
    process.stdout.write(`\n${title} (total ${(total / 1000).toFixed(0)} ms sampled)\n`);
    [...m]
      .filter(([k]) => filter(k))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .forEach(([k, us], i) => {
        process.stdout.write(
          `${String(i + 1).padStart(2)}. ${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}\n`,
        );
      });
  };
  print('Top self time', self, (k) => !/^\((idle|program|garbage collector|root)\)/.test(k));
  print('Top self time incl. idle/GC', self);
  print('Top inclusive time, project code (lib/, cmd/)', inclusive, (k) => /\s(lib|cmd)\//.test(k));
  print('Self time by module', byModule);
  if (focus) print(`Callers of ${focus}`, callers);
}

main();
