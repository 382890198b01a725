// Which running etcd already serves a data directory (Linux /proc), so a start can say so at once instead of waiting
// on etcd's file locks: an embedded etcd left running by a server that was killed, or another server's.
import { readFileSync, readlinkSync } from 'node:fs';
import { basename, isAbsolute, resolve } from 'node:path';
import { parentPidOf, processIds } from './proc-table';

export interface DataDirHolder {
  pid: number;
  /** The holder's parent: 1 (or a subreaper) once the process that started it is gone. */
  parentPid: number;
  /** The parent's command line, '' when unreadable. */
  parentCommand: string;
}

function commandLine(pid: number): string[] {
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
function absoluteIn(pid: number, dir: string): string | undefined {
  if (isAbsolute(dir)) return resolve(dir);
  try {
    return resolve(readlinkSync(`/proc/${pid}/cwd`), dir);
  } catch {
    return undefined;
  }
}

/** The etcd process whose --data-dir is `dataDir`, if any (none found where /proc cannot be read). */
export function findDataDirHolder(dataDir: string): DataDirHolder | undefined {
  const wanted = resolve(dataDir);
  for (const pid of processIds()) {
    if (pid === process.pid) continue;
    const argv = commandLine(pid);
    if (argv.length === 0 || basename(argv[0]!) !== 'etcd') continue;
    const dir = dataDirOf(argv);
    if (dir === undefined || absoluteIn(pid, dir) !== wanted) continue;
    const parentPid = parentPidOf(pid);
    if (parentPid === undefined) continue; // it exited meanwhile
    return { pid, parentPid, parentCommand: commandLine(parentPid).join(' ') };
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
