import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants } from 'node:zlib';
import { gzipAsync } from '@gfx/zopfli';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import {
  dashboardEarlyKey,
  dashboardRequest,
  dashboardVariables,
  SIGNED_IN_HINT_KEY,
} from './src/lib/dashboard-query.ts';

const brotli = promisify(brotliCompress);

/**
 * The page's inline scripts without their comment lines and indentation: the comments are for whoever
 * reads index.html, and the page is sent as it is (it is rewritten per request, not precompressed), on
 * every first load. Runs after the early-dashboard script is written; the gateway's Content-Security-
 * Policy hashes the scripts of the built page, so it follows.
 */
function compactInlineScripts(): Plugin {
  return {
    name: 'shiplog-compact-inline-scripts',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html) =>
        html.replace(/(<script>)([\s\S]*?)(<\/script>)/g, (_, open: string, body: string, close: string) => {
          const lines = body
            .split('\n')
            .map((line) => line.trim())
            .filter((line) => line !== '' && !line.startsWith('//'));
          return `${open}${lines.join('\n')}${close}`;
        }),
    },
  };
}

/**
 * Brotli and gzip copies of each built script, style sheet and image, written beside it once at build
 * time at the highest levels: the gateway sends whichever the browser accepts (gateway/src/serving/web-app.ts).
 * The gzip copies are Zopfli's (still gzip, read by every client): about 3% smaller than zlib's best,
 * for about 4 s of the build (5 iterations; more gain almost nothing).
 */
function precompress(): Plugin {
  return {
    name: 'shiplog-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      await Promise.all(
        Object.keys(bundle)
          .filter((file) => file.startsWith('assets/') && /\.(js|css|svg)$/.test(file))
          .map(async (file) => {
            const path = join(dir, file);
            const data = await readFile(path);
            const [br, gz] = await Promise.all([
              brotli(data, {
                params: {
                  [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                  [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
                },
              }),
              gzipAsync(data, { numiterations: 5 }).then((bytes) => Buffer.from(bytes)),
            ]);
            // Small files too: a route's first load has a score of them (a 400-byte icon gzips to 280).
            // A copy no smaller than the file is left out, and the file is sent as it is.
            await Promise.all([
              br.length < data.length ? writeFile(`${path}.br`, br) : undefined,
              gz.length < data.length ? writeFile(`${path}.gz`, gz) : undefined,
            ]);
          }),
      );
    },
  };
}

/**
 * What each built chunk holds: `.vite/modules.json` maps every chunk to its modules and their rendered
 * size (before minifying), largest first, beside Vite's manifest. `pnpm bench web` reads both to report
 * a route's first load and its top contributors.
 */
