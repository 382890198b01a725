// Which running etcd already serves a data directory (Linux /proc), so a start can say so at once instead of waiting
// on etcd's file locks: an embedded etcd left running by a server that was killed, or another server's.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { basename, isAbsolute, resolve } from 'node:path';

export interface DataDirHolder {
  pid: number;
  /** The holder's parent: 1 (or a subreaper) once the process that started it is gone. */
  parentPid: number;
  /** The parent's command line, '' when unreadable. */
  parentCommand: string;
}

function commandLine(pid: number | string): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

/** The `--data-dir` of an etcd command line (both `--data-dir x` and `--data-dir=x`). */
function dataDirOf(argv: string[]): string | undefined {
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--data-dir') return argv[i + 1];
    if (arg.startsWith('--data-dir=')) return arg.slice('--data-dir='.length);
  }
  return undefined;
}

/** `dir` as process `pid` means it: a relative path is relative to that process's working directory. */
function absoluteIn(pid: string, dir: string): string | undefined {
  if (isAbsolute(dir)) return resolve(dir);
  try {
    return resolve(readlinkSync(`/proc/${pid}/cwd`), dir);
  } catch {
    return undefined;
  }
}

/** The etcd process whose --data-dir is `dataDir`, if any (undefined where /proc cannot be read). */
export function findDataDirHolder(dataDir: string): DataDirHolder | undefined {
  const wanted = resolve(dataDir);
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const argv = commandLine(entry);
    if (argv.length === 0 || basename(argv[0]!) !== 'etcd') continue;
    const dir = dataDirOf(argv);
    if (dir === undefined || absoluteIn(entry, dir) !== wanted) continue;
    let parentPid = 0;
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentPid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      continue; // it exited meanwhile
    }
    return { pid: Number(entry), parentPid, parentCommand: commandLine(parentPid).join(' ') };
  }
  return undefined;
}

/** The error a start reports when `holder` already serves the data directory. */
export function dataDirInUseMessage(dataDir: string, holder: DataDirHolder): string {
  const by =
    holder.parentCommand === '' || holder.parentPid <= 1
      ? 'left running by a server that was stopped without stopping it'
      : `started by pid ${holder.parentPid} (${holder.parentCommand.slice(0, 120)})`;
  return `the etcd data directory ${resolve(dataDir)} is in use by etcd pid ${holder.pid}, ${by}; stop that process or choose another --data-dir`;
}
