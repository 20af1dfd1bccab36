import { AppError, ValidationError } from '@shiplog/errors';
import { formatPosition, isId } from '@shiplog/events';
import { Outbound } from '@shiplog/outbound';
import type {
  CreateProjectInput,
  CreateReminderInput,
  Domain,
  ImportDomainsResponse,
  IntegrationForm,
  Project,
  Reminder,
} from '@shiplog/schemas';
import {
  type Caller,
  callerOf,
  createdId,
  devSecret,
  handleCommand,
  IDEMPOTENCY_HEADER,
  loadAggregate,
  POSITION_HEADER,
  parsePositions,
  reportPosition,
  reportPositions,
  requireUserId,
  type ServiceContext,
  serveRoutes,
} from '@shiplog/service-kit';
import { SecretBox } from '@shiplog/vault';
import type { Request } from 'express';
import { DomainApi } from '../adapters/domain-api.ts';
import type { IntegrationsEnv } from '../env.ts';
import { type IntegrationCommand, IntegrationNotFoundError, integrationDecider, integrationOf } from './decide.ts';
import { type ConfiguredIntegration, integrationsStream, integrationView } from './integration.ts';
import { integrationRoutes } from './routes.ts';

/** An import's requests to the projects and reminders services at a time. */
const IMPORT_CONCURRENCY = 8;
/** A use, an import and a delete racing on one user's stream are each decided again. */
const RACE_RETRIES = 10;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The integrations API (spec/account.md §7). API keys: sealed with INTEGRATION_KEY_SECRET before
 * they enter an event (so the decider, the store and every copy hold only ciphertext, and the
 * services sharing the vault cannot open them), the event itself sealed with the user's key (so
 * account deletion shreds them), in IntegrationKeySet, which is never published. A key is opened
 * only to call the user's own API, and never answered, logged or put on the bus.
 */
