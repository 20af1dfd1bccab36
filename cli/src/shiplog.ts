#!/usr/bin/env node
import { text } from 'node:stream/consumers';
import { run } from './cli.ts';

/**
 * One line typed at the terminal, echoing nothing: raw mode hands over each key as it is pressed, and
 * nothing is written back. Enter ends it, Ctrl-C stops the program, Backspace takes back a character.
 */
function readHidden(): Promise<string> {
  const { stdin } = process;
  return new Promise((resolve) => {
    let typed = '';
    const done = (value: string) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      resolve(value);
    };
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n' || char === '\u0004') return done(typed);
        if (char === '\u0003') {
          stdin.setRawMode(false);
          process.exit(130);
        }
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}

process.exitCode = await run(process.argv.slice(2), {
  env: process.env,
  stdout: (chunk) => process.stdout.write(chunk),
  stderr: (chunk) => process.stderr.write(chunk),
  readStdin: () => text(process.stdin),
  ...(process.stdin.isTTY ? { readHidden } : {}),
});