function modulesReport(): Plugin {
  return {
    name: 'shiplog-modules-report',
    apply: 'build',
    generateBundle(_options, bundle) {
      const report: Record<string, { module: string; bytes: number }[]> = {};
      for (const [file, chunk] of Object.entries(bundle)) {
        if (chunk.type !== 'chunk') continue;
        report[file] = Object.entries(chunk.modules)
          .map(([id, module]) => ({
            module: id.replace(/^.*node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?/, '').replace(/^.*\/web\//, ''),
            bytes: module.renderedLength,
          }))
          .filter((module) => module.bytes > 0)
          .sort((a, b) => b.bytes - a.bytes);
      }
      this.emitFile({ type: 'asset', fileName: '.vite/modules.json', source: JSON.stringify(report) });
    },
  };
}

/**
 * A visit to the dashboard asks for its data and its code at once, from index.html: the dashboard's
 * GraphQL query (as its route would send it, `lib/dashboard-query.ts`) and a module preload of each
 * chunk its page and urql need beyond the entry's. Left to the app, both waited until the framework
 * had started and the user was known: the page's largest paint came after two more round trips.
 * A visit with search params (a filter) leaves the query to the route, and so does a browser that
 * holds no session as far as it knows (`SIGNED_IN_HINT_KEY`): a signed-out visitor sends nothing that
 * would be refused. A session that has ended meanwhile has its early query refused, and the app goes
 * on to sign-in as before.
 */
function earlyDashboard(): Plugin {
  const files = (bundle: Rolldown.OutputBundle, roots: string[]) => {
    const found = new Set<string>();
    const visit = (file: string) => {
      const chunk = bundle[file];
      if (found.has(file) || chunk?.type !== 'chunk') return;
      found.add(file);
      for (const imported of chunk.imports) visit(imported);
    };
    for (const root of roots) visit(root);
    return found;
  };
  return {
    name: 'shiplog-early-dashboard',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return html;
        const chunks = Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [output] : []));
        const chunkOf = (module: string) => {
          const chunk = chunks.find((c) => c.facadeModuleId?.endsWith(module));
          if (!chunk) throw new Error(`no chunk for ${module}`);
          return chunk.fileName;
        };
        const loaded = files(
          bundle,
          chunks.filter((c) => c.isEntry).map((c) => c.fileName),
        );
        const preloads = [
          ...files(bundle, [chunkOf('/src/features/dashboard/dashboard-page.tsx'), chunkOf('/src/lib/graphql.ts')]),
        ].filter((file) => !loaded.has(file));
        const variables = dashboardVariables({});
        const [url, init] = dashboardRequest(variables);
        const key = dashboardEarlyKey(variables);
        const script = `
      // On a visit to the dashboard by a browser that holds a session: its data and its code, asked for
      // at once (earlyDashboard in vite.config.ts).
      if ((location.pathname === '/' || location.pathname === '/dashboard') && !location.search &&
          localStorage.getItem(${JSON.stringify(SIGNED_IN_HINT_KEY)})) {
        // A failure (offline, the data not kept) is the app's to tell when it takes the answer, not an
        // unhandled rejection before then.
        (window.__shiplogEarly[${JSON.stringify(key)}] = fetch(${JSON.stringify(url)}, ${JSON.stringify(init)})).catch(() => {});
        for (const href of ${JSON.stringify(preloads.map((file) => `/${file}`))}) {
          const link = document.createElement('link');
          link.rel = 'modulepreload';
          link.href = href;
          document.head.append(link);
        }
      }
    `;
        return [{ tag: 'script', children: script, injectTo: 'head' }];
      },
    },
  };
}

/**
 * What every route's first paint runs on: React, the router, the query cache, clsx, Vite's preload
 * helper, and the app's own modules every page uses (`cn` and its conflict table, `apiRequest`); left
 * to the bundler, each became a small file of its own, one more request on every page that
 * compresses worse than the same bytes inside one file.
 */
const FRAMEWORK =
  /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?(?:react|react-dom|scheduler|use-sync-external-store|@tanstack\/[^/]+|clsx)\/|\/src\/lib\/(?:class-names|class-conflicts|api|reauth|told|on-demand)\.tsx?$|\/src\/ui\/toast\.tsx$|vite\/preload-helper/;

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress(), modulesReport(), earlyDashboard(), compactInlineScripts()],
  server: {
    port: 5173,
    // `pnpm --filter @shiplog/web dev` against a running gateway.
    proxy: { '/api': 'http://localhost:3000' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: 'hidden',
    manifest: true,
    // Every browser the app supports preloads modules itself.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // V8's explicit compile hint (Chromium 136+): a script that starts with this comment has all of
        // its functions compiled on a background thread as it downloads, instead of each one on the
        // main thread the first time it is called. Every chunk is fetched to run at once (the entry and
        // the framework on every page, the others when their page or control is used), and a cold load
        // spent about 150 ms of its main thread at 4x CPU compiling (its LCP).
        postBanner: '//# allFunctionsCalledOnLoad',
        codeSplitting: {
          // What every page needs, in one file: it compresses better than the dozen it would be.
          groups: [
            { name: 'framework', test: FRAMEWORK, priority: 20 },
            { name: 'icons', test: /lucide-react/, minShareCount: 3, priority: 10 },
          ],
        },
      },
    },
  },
});
