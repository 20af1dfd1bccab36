import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../lib/api';
import { told } from '../lib/told';

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
