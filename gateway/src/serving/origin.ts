import type { IncomingMessage } from 'node:http';
import { ForbiddenError } from '@shiplog/errors';
import type { RequestHandler } from 'express';
import type { GatewayEnv } from '../env.ts';

/** Where a request comes from: the scheme behind a trusted proxy, and the Origin check for writes. */

/** The request's scheme as Express computes `req.protocol`: X-Forwarded-Proto only from a trusted proxy. */
export function requestProtocol(req: IncomingMessage, trustProxy: TrustProxy): string {
  const own = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  if (!trustProxy(req.socket.remoteAddress ?? '', 0)) return own;
  const header = req.headers['x-forwarded-proto'];
  const value = (typeof header === 'string' ? header : own).split(',')[0]!.trim();
  return value || own;
}

/** Express's compiled `trust proxy` setting (`app.get('trust proxy fn')`). */
export type TrustProxy = (address: string, hop: number) => boolean;

/**
 * State-changing requests must come from our own pages. Browsers send Origin on cross-site POSTs
 * (and Sec-Fetch-Site); either naming another site is refused. Calls without them (curl, servers)
 * carry no ambient cookie risk from a browser and pass.
 */
export function foreignOrigin(req: IncomingMessage, protocol: string, configuredOrigin: string | null): boolean {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return false;
  const origin = req.headers.origin;
  const own = `${protocol}://${req.headers.host}`;
  const foreign = origin !== undefined && origin !== own && origin !== configuredOrigin;
  return foreign || req.headers['sec-fetch-site'] === 'cross-site';
}

export const foreignOriginError = () =>
  new ForbiddenError('Requests from other sites are not allowed', 'FOREIGN_ORIGIN');

export const appOrigin = (config: GatewayEnv) => (config.APP_URL ? new URL(config.APP_URL).origin : null);

/** The Origin check of `foreignOrigin`, for the gateway's own writes (sign-in, sign-out…). */
export function refuseForeignOrigins(config: GatewayEnv): RequestHandler {
  const configured = appOrigin(config);
  return (req, _res, next) => {
    if (foreignOrigin(req, req.protocol, configured)) return next(foreignOriginError());
    next();
  };
}

export function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return /^\d+$/.test(value) ? Number(value) : value;
}
