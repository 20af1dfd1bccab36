import { useQuery } from '@tanstack/react-query';
import { Webhook } from 'lucide-react';
import { SecretLinkCard } from '../../ui/secret-link';
import { deployHookQuery, useCreateDeployHook, useDeleteDeployHook } from './use-deploy-hook';

const GENERIC_EXAMPLE = `{
  "deploymentId": "run-1842",
  "status": "success",
  "environment": "production",
  "version": "1.4.0",
  "url": "https://example.com",
  "notes": "What changed"
}`;

/**
 * The project's deploy webhook: a secret URL that Vercel, Netlify or any CI posts to when it deploys,
 * recording the deployment here. Each deployment is recorded once, however often it is delivered.
 */
export function DeployHookCard({ projectId, readOnly = false }: { projectId: string; readOnly?: boolean }) {
  const { data } = useQuery(deployHookQuery(projectId));
  return (
    <SecretLinkCard
      title="Deploy Webhook"
      description="Record deployments from Vercel, Netlify or any CI that can send a POST."
      state={data}
      make={useCreateDeployHook(projectId)}
      turnOff={useDeleteDeployHook(projectId)}
      readOnly={readOnly}
      status={{
        label: 'Deploy webhook URL',
        copyLabel: 'Copy deploy webhook URL',
        copied: "Paste it into your platform's webhook settings.",
        keepPrivate: 'Keep this URL private: anyone with it can record deployments on this project.',
        mono: true,
      }}
      create={{
        label: (
          <>
            <Webhook /> Create webhook URL
          </>
        ),
        variant: 'outline',
      }}
      renew="New URL"
      remove="Turn off"
    >
      <details className="rounded-lg border p-3 text-sm">
        <summary className="cursor-pointer font-medium">How to use it</summary>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-muted-foreground">
          <li>Vercel: Settings › Webhooks, events Deployment Created, Deployment Succeeded and Deployment Error.</li>
          <li>
            Netlify: Notifications › Deploy notifications › Outgoing webhook, for started, succeeded and failed deploys.
          </li>
          <li>
            Anything else: POST JSON like this, with status started, success or failed; each is recorded once per
            deploymentId. A production start holds this project's monitor alerts until its end.
          </li>
        </ul>
        <pre className="mt-2 overflow-x-auto rounded bg-muted p-2 text-xs">{GENERIC_EXAMPLE}</pre>
      </details>
    </SecretLinkCard>
  );
}
