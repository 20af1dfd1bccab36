import {
  checklistKeys,
  commentPriorities,
  deployHookPlatforms,
  projectStatuses,
  reminderFrequencies,
  reminderTimes,
  subscriptionStatuses,
} from '@shiplog/schemas';
import { z } from 'zod';

/**
 * The one event catalog: every domain event of every service, with its zod schema and version.
 * Events are past-tense facts. `owner` is the service that appends it (and the NATS subject's second
 * token); `publish: false` keeps an event inside its service's store (secrets such as password hashes
 * never travel over the bus). A new incompatible shape bumps `version` and adds an upcaster from the
 * previous one, so old stored events keep loading.
 *
 * Personal data: every event whose `data.userId` names a user is sealed with that user's key
 * (`personal`, below); deleting the account destroys the key (crypto-shredding).
 */
/** The services that append events. */
export type EventOwner = 'identity' | 'billing' | 'projects' | 'reminders' | 'chat' | 'integrations' | 'monitors';

interface CatalogEntry<S extends z.ZodType> {
  owner: EventOwner;
  version: number;
  publish: boolean;
  schema: S;
  upcasters?: Record<number, (data: unknown) => unknown>;
  /**
   * Whose personal data the event holds: its `data.userId`, unless `false` (ids only, or content that
   * belongs to no user). Events with a subject are stored sealed with that user's key (`@shiplog/vault`),
   * so forgetting the key erases them wherever they were copied.
   */
  personal?: false;
}

// Keeps each entry's owner and publish flag as literals, for PublishedEventType.
function event<S extends z.ZodType, O extends EventOwner, P extends boolean>(
  entry: CatalogEntry<S> & { owner: O; publish: P },
): CatalogEntry<S> & { owner: O; publish: P } {
  return entry;
}

const isoDate = z.iso.datetime({ offset: true });
const id = z.uuid();
/** A UTC calendar day, `YYYY-MM-DD`. */
const usageDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
// The value lists the API validates with: an event can hold whatever a command accepted.
const subscriptionStatus = z.enum(subscriptionStatuses);
const commentPriority = z.enum(commentPriorities);
const projectStatus = z.enum(projectStatuses);
const checklistKey = z.enum(checklistKeys);
const checklist = z.object(
  Object.fromEntries(checklistKeys.map((k) => [k, z.boolean()])) as Record<
    (typeof checklistKeys)[number],
    z.ZodBoolean
  >,
);
const reminderTime = z.enum(reminderTimes);
const reminderFrequency = z.enum(reminderFrequencies);
const socialLinks = z.object({
  github: z.string().optional(),
  website: z.string().optional(),
  docs: z.string().optional(),
  twitter: z.string().optional(),
  instagram: z.string().optional(),
});

/** What an incident's opening and closing both say: which monitor, whose, where, since when, why. */
const incident = {
  incidentId: id,
  monitorId: id,
  userId: id,
  projectId: id,
  projectName: z.string(),
  url: z.string(),
  cause: z.string(),
  startedAt: isoDate,
  at: isoDate,
};

