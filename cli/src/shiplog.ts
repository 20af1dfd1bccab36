#!/usr/bin/env node
import { text } from 'node:stream/consumers';
import { run } from './cli.ts';

process.exitCode = await run(process.argv.slice(2), {
  env: process.env,
  stdout: (chunk) => process.stdout.write(chunk),
  stderr: (chunk) => process.stderr.write(chunk),
  readStdin: () => text(process.stdin),
});
