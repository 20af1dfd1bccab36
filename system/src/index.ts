/**
 * The whole system, started one way: `startServices` runs services of the directory in this process
 * (a database, a bus namespace and an internal token secret of their own), `startBackend` every one
 * of them and the gateway, with the `Client` that drives it over HTTP as a browser would.
 */
export { type ApiCall, apiSurface } from './api-surface.ts';
export {
  type Answer,
  type Backend,
  Client,
  type RunningOf,
  type Services,
  startBackend,
  startServices,
  uniqueUsername,
} from './backend.ts';
export { contractOf } from './contract.ts';
export { openLiveStream, type SseMessage } from './live-stream.ts';