export function integrationsApi(context: ServiceContext<IntegrationsEnv>) {
  const { store, services, config, metrics } = context;
  const keys = new SecretBox(
    config.INTEGRATION_KEY_SECRET ?? devSecret('INTEGRATION_KEY_SECRET'),
    'integration-api-key',
  );
  const outbound = new Outbound({
    allowedHosts: config.INTEGRATION_ALLOWED_HOSTS,
    timeoutMs: config.INTEGRATION_TIMEOUT_MS,
    observe: (outcome) => metrics.outbound('registrar', outcome),
  });
  const domainApi = new DomainApi(outbound);

  const load = (userId: string) => loadAggregate(store, integrationsStream(userId), integrationDecider);
  const run = (caller: Caller, command: IntegrationCommand) =>
    handleCommand(store, integrationsStream(command.userId), integrationDecider, command, {
      userId: caller.userId,
      correlationId: caller.correlationId,
      retries: RACE_RETRIES,
      now: context.now(),
    });

  /** The key an integration was saved with; an integration whose key no longer opens is inactive. */
  const keyOf = (integration: ConfiguredIntegration) =>
    integration.sealedKey ? keys.open(integration.id, integration.sealedKey) : null;

  /** The path's integration of the caller's, with its key; anything else is not found. */
  async function integrationFor(req: Request) {
    const userId = requireUserId(req);
    const id = req.params.id;
    if (!isId(id)) throw new IntegrationNotFoundError();
    const integration = integrationOf((await load(userId)).state, id);
    const apiKey = keyOf(integration);
    if (!apiKey) {
      throw new AppError(
        409,
        'INTEGRATION_KEY_UNREADABLE',
        'This integration’s API key can no longer be read (the server’s INTEGRATION_KEY_SECRET changed). Delete it and save it again.',
      );
    }
    return { userId, integration, apiKey };
  }

  /** The form, parsed with the web form's schema; an address Shiplog will never call is refused here. */
  function formOf(form: IntegrationForm): IntegrationForm {
    const refused = domainApi.refusalOf(form.baseUrl);
    if (refused) throw new ValidationError({ baseUrl: [refused] });
    return form;
  }

  /**
   * Each domain as a project of the caller's, through the projects service's own API (its command
   * path, so the timeline shows project_created), keyed for idempotency by integration and domain: a
   * retried import makes the same project once.
   */
  async function createProject(caller: Caller, integration: ConfiguredIntegration, domain: Domain) {
    const body: Partial<CreateProjectInput> = {
      name: domain.domainName.slice(0, 200),
      description: describe(integration, domain),
      // A domain someone holds is out in the world.
      status: 'deployed',
    };
    const answer = await services.call<Project>('projects', {
      method: 'POST',
      path: '/projects',
      body,
      caller,
      // A retry of this import is the same project; an import after its project was deleted is a new one.
      headers: {
        [IDEMPOTENCY_HEADER]: `integration-${integration.id}-domain-${domain.id}${
          integration.deletions.has(domain.id) ? `-${integration.deletions.get(domain.id)}` : ''
        }`,
      },
    });
    return answer.status === 201 ? { project: answer.body, position: answer.headers[POSITION_HEADER] } : null;
  }

  /** A renewal reminder, `daysBefore` the expiry (or today, when that has passed), through the reminders service. */
  async function createRenewalReminder(
    caller: Caller,
    after: string | undefined,
    project: Project,
    domain: Domain,
    daysBefore: number,
  ) {
    const expiry = domain.expiryDate ? new Date(domain.expiryDate) : null;
    if (!expiry || Number.isNaN(expiry.getTime())) return null;
    const due = new Date(Math.max(expiry.getTime() - daysBefore * DAY_MS, context.now().getTime() + 60 * 60 * 1000));
    const body: Partial<CreateReminderInput> = {
      projectId: project.id,
      title: `Renew ${domain.domainName}`.slice(0, 100),
      description: `${domain.domainName} expires on ${expiry.toISOString().slice(0, 10)}.`,
      dueDate: due,
      reminderTimes: ['at_time', '1_week_before'],
      frequency: 'once',
    };
    const answer = await services.call<Reminder>('reminders', {
      method: 'POST',
      path: '/reminders',
      body,
      caller,
      // The reminders service learns of the new project from the bus: it waits until it has.
      after,
      headers: { [IDEMPOTENCY_HEADER]: `renewal-${project.id}` },
    });
    return answer.status === 201 ? { position: answer.headers[POSITION_HEADER] } : null;
  }

  const served = serveRoutes(integrationRoutes, {
    'GET /integrations': async (req, res) => {
      const userId = requireUserId(req);
      const { state } = await load(userId);
      res.json([...state.integrations.values()].map((i) => integrationView(userId, i, keyOf(i) !== null)));
    },

    'POST /integrations': async (req, res, parsed) => {
      const userId = requireUserId(req);
      const form = formOf(parsed.body);
      const { id: integrationId } = createdId(req, userId, 'integration');
      const { state, position } = await run(callerOf(req), {
        type: 'ConfigureIntegration',
        userId,
        integrationId,
        siteName: form.siteName,
        baseUrl: form.baseUrl,
        sealedKey: keys.seal(integrationId, form.apiKey),
      });
      if (position) reportPosition(res, 'integrations', position);
      res.status(201).json(integrationView(userId, integrationOf(state, integrationId), true));
    },

    'DELETE /integrations/:id': async (req, res) => {
      const userId = requireUserId(req);
      const integrationId = req.params.id;
      if (!isId(integrationId)) throw new IntegrationNotFoundError();
      // The projects it imported are the user's own now: they stay.
      const { position } = await run(callerOf(req), { type: 'DeleteIntegration', userId, integrationId });
      if (position) reportPosition(res, 'integrations', position);
      res.status(204).end();
    },

    'POST /integration/test': async (req, res, parsed) => {
      requireUserId(req);
      res.json(await domainApi.test(formOf(parsed.body)));
    },

    'POST /integration/diagnostics': async (req, res, parsed) => {
      requireUserId(req);
      res.json(await domainApi.diagnose(formOf(parsed.body)));
    },

    'GET /integrations/:id/projects': async (req, res) => {
      const { userId, integration, apiKey } = await integrationFor(req);
      const domains = await domainApi.domains(integration.baseUrl, apiKey);
      await run(callerOf(req), { type: 'RecordUse', userId, integrationId: integration.id });
      res.json(domains.map((d) => ({ ...d, imported: integration.imported.has(d.id) })));
    },

    'POST /integrations/:id/import': async (req, res, parsed) => {
      const input = parsed.body;
      const { userId, integration, apiKey } = await integrationFor(req);
      const caller = callerOf(req);
      const domains = await domainApi.domains(integration.baseUrl, apiKey);
      const wanted = new Set(input.projectIds);
      const selected = domains.filter((d) => wanted.has(d.id));
      const fresh = selected.filter((d) => !integration.imported.has(d.id));

      // Every source this import wrote to: the caller's next reads wait for all of them.
      const reached: string[] = [];
      const created = (await inTurn(fresh, IMPORT_CONCURRENCY, (d) => createProject(caller, integration, d))).flatMap(
        (result, i) => {
          if (!result) return [];
          if (typeof result.position === 'string') reached.push(result.position);
          return [{ project: result.project, domain: fresh[i]! }];
        },
      );
      let remindersCreated = 0;
      if (input.renewalReminders && created.length > 0) {
        const projectsReached = parsePositions(reached.join(',')).get('projects');
        const after = projectsReached ? `projects=${formatPosition(projectsReached)}` : undefined;
        const reminders = await inTurn(created, IMPORT_CONCURRENCY, ({ project, domain }) =>
          createRenewalReminder(caller, after, project, domain, input.reminderDaysBefore),
        );
        for (const reminder of reminders) {
          if (!reminder) continue;
          remindersCreated++;
          if (typeof reminder.position === 'string') reached.push(reminder.position);
        }
      }
      // The import is a use of the integration too (DomainsImported sets its lastUsed).
      const recorded = await run(caller, {
        type: 'RecordImport',
        userId,
        integrationId: integration.id,
        domains: created.map(({ project, domain }) => ({
          domainId: domain.id,
          domainName: domain.domainName,
          projectId: project.id,
        })),
      });
      if (recorded.position) reached.push(`integrations=${formatPosition(recorded.position)}`);
      reportPositions(res, parsePositions(reached.join(',')));
      res.json({
        projects: created.map(({ project, domain }) => ({ id: project.id, name: project.name, domainId: domain.id })),
        message: `Imported ${created.length} of ${input.projectIds.length} domains`,
        alreadyImported: selected.length - fresh.length,
        remindersCreated,
      } satisfies ImportDomainsResponse);
    },
  });

  return { ...served, close: () => outbound.close() };
}

/** A project's description from its domain: where it is hosted, its status and when it expires. */
function describe(integration: ConfiguredIntegration, domain: Domain): string {
  const facts = [
    domain.hostingProvider && `Hosting: ${domain.hostingProvider}`,
    domain.status && `Status: ${domain.status}`,
    domain.expiryDate && `Expires: ${domain.expiryDate.slice(0, 10)}`,
  ].filter(Boolean);
  return [`Imported from ${integration.siteName}.`, ...facts].join(' ').slice(0, 5000);
}

/** Runs `task` over `items`, at most `limit` at a time, answers in order. */
async function inTurn<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i]!);
      }
    }),
  );
  return results;
}
