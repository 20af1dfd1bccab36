/**
 * Loaded before a process's own code (`node --import`: the app's start sets it in NODE_OPTIONS, and so
 * does the image). When an OTLP endpoint is configured (`OTEL_EXPORTER_OTLP_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, and `OTEL_SDK_DISABLED` is not `true`), it registers the module
 * hook the instrumentations need for ECMAScript modules and starts the SDK (sdk.ts), before express,
 * pg or redis is loaded. Otherwise it loads nothing, and a process without tracing pays nothing.
 *
 * The process is named by `OTEL_SERVICE_NAME`, else by its entry (`services/<name>/src/main.ts` is
 * `shiplog-<name>`, `gateway/src/main.ts` is `shiplog-gateway`).
 */
const endpoint = process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
if (endpoint && process.env.OTEL_SDK_DISABLED !== 'true') {
  const { register } = await import('node:module');
  // The hook wraps only the modules the instrumentations name (express, pg, …), as they tell it when
  // the SDK starts: by default it parses and wraps every module the process loads, which made loading
  // a service's code about twice as slow as without tracing.
  const { createAddHookMessageChannel } = await import('import-in-the-middle');
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);
  const entry = /(?:services\/([a-z]+)|(gateway))\/src\/main\.ts$/.exec(process.argv[1] ?? '');
  const name = process.env.OTEL_SERVICE_NAME || (entry ? `shiplog-${entry[1] ?? entry[2]}` : 'shiplog');
  const { preloadSdk } = await import('./sdk.ts');
  preloadSdk(name);
  // The process's own code loads once the hook knows every module to wrap.
  await waitForAllMessagesAcknowledged();
}
