/**
 * CPU time and memory of each process on this machine, grouped by what it is (the gateway, a service,
 * PostgreSQL, Redis, the load generator…), read from /proc. CPU taken before and after a load run, the
 * difference divided by the requests served, gives the CPU each request costs each part: where a
 * throughput goes on a machine whose cores every part shares. Memory is each process's resident set.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const ticksPerSecond = 100;

function groupOf(pid: string, command: string): string | undefined {
  if (Number(pid) === process.pid) return 'load generator';
  // By the program's name, whether its command line gives a path (/usr/sbin/nats-server) or not.
  const program = command.split(' ')[0]!.split('/').at(-1)!;
  if (program.startsWith('postgres')) return 'postgresql';
  if (program.startsWith('redis-server')) return 'redis';
  if (program.startsWith('nats-server')) return 'nats';
  const service = /services\/([a-z-]+)\/src\/main\.ts/.exec(command);
  if (service) return service[1];
  if (command.includes('gateway/src/main.ts')) return 'gateway';
  if (command.includes('scripts/start.ts')) return 'supervisor';
  if (command.includes('scripts/one-process.ts')) return ONE_PROCESS;
  if (command.includes('bench/bare-server.ts')) return 'bare server';
  if (command.includes('bench/floor-proxy.ts')) return 'floor proxy';
  if (command.includes('bench/conventional-bff.ts')) return 'conventional bff';
  return undefined;
}

/** Each process of interest with a figure read from its /proc files, by pid. */
function readProcesses<T>(read: (pid: string) => T): Map<string, { group: string } & T> {
  const reading = new Map<string, { group: string } & T>();
  if (!existsSync('/proc/self/stat')) return reading; // not Linux: no breakdown
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      const group = groupOf(pid, command);
      if (group) reading.set(pid, { group, ...read(pid) });
    } catch {
      // The process ended while we looked.
    }
  }
  return reading;
}

export type CpuReading = Map<string, { group: string; seconds: number }>;

/** Seconds of CPU (user + system) each process of interest has used so far, by pid. */
export function cpuByGroup(): CpuReading {
  return readProcesses((pid) => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { seconds: (Number(fields[11]) + Number(fields[12])) / ticksPerSecond };
  });
}

/** The app's own processes: what its memory budget counts (PostgreSQL, NATS and Redis are shown apart). */
const infrastructure = new Set(['postgresql', 'nats', 'redis', 'load generator', 'bare server', 'floor proxy']);
/**
 * `npm start`'s supervisor starts the processes and passes their logs on; a deployment has none (each
 * process is a container of its own), so it is shown apart from the stack's figure.
 */
const localOnly = new Set(['supervisor']);
/** The process of the one-process mode, holding every service and the gateway. */
const ONE_PROCESS = 'shiplog (one process)';

function readParent(pid: string): string {
  try {
    return /^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? '0';
  } catch {
    return '0';
  }
}

export interface MemoryReading {
  /** Resident set by process (MiB), the app's first: `gateway`, `projects`, … and `postgresql ×12`. */
  byProcess: Record<string, number>;
  /** The stack as deployed, the gateway and every service, together, MiB. */
  appMiB: number;
  /**
   * The same processes' proportional set (PSS) together, MiB: each shared page counted once in all. The
   * RSS sum counts the Node binary's pages (about 50 MB) once per process, though they are in memory once.
   */
  appProportionalMiB: number;
  /** `npm start`'s supervisor, when there is one, MiB (not part of a deployment: see localOnly). */
  supervisorMiB: number;
  /** PostgreSQL, NATS and Redis together, MiB (shared with whatever else uses them). */
  infrastructureMiB: number;
  /** Each group's proportional set together (`postgresql`, `nats`, `redis`, the app's), MiB. */
  proportionalByGroup: Record<string, number>;
}

/**
 * Each process's resident set now (VmRSS), the app's processes summed apart from the infrastructure's.
 * The app's processes counted are `root` and those it started (another app running on this machine is
 * not counted); PostgreSQL, NATS and Redis wherever they run.
 */
export function memoryByGroup(
  root: number,
  options: {
    oneProcess?: boolean;
    /** Count only the PostgreSQL, NATS and Redis that `root` started (a run's own), not the machine's. */
    ownStores?: boolean;
  } = {},
): MemoryReading {
  const reading = readProcesses((pid) => {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rss = /^VmRSS:\s+(\d+) kB/m.exec(status);
    const pss = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return {
      mib: rss ? Number(rss[1]) / 1024 : 0,
      pssMiB: pss ? Number(pss[1]) / 1024 : 0,
      parent: /^PPid:\s+(\d+)/m.exec(status)?.[1] ?? '0',
    };
  });
  const startedBy = (pid: string): boolean => {
    for (let at = pid; at !== '0' && at !== '1'; ) {
      if (at === String(root)) return true;
      at = reading.get(at)?.parent ?? readParent(at);
    }
    return false;
  };
  const groups = new Map<string, { mib: number; processes: number }>();
  const proportionalByGroup: Record<string, number> = {};
  let appProportionalMiB = 0;
  // In the one-process mode `npm start`'s own process is the app: every service and the gateway.
  const appGroup = (group: string) => (options.oneProcess && group === 'supervisor' ? ONE_PROCESS : group);
  for (const [pid, { group: seen, mib, pssMiB }] of reading) {
    const group = appGroup(seen);
    if ((options.ownStores || !infrastructure.has(group)) && !startedBy(pid)) continue;
    if (!infrastructure.has(group) && !localOnly.has(group)) appProportionalMiB += pssMiB;
    proportionalByGroup[group] = (proportionalByGroup[group] ?? 0) + pssMiB;
    const sum = groups.get(group) ?? { mib: 0, processes: 0 };
    groups.set(group, { mib: sum.mib + mib, processes: sum.processes + 1 });
  }
  const byProcess: Record<string, number> = {};
  let appMiB = 0;
  let supervisorMiB = 0;
  let infrastructureMiB = 0;
  const sorted = [...groups].sort(([a], [b]) => Number(infrastructure.has(a)) - Number(infrastructure.has(b)));
  for (const [group, { mib, processes }] of sorted) {
    if (group === 'load generator') continue;
    byProcess[processes > 1 ? `${group} ×${processes}` : group] = Math.round(mib);
    if (infrastructure.has(group)) infrastructureMiB += mib;
    else if (localOnly.has(group)) supervisorMiB += mib;
    else appMiB += mib;
  }
  return {
    byProcess,
    appMiB: Math.round(appMiB),
    appProportionalMiB: Math.round(appProportionalMiB),
    supervisorMiB: Math.round(supervisorMiB),
    infrastructureMiB: Math.round(infrastructureMiB),
    proportionalByGroup: Object.fromEntries(
      Object.entries(proportionalByGroup).map(([group, mib]) => [group, Math.round(mib)]),
    ),
  };
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

/**
 * How fast this machine is right now: milliseconds for a fixed piece of JavaScript on one core (JSON
 * written, read back and sorted, as the app's own work is; the best of three), printed and saved beside
 * every result, so a slow day shows as one. Lower is faster.
 */
export function machineSpeedMs(): number {
  const rows = Array.from({ length: 100_000 }, (_, i) => ({
    id: i,
    name: `project ${(i * 7919) % 100_000}`,
    cost: i % 97,
  }));
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round++) {
    const start = performance.now();
    const copy = JSON.parse(JSON.stringify(rows)) as typeof rows;
    copy.sort((a, b) => a.name.localeCompare(b.name));
    best = Math.min(best, performance.now() - start);
  }
  return Math.round(best);
}
