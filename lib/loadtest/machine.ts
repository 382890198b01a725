// Facts about the machine that ran the load test, for the report.
import * as os from 'node:os';

export interface MachineInfo {
  hostname: string;
  cpus: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  loadAverage1m: number;
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    hostname: os.hostname(),
    cpus: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    os: `${os.platform()} ${os.release()}`,
    node: process.version,
    loadAverage1m: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
  };
}
