/**
 * `pnpm bench`: runs every benchmark, prints a table, and writes the figures as JSON under
 * bench/results/ (one file per benchmark, overwritten, with the date and machine inside).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { runBackbone } from './backbone.ts';

const resultsDir = join(import.meta.dirname, 'results');
mkdirSync(resultsDir, { recursive: true });
const machine = {
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
};

process.stdout.write('backbone: event store appends and relay + consumer lag…\n');
const backbone = await runBackbone();
const rows: [string, string, string, string][] = [
  ['event store appends/s, 1 writer', String(backbone.appendsPerSecond1), '', ''],
  [
    'event store appends/s, 16 writers',
    String(backbone.appendsPerSecond16),
    '>= 3000',
    backbone.appendsPerSecond16 >= 3000 ? 'met' : 'MISSED',
  ],
  ['append → handled lag p50 (ms)', String(backbone.lagP50Ms), '', ''],
  ['append → handled lag p99 (ms)', String(backbone.lagP99Ms), '<= 50', backbone.lagP99Ms <= 50 ? 'met' : 'MISSED'],
  ['append → handled lag max (ms)', String(backbone.lagMaxMs), '', ''],
  ['lag samples', String(backbone.lagSamples), '', ''],
];
const widths = [0, 1, 2, 3].map((i) =>
  Math.max(...[['measure', 'value', 'target', ''], ...rows].map((r) => r[i]!.length)),
);
const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ');
process.stdout.write(`\n${line(['measure', 'value', 'target', ''])}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
for (const row of rows) process.stdout.write(`${line(row)}\n`);
const file = join(resultsDir, 'backbone.json');
writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString(), machine, results: backbone }, null, 2)}\n`);
process.stdout.write(`\nwritten to ${file}\n`);
