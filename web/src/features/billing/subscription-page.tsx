import { isSubscribed, type Price, type SubscriptionView, yearlySavingsPercent } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { Check, CreditCard, Crown } from 'lucide-react';
import { formatDate } from '../../lib/format';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { Skeleton } from '../../ui/skeleton';
import { pricesQuery, subscriptionQuery, useCheckout, useCustomerPortal } from './use-billing';

/** The paid tier's features (spec/account.md §1). */
const PRO_FEATURES = [
  'Unlimited project management',
  'Full AI chat with memory',
  'Advanced integrations',
  'Email reminders',
  'Priority support',
  'Export capabilities',
  'Team collaboration tools',
];

const FAQ = [
  {
    q: 'What happens when my trial ends?',
    a: 'Nothing you made is lost. Your projects, reminders and timeline stay, and you keep tracking them on the free account. Pro features (Quick Update, the full AI assistant with memory) come with a paid plan, during the trial or after it.',
  },
  {
    q: 'How do I cancel?',
    a: 'Open "Manage billing" on this page and cancel in the billing portal. There is nothing to email and no one to call.',
  },
  {
    q: 'What stays after I cancel?',
    a: 'You keep Pro until the end of the period you paid for. After that your account becomes a free account: every project, reminder and timeline entry stays readable, and you can come back to Pro at any time.',
  },
  {
    q: 'Can I switch between monthly and yearly?',
    a: 'Yes: change the plan in the billing portal. Stripe works out the difference for the time already paid.',
  },
  {
    q: 'Who handles my card?',
    a: 'Stripe. Shiplog never sees or stores your card number; we keep only whether your plan is paid and until when.',
  },
];

const money = (price: Price) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: price.currency.toUpperCase() }).format(
    price.unit_amount / 100,
  );

export function SubscriptionPage() {
  const subscription = useQuery(subscriptionQuery);
  const prices = useQuery(pricesQuery);
  const checkout = useCheckout();
  const subscribed = isSubscribed(subscription.data?.status);
  const monthly = prices.data?.find((p) => p.recurring.interval === 'month');
  const yearly = prices.data?.find((p) => p.recurring.interval === 'year');
  const savings = monthly && yearly ? yearlySavingsPercent(monthly.unit_amount, yearly.unit_amount) : null;

  return (
    <div className="mx-auto max-w-4xl space-y-8">
      <div className="space-y-1 text-center">
        <h2 className="text-3xl font-bold tracking-tight">Choose Your Plan</h2>
        <p className="text-muted-foreground">Shiplog Pro: everything you need to ship your side projects.</p>
      </div>

      <StatusCard subscription={subscription.data} loading={subscription.isPending} />

      <div className="grid gap-6 md:grid-cols-2">
        {[
          { price: monthly, name: 'Monthly', per: 'month', note: 'Billed every month. Cancel anytime.' },
          {
            price: yearly,
            name: 'Yearly',
            per: 'year',
            note: savings ? `Save ${savings}% against paying monthly.` : 'Billed once a year.',
          },
        ].map(({ price, name, per, note }) => (
          <Card key={name} className={per === 'year' ? 'border-primary' : undefined} data-testid={`plan-${per}`}>
            <CardHeader>
              <div className="flex items-center justify-between">
                <CardTitle>{name}</CardTitle>
                {per === 'year' && savings ? (
                  <span className="rounded-full bg-primary px-2 py-0.5 text-xs font-semibold text-primary-foreground">
                    Save {savings}%
                  </span>
                ) : null}
              </div>
              <CardDescription>{note}</CardDescription>
            </CardHeader>
            <CardContent className="space-y-4">
              {price ? (
                <p>
                  <span className="text-4xl font-bold">{money(price)}</span>
                  <span className="text-muted-foreground"> / {per}</span>
                </p>
              ) : (
                <Skeleton className="h-10 w-32" />
              )}
              <ul className="space-y-2 text-sm">
                {PRO_FEATURES.map((feature) => (
                  <li key={feature} className="flex items-center gap-2">
                    <Check className="size-4 text-primary" aria-hidden /> {feature}
                  </li>
                ))}
              </ul>
              <Button
                className="w-full"
                variant={per === 'year' ? 'default' : 'outline'}
                disabled={subscribed || !price || checkout.isPending}
                onClick={() => price && checkout.mutate(price.id)}
              >
                {subscribed
                  ? 'Current Plan'
                  : checkout.isPending && checkout.variables === price?.id
                    ? 'Redirecting...'
                    : `Choose ${name}`}
              </Button>
            </CardContent>
          </Card>
        ))}
      </div>

      <Card>
        <CardHeader>
          <CardTitle>Frequently asked questions</CardTitle>
        </CardHeader>
        <CardContent className="space-y-4">
          {FAQ.map(({ q, a }) => (
            <details key={q} className="group rounded-lg border p-3">
              <summary className="cursor-pointer font-medium">{q}</summary>
              <p className="mt-2 text-sm text-muted-foreground">{a}</p>
            </details>
          ))}
        </CardContent>
      </Card>
    </div>
  );
}

function StatusCard({ subscription, loading }: { subscription: SubscriptionView | undefined; loading: boolean }) {
  const portal = useCustomerPortal();
  if (loading || !subscription) return <Skeleton className="h-28 w-full" />;
  const { status } = subscription;
  const subscribed = isSubscribed(status);
  const date = (iso: string | null) => (iso ? formatDate(iso, 'MMM d, yyyy') : null);
  return (
    <Card data-testid="subscription-status">
      <CardContent className="flex flex-col gap-4 p-6 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-start gap-3">
          {subscribed ? (
            <Crown className="mt-1 size-6 text-primary" aria-hidden />
          ) : (
            <CreditCard className="mt-1 size-6 text-muted-foreground" aria-hidden />
          )}
          <div className="space-y-1">
            <p className="text-lg font-semibold">
              {status === 'trialing'
                ? `Trial - ${subscription.daysRemaining ?? 0} days remaining`
                : subscribed
                  ? `Pro${subscription.plan ? ` · ${subscription.plan === 'year' ? 'Yearly' : 'Monthly'}` : ''}`
                  : 'Free account'}
            </p>
            <p className="text-sm text-muted-foreground">
              {subscribed && subscription.cancelAtPeriodEnd && subscription.nextPaymentDate
                ? `Cancelled: you keep Pro until ${date(subscription.nextPaymentDate)}.`
                : subscribed && subscription.nextPaymentDate
                  ? `Renews on ${date(subscription.nextPaymentDate)}.`
                  : subscribed
                    ? 'Your plan is active.'
                    : status === 'trialing'
                      ? `Your trial ends on ${date(subscription.trialEndDate)}. Quick Update and the full AI assistant come with a paid plan.`
                      : status === 'past_due'
                        ? 'Your last payment failed. Update your card in the billing portal to keep Pro.'
                        : 'Choose a plan to unlock Quick Update and the full AI assistant.'}
              {subscription.lastPaymentDate ? ` Last payment: ${date(subscription.lastPaymentDate)}.` : ''}
            </p>
          </div>
        </div>
        {subscription.hasBillingAccount ? (
          <Button variant="outline" disabled={portal.isPending} onClick={() => portal.mutate()}>
            {portal.isPending ? 'Opening...' : 'Manage billing'}
          </Button>
        ) : null}
      </CardContent>
    </Card>
  );
}
