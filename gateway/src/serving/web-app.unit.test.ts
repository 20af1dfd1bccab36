import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webApp } from './web-app.ts';

const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} } as never;
const script = `console.log(${JSON.stringify('Shiplog '.repeat(400))});`;
const inline = "\n      document.documentElement.classList.add('dark');\n    ";

let dist: string;
let server: Server;
let base: string;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'shiplog-web-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), `<!doctype html><title>Shiplog</title><script>${inline}</script>`);
  writeFileSync(join(dist, 'assets', 'index-abc.js'), script);
  writeFileSync(join(dist, 'assets', 'index-abc.js.br'), brotliCompressSync(script));
  writeFileSync(join(dist, 'assets', 'index-abc.js.gz'), gzipSync(script));
  // Only a gzip copy, and one with no copies at all.
  writeFileSync(join(dist, 'assets', 'style-def.css'), 'body{color:red}'.repeat(100));
  writeFileSync(join(dist, 'assets', 'style-def.css.gz'), gzipSync('body{color:red}'.repeat(100)));
  writeFileSync(join(dist, 'assets', 'tiny-123.js'), 'export{}');
  writeFileSync(join(dist, 'sw.js'), "self.addEventListener('fetch', () => {});");
  writeFileSync(join(dist, 'manifest.webmanifest'), '{"name":"Shiplog"}');
  const app = express().use(webApp(dist, silent));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dist, { recursive: true, force: true });
});

/** The raw answer (fetch would decode the body itself). */
function raw(path: string, acceptEncoding?: string) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      get(`${base}${path}`, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject);
    },
  );
}

describe('the web app', () => {
  it('sends an asset as Brotli to a browser that accepts it, whatever order it lists encodings in', async () => {
    const answer = await raw('/assets/index-abc.js', 'gzip, deflate, br, zstd');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['content-type']).toMatch(/^text\/javascript/);
    expect(answer.headers.vary).toMatch(/Accept-Encoding/);
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(answer.body).toString()).toBe(script);
    expect(answer.body.length).toBeLessThan(script.length / 4);
  });

  it('falls back to gzip, then to the file itself', async () => {
    const gz = await raw('/assets/index-abc.js', 'gzip;q=1, br;q=0');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(script);

    const plain = await raw('/assets/index-abc.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/);
    expect(plain.body.toString()).toBe(script);

    const css = await raw('/assets/style-def.css', 'br, gzip');
    expect(css.headers['content-encoding']).toBe('gzip');
    expect(css.headers['content-type']).toMatch(/^text\/css/);

    const tiny = await raw('/assets/tiny-123.js', 'br, gzip');
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body.toString()).toBe('export{}');
  });

  it('answers 404 for a missing asset and the app shell for any other path', async () => {
    expect((await raw('/assets/nothing.js', 'br')).status).toBe(404);
    // A path that climbs out of the assets is refused by express.static, never looked up on disk here.
    expect((await raw('/assets/..%2f..%2fetc%2fpasswd', 'br')).status).toBe(403);
    const deep = await raw('/projects/123/edit', 'br, gzip');
    expect(deep.status).toBe(200);
    expect(deep.body.toString()).toContain('<title>Shiplog</title>');
    expect(deep.headers['cache-control']).toBe('no-cache');
    // A path that is not a valid encoding is the app's to call not found, never Express's error page.
    const malformed = await raw('/projects/%E0%A4%A');
    expect(malformed.status).toBe(200);
    expect(malformed.body.toString()).toContain('<title>Shiplog</title>');
  });

  it('sends the page with its Content-Security-Policy, its inline script allowed by hash', async () => {
    for (const path of ['/', '/projects/123', '/index.html']) {
      const policy = String((await raw(path)).headers['content-security-policy']);
      const hash = createHash('sha256').update(inline).digest('base64');
      expect(policy, path).toContain(`script-src 'self' 'sha256-${hash}';`);
      expect(policy, path).toContain("frame-ancestors 'none'");
      expect(policy, path).toContain("object-src 'none'");
    }
  });

  it('sends the service worker and the manifest fresh each time, the worker allowed to fetch from this origin only', async () => {
    const worker = await raw('/sw.js');
    expect(worker.status).toBe(200);
    expect(worker.headers['content-type']).toMatch(/javascript/);
    expect(worker.headers['cache-control']).toBe('no-cache');
    expect(worker.headers['content-security-policy']).toBe("default-src 'none'; connect-src 'self'; img-src 'self'");
    const manifest = await raw('/manifest.webmanifest');
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(manifest.headers['cache-control']).toBe('no-cache');
  });
});
