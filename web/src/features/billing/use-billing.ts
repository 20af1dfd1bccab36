import type { Price, SubscriptionView } from '@shiplog/schemas';
import { queryOptions, useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { keys } from '../../lib/queries';
import { told } from '../../lib/told';

/** The caller's plan: status, trial days, the paid period (`GET /api/subscription/status`). */
export const subscriptionQuery = queryOptions({
  queryKey: keys.subscription,
  queryFn: () => apiRequest<SubscriptionView>('GET', '/api/subscription/status'),
});

/** The two plans' prices; the server falls back to the configured ones when Stripe is away. */
export const pricesQuery = queryOptions({
  queryKey: keys.prices,
  queryFn: () => apiRequest<Price[]>('GET', '/api/stripe/prices'),
  staleTime: 5 * 60_000,
});

/** Checkout and the customer portal: the browser goes to the URL the provider returned. */
export function useCheckout() {
  return useMutation({
    mutationFn: (priceId: string) =>
      apiRequest<{ url: string }>('POST', '/api/stripe/create-checkout-session', { priceId, mode: 'subscription' }),
    onSuccess: ({ url }) => window.location.assign(url),
    meta: told({ failure: 'Failed to create checkout session' }),
  });
}

export function useCustomerPortal() {
  return useMutation({
    mutationFn: () => apiRequest<{ url: string }>('POST', '/api/stripe/create-customer-portal'),
    onSuccess: ({ url }) => window.location.assign(url),
    meta: told({ failure: 'Failed to open customer portal' }),
  });
}
