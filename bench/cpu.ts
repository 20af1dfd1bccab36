/**
 * CPU time spent by each process on this machine, grouped by what it is (the gateway, a service,
 * PostgreSQL, Redis, the load generator…), read from /proc. Taken before and after a load run, the
 * difference divided by the requests served gives the CPU each request costs each part: where a
 * throughput goes on a machine whose cores every part shares.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const ticksPerSecond = 100;

function groupOf(pid: string, command: string): string | undefined {
  if (Number(pid) === process.pid) return 'load generator';
  if (command.startsWith('postgres')) return 'postgresql';
  if (command.startsWith('redis-server')) return 'redis';
  if (command.startsWith('nats-server')) return 'nats';
  const service = /services\/([a-z-]+)\/src\/main\.ts/.exec(command);
  if (service) return service[1];
  if (command.includes('gateway/src/main.ts')) return 'gateway';
  if (command.includes('bench/bare-server.ts')) return 'bare server';
  if (command.includes('bench/floor-proxy.ts')) return 'floor proxy';
  return undefined;
}

export type CpuReading = Map<string, { group: string; seconds: number }>;

/** Seconds of CPU (user + system) each process of interest has used so far, by pid. */
export function cpuByGroup(): CpuReading {
  const reading: CpuReading = new Map();
  if (!existsSync('/proc/self/stat')) return reading; // not Linux: no breakdown
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      const group = groupOf(pid, command);
      if (!group) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]);
      reading.set(pid, { group, seconds: ticks / ticksPerSecond });
    } catch {
      // The process ended while we looked.
    }
  }
  return reading;
}

/**
 * Microseconds of CPU per request, by group, between two readings. A process that ended in between
 * (an idle database connection closed) is left out; one that started counts whole. Groups under 1 µs
 * are left out.
 */
export function cpuPerRequest(before: CpuReading, after: CpuReading, requests: number): Record<string, number> {
  const seconds = new Map<string, number>();
  for (const [pid, { group, seconds: now }] of after) {
    seconds.set(group, (seconds.get(group) ?? 0) + now - (before.get(pid)?.seconds ?? 0));
  }
  const result: Record<string, number> = {};
  let total = 0;
  for (const [group, spent] of seconds) {
    const micros = (spent * 1e6) / requests;
    if (micros < 1) continue;
    result[group] = Math.round(micros);
    total += micros;
  }
  result.total = Math.round(total);
  return result;
}