export const catalog = {
  // identity — `username-<lowercase name>` streams hold the uniqueness claim; `user-<id>` the account.
  UsernameClaimed: event({
    owner: 'identity',
    version: 1,
    publish: false,
    schema: z.object({ userId: id, username: z.string() }),
  }),
  UsernameReleased: event({
    owner: 'identity',
    version: 1,
    publish: false,
    schema: z.object({ userId: id, username: z.string() }),
  }),
  UserRegistered: event({
    owner: 'identity',
    version: 1,
    publish: true,
    schema: z.object({ userId: id, username: z.string(), email: z.string().nullable(), registeredAt: isoDate }),
  }),
  PasswordSet: event({
    owner: 'identity',
    version: 1,
    publish: false,
    schema: z.object({ userId: id, passwordHash: z.string() }),
  }),
  UserLoggedIn: event({ owner: 'identity', version: 1, publish: true, schema: z.object({ userId: id, at: isoDate }) }),
  /** Published twin of the private PasswordSet, for the security timeline (no hash). */
  PasswordChanged: event({
    owner: 'identity',
    version: 1,
    publish: true,
    schema: z.object({ userId: id, at: isoDate }),
  }),
  /**
   * The account is gone: every service deletes what it holds of the user. Ids only, and never sealed:
   * it is read after the user's key has been destroyed.
   */
  UserDeleted: event({
    owner: 'identity',
    version: 1,
    publish: true,
    personal: false,
    schema: z.object({ userId: id, deletedBy: id, at: isoDate }),
  }),
  ProfileUpdated: event({
    owner: 'identity',
    version: 1,
    publish: true,
    schema: z.object({
      userId: id,
      profile: z.object({
        displayName: z.string(),
        bio: z.string().nullable(),
        phoneNumber: z.string().nullable(),
        replitUsername: z.string().nullable(),
        avatar: z.string().nullable(),
        github: z.string().nullable(),
        twitter: z.string().nullable(),
        linkedin: z.string().nullable(),
        website: z.string().nullable(),
        projectVisibility: z.enum(['public', 'private']),
      }),
      at: isoDate,
    }),
  }),
  AccountInfoUpdated: event({
    owner: 'identity',
    version: 1,
    publish: true,
    schema: z.object({ userId: id, email: z.string().nullable(), phoneNumber: z.string().nullable(), at: isoDate }),
  }),
  /**
   * A link to prove the account's email address is its owner's was mailed: only the SHA-256 of its
   * secret is kept, and it stays in this service. A later request replaces it.
   */
  EmailVerificationRequested: event({
    owner: 'identity',
    version: 1,
    publish: false,
    schema: z.object({ userId: id, email: z.string(), tokenHash: z.string(), expiresAt: isoDate, at: isoDate }),
  }),
  /** The owner opened the link: mail (reminders) may go to this address until it changes. */
  EmailVerified: event({
    owner: 'identity',
    version: 1,
    publish: true,
    schema: z.object({ userId: id, email: z.string(), at: isoDate }),
  }),
  /** `admin-comment-<id>` streams: messages administrators show to every user. */
  AdminCommentPosted: event({
    owner: 'identity',
    version: 1,
    publish: true,
    // Shown to everyone, written in the administrator role.
    personal: false,
    schema: z.object({
      commentId: id,
      message: z.string(),
      priority: commentPriority,
      createdBy: id,
      adminUsername: z.string(),
      expiresAt: isoDate.nullable(),
      at: isoDate,
    }),
  }),
  /** An administrator changed a comment's text or priority. */
  AdminCommentEdited: event({
    owner: 'identity',
    version: 1,
    publish: true,
    personal: false,
    schema: z.object({
      commentId: id,
      message: z.string(),
      priority: commentPriority,
      editedBy: id,
      at: isoDate,
    }),
  }),
  /** Activate / Deactivate: only active, unexpired comments reach the users. */
  AdminCommentActivationChanged: event({
    owner: 'identity',
    version: 1,
    publish: true,
    personal: false,
    schema: z.object({ commentId: id, isActive: z.boolean(), changedBy: id, at: isoDate }),
  }),
  AdminCommentDeleted: event({
    owner: 'identity',
    version: 1,
    publish: true,
    personal: false,
    schema: z.object({ commentId: id, deletedBy: id, at: isoDate }),
  }),
  /** `contact-<id>` streams: a user's message to the administrators. */
  ContactMessageSent: event({
    owner: 'identity',
    version: 1,
    publish: true,
    schema: z.object({
      messageId: id,
      userId: id,
      username: z.string(),
      subject: z.string(),
      message: z.string(),
      at: isoDate,
    }),
  }),
  /** An administrator marked a contact message handled (or not): ids only, read by the admin's inbox. */
  ContactMessageHandled: event({
    owner: 'identity',
    version: 1,
    publish: true,
    personal: false,
    schema: z.object({ messageId: id, handled: z.boolean(), handledBy: id, at: isoDate }),
  }),
  NotificationSettingsChanged: event({
    owner: 'identity',
    version: 1,
    publish: true,
    schema: z.object({
      userId: id,
      settings: z.object({
        emailNotifications: z.boolean(),
        projectUpdates: z.boolean(),
        securityAlerts: z.boolean(),
        marketingEmails: z.boolean(),
        gettingStartedHidden: z.boolean().optional(),
      }),
      at: isoDate,
    }),
  }),
  /**
   * A personal API token, on its user's stream: only the SHA-256 of the token is kept, and
   * it never leaves the service. Sealed with the user's key, so it is shredded with the account.
   */
  ApiTokenCreated: event({
    owner: 'identity',
    version: 1,
    publish: false,
    // `expiresAt`: null for a token that never expires; absent from tokens made before tokens had an
    // expiry, which count as made for the default 90 days.
    schema: z.object({
      userId: id,
      tokenId: id,
      name: z.string(),
      tokenHash: z.string(),
      at: isoDate,
      expiresAt: isoDate.nullable().optional(),
    }),
  }),
  // Published (ids only) so every gateway forgets the token it may have cached.
  ApiTokenRevoked: event({
    owner: 'identity',
    version: 1,
    publish: true,
    schema: z.object({ userId: id, tokenId: id, at: isoDate }),
  }),

  // billing — `subscription-<userId>` streams.
  TrialStarted: event({
    owner: 'billing',
    version: 1,
    publish: true,
    schema: z.object({ userId: id, trialStartDate: isoDate, trialEndDate: isoDate }),
  }),
  SubscriptionStatusChanged: event({
    owner: 'billing',
    version: 1,
    publish: true,
    schema: z.object({
      userId: id,
      from: subscriptionStatus.nullable(),
      to: subscriptionStatus,
      changedBy: id.nullable(),
      reason: z.string(),
    }),
  }),

  /** An administrator extended the trial: it ends `days` after the later of then and its old end. */
  TrialExtended: event({
    owner: 'billing',
    version: 1,
    publish: true,
    schema: z.object({ userId: id, days: z.number().int(), trialEndDate: isoDate, extendedBy: id, at: isoDate }),
  }),
  /** The user's Stripe customer, created once at their first checkout and reused after. */
  StripeCustomerCreated: event({
    owner: 'billing',
    version: 1,
    publish: true,
    schema: z.object({ userId: id, customerId: z.string(), at: isoDate }),
  }),
  /**
   * The subscription as Stripe held it when a webhook told us it changed (re-read from Stripe, so
   * deliveries out of order cannot leave an old state). `stripeEventId` makes a retried delivery a no-op.
   */
  StripeSubscriptionSynced: event({
    owner: 'billing',
    version: 1,
    publish: true,
    schema: z.object({
      userId: id,
      stripeEventId: z.string(),
      customerId: z.string(),
      subscriptionId: z.string(),
      stripeStatus: z.string(),
      priceId: z.string().nullable(),
      plan: z.enum(['month', 'year']).nullable(),
      currentPeriodEnd: isoDate.nullable(),
      cancelAtPeriodEnd: z.boolean(),
      at: isoDate,
    }),
  }),
  /** An invoice was paid (`invoice.paid`), or its payment failed (`invoice.payment_failed`). */
  InvoicePaymentRecorded: event({
    owner: 'billing',
    version: 1,
    publish: true,
    schema: z.object({
      userId: id,
      stripeEventId: z.string(),
      invoiceId: z.string(),
      outcome: z.enum(['paid', 'failed']),
      amount: z.number().int().nullable(),
      currency: z.string().nullable(),
      at: isoDate,
    }),
  }),

  // projects — `project-<id>` streams. Every event names the owner, so reactions never look it up.
  ProjectCreated: event({
    owner: 'projects',
    version: 1,
    publish: true,
    schema: z.object({
      projectId: id,
      userId: id,
      name: z.string(),
      description: z.string().nullable(),
      status: projectStatus,
      checklist,
      costEstimate: z.number().int().nullable(),
      replitId: z.string().nullable(),
      isPublic: z.boolean(),
      socialLinks,
      createdAt: isoDate,
    }),
  }),
  /** Fields other than status and checklist, which have events of their own. */
  ProjectUpdated: event({
    owner: 'projects',
    version: 1,
    publish: true,
    schema: z.object({
      projectId: id,
      userId: id,
      name: z.string(),
      changes: z
        .object({
          name: z.string(),
          description: z.string().nullable(),
          costEstimate: z.number().int().nullable(),
          replitId: z.string().nullable(),
          isPublic: z.boolean(),
          socialLinks,
        })
        .partial(),
      at: isoDate,
    }),
  }),
  ProjectStatusChanged: event({
    owner: 'projects',
    version: 1,
    publish: true,
    schema: z.object({
      projectId: id,
      userId: id,
      name: z.string(),
      from: projectStatus,
      to: projectStatus,
      at: isoDate,
    }),
  }),
  ChecklistUpdated: event({
    owner: 'projects',
    version: 1,
    publish: true,
    schema: z.object({
      projectId: id,
      userId: id,
      name: z.string(),
      checklist,
      changed: z.array(checklistKey),
      // A toggle is its own timeline entry; the other causes are part of another entry.
      cause: z.enum(['toggle', 'quick_update', 'deployment', 'backup']),
      at: isoDate,
    }),
  }),
  BackupRecorded: event({
    owner: 'projects',
    version: 1,
    publish: true,
    schema: z.object({
      projectId: id,
      userId: id,
      name: z.string(),
      version: z.string().nullable(),
      notes: z.string().nullable(),
      location: z.string().nullable(),
      size: z.string().nullable(),
      at: isoDate,
    }),
  }),
  /**
   * v2: `status` (a platform's webhook reports failed deployments too) and `source`, the platform's own
   * id of the deployment when a deploy webhook recorded it (the project records each one once).
   */
  DeploymentRecorded: event({
    owner: 'projects',
    version: 2,
    publish: true,
    schema: z.object({
      projectId: id,
      userId: id,
      name: z.string(),
      environment: z.enum(['development', 'staging', 'production']),
      version: z.string().nullable(),
      url: z.string().nullable(),
      notes: z.string().nullable(),
      method: z.string().nullable(),
      duration: z.string().nullable(),
      /** `started`: under way (a later one of the same deployment says how it went). */
      status: z.enum(['started', 'success', 'failed']),
      source: z.object({ platform: z.enum(deployHookPlatforms), deploymentId: z.string() }).nullable(),
      at: isoDate,
    }),
    upcasters: { 1: (data) => ({ ...(data as object), status: 'success', source: null }) },
  }),
  VersionReleased: event({
    owner: 'projects',
    version: 1,
    publish: true,
    schema: z.object({
      projectId: id,
      userId: id,
      name: z.string(),
      version: z.string(),
      notes: z.string().nullable(),
      changes: z.array(z.string()),
      at: isoDate,
    }),
  }),
  QuickUpdateLogged: event({
    owner: 'projects',
    version: 1,
    publish: true,
    schema: z.object({
      projectId: id,
      userId: id,
      name: z.string(),
      notes: z.string(),
      redeployed: z.boolean(),
      backedUp: z.boolean(),
      at: isoDate,
    }),
  }),
  ProjectDeleted: event({
    owner: 'projects',
    version: 1,
    publish: true,
    schema: z.object({ projectId: id, userId: id, name: z.string(), at: isoDate }),
  }),
  /**
   * A project brought in from a Shiplog export, as it stood when exported: its dates are
   * the original ones, and its history arrives apart (HistoryImported), so it makes no timeline entry.
   * `importedFrom` is its id in the file: importing the same file again imports nothing twice.
   */
  ProjectImported: event({
    owner: 'projects',
    version: 1,
    publish: true,
    schema: z.object({
      projectId: id,
      userId: id,
      importedFrom: z.string(),
      name: z.string(),
      description: z.string().nullable(),
      status: projectStatus,
      checklist,
      costEstimate: z.number().int().nullable(),
      replitId: z.string().nullable(),
      isPublic: z.boolean(),
      socialLinks,
      createdAt: isoDate,
      updatedAt: isoDate,
      at: isoDate,
    }),
  }),
  /**
   * Timeline entries from a Shiplog export, with their original times, linked to the imported projects
   * (`history-import-<importId>` streams; a large history is several of these). Each entry's `id` is
   * derived from its id in the file, so the same entry imported again is one row.
   */
  HistoryImported: event({
    owner: 'projects',
    version: 1,
    publish: true,
    schema: z.object({
      userId: id,
      importId: id,
      entries: z.array(
        z.object({
          id,
          projectId: id.nullable(),
          eventType: z.string(),
          action: z.string(),
          details: z.string(),
          metadata: z.record(z.string(), z.unknown()),
          version: z.string().nullable(),
          status: z.enum(['success', 'failed', 'in_progress']),
          at: isoDate,
        }),
      ),
      at: isoDate,
    }),
  }),

  // reminders — `reminder-<id>` streams. Each names its project (and its name, for the timeline).
  ReminderAdded: event({
    owner: 'reminders',
    version: 1,
    publish: true,
    schema: z.object({
      reminderId: id,
      userId: id,
      projectId: id,
      projectName: z.string(),
      title: z.string(),
      description: z.string().nullable(),
      dueDate: isoDate,
      reminderTimes: z.array(reminderTime).min(1),
      frequency: reminderFrequency,
      isCompleted: z.boolean(),
      at: isoDate,
    }),
  }),
  ReminderUpdated: event({
    owner: 'reminders',
    version: 1,
    publish: true,
    schema: z.object({
      reminderId: id,
      userId: id,
      projectId: id,
      projectName: z.string(),
      title: z.string(),
      changes: z
        .object({
          title: z.string(),
          description: z.string().nullable(),
          dueDate: isoDate,
          reminderTimes: z.array(reminderTime).min(1),
          frequency: reminderFrequency,
        })
        .partial(),
      at: isoDate,
    }),
  }),
  ReminderCompleted: event({
    owner: 'reminders',
    version: 1,
    publish: true,
    schema: z.object({
      reminderId: id,
      userId: id,
      projectId: id,
      projectName: z.string(),
      title: z.string(),
      at: isoDate,
    }),
  }),
  ReminderReactivated: event({
    owner: 'reminders',
    version: 1,
    publish: true,
    schema: z.object({
      reminderId: id,
      userId: id,
      projectId: id,
      projectName: z.string(),
      title: z.string(),
      at: isoDate,
    }),
  }),
  /** Recorded before the email goes out: a send is never repeated, by a restart or a second scheduler. */
  ReminderNotificationSent: event({
    owner: 'reminders',
    version: 1,
    publish: true,
    schema: z.object({
      reminderId: id,
      userId: id,
      projectId: id,
      reminderTime,
      occurrence: isoDate,
      channel: z.enum(['email', 'log']),
      at: isoDate,
    }),
  }),
  /** A recurring reminder's occurrence passed: it moves to the next one. */
  ReminderRescheduled: event({
    owner: 'reminders',
    version: 1,
    publish: true,
    schema: z.object({ reminderId: id, userId: id, projectId: id, from: isoDate, to: isoDate, at: isoDate }),
  }),
  /**
   * A reminder brought in from a Shiplog export, as it stood (sends already made included, so none is
   * repeated), for an imported project. Its history arrives with the projects' (HistoryImported).
   */
  ReminderImported: event({
    owner: 'reminders',
    version: 1,
    publish: true,
    schema: z.object({
      reminderId: id,
      userId: id,
      projectId: id,
      projectName: z.string(),
      importedFrom: z.string(),
      title: z.string(),
      description: z.string().nullable(),
      dueDate: isoDate,
      reminderTimes: z.array(reminderTime).min(1),
      frequency: reminderFrequency,
      isCompleted: z.boolean(),
      emailsSent: z.record(z.string(), isoDate),
      lastSentAt: isoDate.nullable(),
      createdAt: isoDate,
      updatedAt: isoDate,
      at: isoDate,
    }),
  }),
  ReminderDeleted: event({
    owner: 'reminders',
    version: 1,
    publish: true,
    schema: z.object({
      reminderId: id,
      userId: id,
      projectId: id,
      title: z.string(),
      reason: z.enum(['user', 'project_deleted']),
      at: isoDate,
    }),
  }),

  // chat — `chat-usage-<userId>-<YYYY-MM-DD>` streams: a user's messages on one UTC day. They count
  // messages; the text of a conversation is never stored.
  ChatMessageCounted: event({
    owner: 'chat',
    version: 1,
    publish: true,
    schema: z.object({ userId: id, date: usageDate, at: isoDate }),
  }),
  /** The model failed to answer: the message is given back. */
  ChatMessageRefunded: event({
    owner: 'chat',
    version: 1,
    publish: true,
    schema: z.object({ userId: id, date: usageDate, reason: z.enum(['provider_failed']), at: isoDate }),
  }),
  DailyBoostGranted: event({
    owner: 'chat',
    version: 1,
    publish: true,
    schema: z.object({
      userId: id,
      date: usageDate,
      extraMessages: z.number().int().positive(),
      /** How it was asked for: a plain request the service recognised, or the model's tool call. */
      via: z.enum(['request', 'tool']),
      at: isoDate,
    }),
  }),

  // integrations — `integrations-<userId>` streams: one user's connections to external
  // domain-management APIs. A connection's API key is only ever in IntegrationKeySet, which is not
  // published, and sealed twice there: with INTEGRATION_KEY_SECRET, then with the event (the user's key).
  IntegrationConfigured: event({
    owner: 'integrations',
    version: 1,
    publish: true,
    schema: z.object({
      integrationId: id,
      userId: id,
      siteName: z.string(),
      baseUrl: z.string(),
      at: isoDate,
    }),
  }),
  IntegrationKeySet: event({
    owner: 'integrations',
    version: 1,
    publish: false,
    schema: z.object({ integrationId: id, userId: id, sealedKey: z.string() }),
  }),
  /** The integration's domains were read (its `lastUsed`). */
  IntegrationUsed: event({
    owner: 'integrations',
    version: 1,
    publish: true,
    schema: z.object({ integrationId: id, userId: id, at: isoDate }),
  }),
  /** Domains became projects (created through the projects service), each imported once: a use of the integration too. */
  DomainsImported: event({
    owner: 'integrations',
    version: 1,
    publish: true,
    schema: z.object({
      integrationId: id,
      userId: id,
      domains: z.array(z.object({ domainId: z.string(), domainName: z.string(), projectId: id })),
      at: isoDate,
    }),
  }),
  /** A project imported from a domain was deleted: the domain can be imported again. */
  ImportedProjectDeleted: event({
    owner: 'integrations',
    version: 1,
    publish: true,
    schema: z.object({ integrationId: id, userId: id, domainId: z.string(), projectId: id, at: isoDate }),
  }),
  /** The connection is gone; the projects it imported stay. */
  IntegrationDeleted: event({
    owner: 'integrations',
    version: 1,
    publish: true,
    schema: z.object({ integrationId: id, userId: id, at: isoDate }),
  }),

  // monitors: checks of what users shipped. A check's result is not an event (it goes to a table with
  // retention); what changes a monitor's state is.
  MonitorAdded: event({
    owner: 'monitors',
    version: 1,
    publish: true,
    schema: z.object({
      monitorId: id,
      userId: id,
      projectId: id,
      projectName: z.string(),
      /**
       * `http`: a URL is checked; `backup` / `deployment`: one is expected every `intervalSeconds`;
       * `domain`: the registration of the domain in `url` is looked up (RDAP).
       */
      kind: z.enum(['http', 'backup', 'deployment', 'domain']).default('http'),
      url: z.string(),
      intervalSeconds: z.number().int(),
      /** How late an expected backup or deployment may be before it counts as missed. */
      graceSeconds: z.number().int().default(0),
      expectedStatuses: z.string(),
      keyword: z.string().nullable(),
      keywordPresent: z.boolean(),
      failureThreshold: z.number().int(),
      /** Minutes between reminders while an incident stays open; 0: none. */
      repeatMinutes: z.number().int().default(0),
      /** An answer slower than this shows the monitor as degraded; null: none. */
      maxResponseMs: z.number().int().nullable().default(null),
      at: isoDate,
    }),
  }),
  MonitorChanged: event({
    owner: 'monitors',
    version: 1,
    publish: true,
    schema: z.object({
      monitorId: id,
      userId: id,
      projectId: id,
      changes: z.object({
        url: z.string().optional(),
        intervalSeconds: z.number().int().optional(),
        graceSeconds: z.number().int().optional(),
        expectedStatuses: z.string().optional(),
        keyword: z.string().nullable().optional(),
        keywordPresent: z.boolean().optional(),
        failureThreshold: z.number().int().optional(),
        repeatMinutes: z.number().int().optional(),
        maxResponseMs: z.number().int().nullable().optional(),
      }),
      at: isoDate,
    }),
  }),
  /** Checks stop until resumed: by its owner, or because the plan lapsed. */
  MonitorPaused: event({
    owner: 'monitors',
    version: 1,
    publish: true,
    schema: z.object({ monitorId: id, userId: id, projectId: id, reason: z.enum(['user', 'plan']), at: isoDate }),
  }),
  MonitorResumed: event({
    owner: 'monitors',
    version: 1,
    publish: true,
    schema: z.object({ monitorId: id, userId: id, projectId: id, at: isoDate }),
  }),
  /** Removed by its owner, or with its project. */
  MonitorRemoved: event({
    owner: 'monitors',
    version: 1,
    publish: true,
    schema: z.object({
      monitorId: id,
      userId: id,
      projectId: id,
      reason: z.enum(['user', 'project_deleted']),
      at: isoDate,
    }),
  }),
  /** `failures` checks in a row failed: the target is down from the first of them. */
  IncidentOpened: event({
    owner: 'monitors',
    version: 1,
    publish: true,
    schema: z.object({ ...incident, failures: z.number().int() }),
  }),
  /** The owner wrote what happened (a short post-mortem) on a closed incident; a later note replaces it. */
  IncidentNoted: event({
    owner: 'monitors',
    version: 1,
    publish: true,
    schema: z.object({ incidentId: id, monitorId: id, userId: id, projectId: id, note: z.string(), at: isoDate }),
  }),
  /**
   * What a monitor watches ends within `warning` days (14, 7 or 1): an https site's certificate, or a
   * domain's registration. Told once at each.
   */
  ExpiryApproaching: event({
    owner: 'monitors',
    version: 1,
    publish: true,
    schema: z.object({
      monitorId: id,
      userId: id,
      projectId: id,
      projectName: z.string(),
      url: z.string(),
      of: z.enum(['certificate', 'domain']),
      expiresAt: isoDate,
      warning: z.union([z.literal(14), z.literal(7), z.literal(1)]),
      daysLeft: z.number().int(),
      at: isoDate,
    }),
  }),
  /**
   * `alert-channels-<userId>` streams: where a user's alerts go besides email. A channel's URL and a
   * webhook's signing secret are credentials: never published, sealed with the user's key at rest.
   */
  AlertChannelAdded: event({
    owner: 'monitors',
    version: 1,
    publish: false,
    schema: z.object({
      channelId: id,
      userId: id,
      kind: z.enum(['webhook', 'slack', 'discord', 'ntfy']),
      name: z.string(),
      url: z.string(),
      secret: z.string().nullable(),
      at: isoDate,
    }),
  }),
  AlertChannelRemoved: event({
    owner: 'monitors',
    version: 1,
    publish: false,
    schema: z.object({ channelId: id, userId: id, at: isoDate }),
  }),
  /** Still down `repeatMinutes` after the last alert: the `count`th reminder of the open incident. */
  IncidentRepeated: event({
    owner: 'monitors',
    version: 1,
    publish: true,
    schema: z.object({ ...incident, count: z.number().int() }),
  }),
  /**
   * The incident is over: a check passed again (`recovered`), or nothing more is known of the target
   * because its monitor was paused or removed, or can no longer be checked (its address turned private:
   * `unchecked`). Only a recovery is alerted.
   */
  IncidentClosed: event({
    owner: 'monitors',
    version: 1,
    publish: true,
    schema: z.object({
      ...incident,
      endedAt: isoDate,
      ending: z.enum(['recovered', 'paused', 'removed', 'unchecked']).default('recovered'),
    }),
  }),
  /**
   * `monitor-slots-<userId>` streams: the monitors a user holds against the plan's cap. Each add takes
   * a slot and each removal frees it on this one stream, appended with its expected revision, so
   * creates racing in parallel are counted one after another. Kept inside the service.
   */
  MonitorSlotTaken: event({
    owner: 'monitors',
    version: 1,
    publish: false,
    schema: z.object({ monitorId: id, userId: id, at: isoDate }),
  }),
  MonitorSlotFreed: event({
    owner: 'monitors',
    version: 1,
    publish: false,
    schema: z.object({ monitorId: id, userId: id, at: isoDate }),
  }),
} as const;

