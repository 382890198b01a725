// A V8 .cpuprofile read back: frames mapped to .ts file:line through source maps, and grouped by module.
import { readFileSync, existsSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, relative, resolve } from 'node:path';

export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
export interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const maps = new Map<string, SourceMap | null>();

/** "lib/x.ts:12 fn" for compiled project files, "node:internal/...:34 fn" otherwise (lines 1-based). */
export function location(frame: CallFrame): string {
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
    const entry = map.findEntry(frame.lineNumber, frame.columnNumber) as {
      originalSource?: string;
      originalLine?: number;
    };
    if (entry.originalSource) {
      const src = entry.originalSource;
      file = src.startsWith('file://') ? fileURLToPath(src) : resolve(dirname(file), src);
      line = (entry.originalLine ?? 0) + 1;
    }
  }
  return `${name} ${relative(process.cwd(), file) || file}:${line}`;
}

/** Groups a location into node core, a node_modules package, or a project directory. */
export function moduleOf(loc: string): string {
  const path = loc.slice(loc.lastIndexOf(' ') + 1);
  if (!path.includes(':') && !path.includes('/')) return loc.startsWith('(') ? loc : 'native/builtin';
  if (path.startsWith('node:'))
    return (
      'node:' +
      (path.slice(5).split(/[/:]/)[0] === 'internal'
        ? path.slice(5).split(/[/:]/).slice(0, 2).join('/')
        : path.slice(5).split(/[/:]/)[0])
    );
  const nm = path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (nm) return `npm:${nm[1]}`;
  return path.split('/').slice(0, 3).join('/').replace(/:\d+$/, '');
}

/** A profile's nodes by id, each node's parent, and each node's location (computed once per node). */
export function indexProfile(profile: CpuProfile): {
  byId: Map<number, ProfileNode>;
  parent: Map<number, number>;
  loc: (id: number) => string;
} {
  const byId = new Map<number, ProfileNode>(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const locs = new Map<number, string>();
  const loc = (id: number): string => {
    let l = locs.get(id);
    if (l === undefined) locs.set(id, (l = location(byId.get(id)!.callFrame)));
    return l;
  };
  return { byId, parent, loc };
}
