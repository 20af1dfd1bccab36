import type { CurrentUser } from '@shiplog/schemas';
import { QueryClient, queryOptions } from '@tanstack/react-query';
import { apiRequest, isUnauthorized } from './api';

/** Spec defaults: fresh 60 s, kept 5 min, no retries, no refetch on focus or interval. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        gcTime: 300_000,
        retry: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
      },
      mutations: { retry: false },
    },
  });
}

/** One factory per resource; invalidate by these keys. */
export const userQuery = queryOptions({
  queryKey: ['user'],
  // The current-user read treats 401 as "no user".
  queryFn: async (): Promise<CurrentUser | null> => {
    try {
      return await apiRequest<CurrentUser>('GET', '/api/user');
    } catch (error) {
      if (isUnauthorized(error)) return null;
      throw error;
    }
  },
});
