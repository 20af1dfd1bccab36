import { Client, cacheExchange, fetchExchange } from 'urql';
import { takeEarly } from './api';
import { DASHBOARD_QUERY, type DashboardVariables, graphqlEarlyKey } from './dashboard-query';

/** A GET the page already sent for this operation and these variables (router.tsx), else a new one. */
const fetchOrEarly: typeof fetch = (input, init) => {
  if ((init?.method ?? 'GET') === 'GET') {
    const params = new URL(String(input), window.location.origin).searchParams;
    const operationName = params.get('operationName');
    const early =
      operationName === null
        ? undefined
        : takeEarly(graphqlEarlyKey(operationName, JSON.parse(params.get('variables') ?? '{}')));
    if (early) return early;
  }
  return fetch(input, init);
};

/** urql for the gateway's GraphQL: the dashboard in one round trip. */
export const graphqlClient = new Client({
  url: '/api/graphql',
  exchanges: [cacheExchange, fetchExchange],
  fetchOptions: { credentials: 'include' },
  fetch: fetchOrEarly,
});

/**
 * The dashboard's data, asked for afresh, as the dashboard's route loads (router.tsx): the one round
 * trip runs beside the page's code download rather than after the page has rendered, and the page
 * reads the answer from urql's cache, or joins the request still in flight. The first visit waits
 * for the answer, so the page renders once, with its data (its LCP); a later one shows what
 * the cache has at once, and the answer when it comes.
 */
export function loadDashboard(variables: DashboardVariables): Promise<unknown> | undefined {
  const cached = graphqlClient.readQuery(DASHBOARD_QUERY, variables);
  const fresh = graphqlClient.query(DASHBOARD_QUERY, variables, { requestPolicy: 'network-only' }).toPromise();
  return cached?.data ? undefined : fresh;
}