export type Catalog = typeof catalog;
export type EventType = keyof Catalog;
export type EventData<T extends EventType> = z.infer<Catalog[T]['schema']>;
/** A domain event as `decide` returns it: a tagged union over the whole catalog. */
export type DomainEvent = { [T in EventType]: { type: T; data: EventData<T> } }[EventType];
export type EventOf<T extends EventType> = Extract<DomainEvent, { type: T }>;
/** The event types a service publishes on the bus (what a consumer of that source can receive). */
export type PublishedEventType<O extends EventOwner> = {
  [T in EventType]: Catalog[T] extends { owner: O; publish: true } ? T : never;
}[EventType];

export function isEventType(type: string): type is EventType {
  return Object.hasOwn(catalog, type);
}

/** Validates stored or received data against the catalog, upcasting older versions first. */
export function parseEventData<T extends EventType>(type: T, data: unknown, version: number): EventData<T> {
  const entry: CatalogEntry<z.ZodType> = catalog[type];
  let current = data;
  for (let v = version; v < entry.version; v++) {
    const upcast = entry.upcasters?.[v];
    if (!upcast) throw new Error(`No upcaster for ${type} from version ${v}`);
    current = upcast(current);
  }
  return entry.schema.parse(current) as EventData<T>;
}

/**
 * The one way an event as stored or carried becomes a typed domain event: its type checked against the
 * catalog, its data upcast from `schemaVersion` and validated. Unknown types throw.
 */
export function toDomainEvent(type: string, data: unknown, schemaVersion = 1): DomainEvent {
  if (!isEventType(type)) throw new Error(`Unknown event type: ${type}`);
  return { type, data: parseEventData(type, data, schemaVersion) } as DomainEvent;
}

export function eventVersion(type: EventType): number {
  return catalog[type].version;
}

/** The user whose personal data an event holds (its key seals the event), or null. */
export function dataSubjectOf(type: string, data: unknown): string | null {
  if (!isEventType(type)) return null;
  const entry: CatalogEntry<z.ZodType> = catalog[type];
  if (entry.personal === false) return null;
  const userId = (data as { userId?: unknown } | null)?.userId;
  return typeof userId === 'string' ? userId : null;
}

export function isPublished(type: string): boolean {
  return isEventType(type) && catalog[type].publish;
}

/** Every published event type a service appends: what a consumer of that source subscribes to. */
export function publishedEventTypesOf<O extends EventOwner>(owner: O): PublishedEventType<O>[] {
  return (Object.keys(catalog) as EventType[]).filter(
    (type) => catalog[type].owner === owner && catalog[type].publish,
  ) as PublishedEventType<O>[];
}
