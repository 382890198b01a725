// Runs the built orch-loadtest binary as a child process and collects its exit code and output.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const LOADTEST_BINARY = join(__dirname, '..', '..', 'dist', 'cmd', 'loadtest.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runLoadtestCli(args: string[], timeoutMs = 120_000): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LOADTEST_BINARY, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`orch-loadtest ${args.join(' ')} did not finish within ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
