import type { Request, Response } from 'express';

/** A gateway action: `params` are the named groups of its route's pattern (routes.ts). */
export type Action = (req: Request, res: Response, params: Record<string, string>) => Promise<void>;
