// Summarises a V8 .cpuprofile: top self-time and inclusive-time functions, mapped to .ts file:line via source maps.
// Usage: node dist/test/bench/profile-summary.js <file.cpuprofile> [top=10] [function name whose callers to show]
import { readFileSync, existsSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, relative, resolve } from 'node:path';

interface CallFrame { functionName: string; url: string; lineNumber: number; columnNumber: number }
interface ProfileNode { id: number; callFrame: CallFrame; children?: number[] }
interface CpuProfile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

const maps = new Map<string, SourceMap | null>();

/** "lib/x.ts:12 fn" for compiled project files, "node:internal/...:34 fn" otherwise (lines 1-based). */
function location(frame: CallFrame): string {
  const name = frame.functionName || '(anonymous)';
  if (!frame.url) return name;
  let file = frame.url.startsWith('file://') ? fileURLToPath(frame.url) : frame.url;
  let line = frame.lineNumber + 1;
  if (file.endsWith('.js') && !maps.has(file)) {
    const mapFile = `${file}.map`;
    maps.set(file, existsSync(mapFile) ? new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8'))) : null);
  }
  const map = maps.get(file);
  if (map) {
    const entry = map.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string; originalLine?: number };
    if (entry.originalSource) {
      const src = entry.originalSource;
      file = src.startsWith('file://') ? fileURLToPath(src) : resolve(dirname(file), src);
      line = (entry.originalLine ?? 0) + 1;
    }
  }
  return `${name} ${relative(process.cwd(), file) || file}:${line}`;
}

/** Groups a location into node core, a node_modules package, or a project directory. */
function moduleOf(loc: string): string {
  const path = loc.slice(loc.lastIndexOf(' ') + 1);
  if (!path.includes(':') && !path.includes('/')) return loc.startsWith('(') ? loc : 'native/builtin';
  if (path.startsWith('node:')) return 'node:' + (path.slice(5).split(/[/:]/)[0] === 'internal' ? path.slice(5).split(/[/:]/).slice(0, 2).join('/') : path.slice(5).split(/[/:]/)[0]);
  const nm = path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (nm) return `npm:${nm[1]}`;
  return path.split('/').slice(0, 3).join('/').replace(/:\d+$/, '');
}

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
      for (let cur = parent.get(id); cur !== undefined && chain.length < 9; cur = parent.get(cur)) chain.push(location(byId.get(cur)!.callFrame));
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
    [...m].filter(([k]) => filter(k)).sort((a, b) => b[1] - a[1]).slice(0, top).forEach(([k, us], i) => {
      process.stdout.write(`${String(i + 1).padStart(2)}. ${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}\n`);
    });
  };
  print('Top self time', self, (k) => !/^\((idle|program|garbage collector|root)\)/.test(k));
  print('Top self time incl. idle/GC', self);
  print('Top inclusive time, project code (lib/, cmd/)', inclusive, (k) => /\s(lib|cmd)\//.test(k));
  print('Self time by module', byModule);
  if (focus) print(`Callers of ${focus}`, callers);
}

main();
