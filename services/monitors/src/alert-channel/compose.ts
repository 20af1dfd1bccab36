import type { MonitorEvent } from '../monitor/monitor.ts';
import type { WorkflowRunEvent } from '../workflow-run/workflow-run.ts';

/** What is alerted: an incident opening or closing, a certificate near its end, a failed workflow run. */
export type AlertEvent =
  | Extract<MonitorEvent, { type: 'IncidentOpened' | 'IncidentRepeated' | 'IncidentClosed' | 'ExpiryApproaching' }>
  | WorkflowRunEvent;

export const alertEventTypes = [
  'IncidentOpened',
  'IncidentRepeated',
  'IncidentClosed',
  'ExpiryApproaching',
  'WorkflowRunFailed',
] as const satisfies readonly AlertEvent['type'][];

const minutes = (from: string, to: string) => Math.max(1, Math.round((Date.parse(to) - Date.parse(from)) / 60_000));

/** An alert in words, the same by email and every channel: a title and a sentence. */
export const alertLines = (event: AlertEvent): [string, string] =>
  event.type === 'ExpiryApproaching'
    ? expiryLines(event)
    : event.type === 'WorkflowRunFailed'
      ? workflowLines(event)
      : incidentLines(event);

function workflowLines(event: WorkflowRunEvent): [string, string] {
  const d = event.data;
  return [
    `${d.workflow} failed: ${d.projectName}`,
    `${d.workflow} failed on ${d.branch} (${d.trigger}) at ${new Date(d.at).toUTCString()}${d.runUrl ? `: ${d.runUrl}` : '.'}`,
  ];
}

/** The project's page, which every alert links to. */
export const projectLink = (appUrl: string, projectId: string) => `${appUrl.replace(/\/$/, '')}/projects/${projectId}`;

function expiryLines(event: Extract<MonitorEvent, { type: 'ExpiryApproaching' }>): [string, string] {
  const d = event.data;
  const days = `${d.daysLeft} ${d.daysLeft === 1 ? 'day' : 'days'}`;
  const on = new Date(d.expiresAt).toUTCString();
  return d.of === 'domain'
    ? [
        `Domain ends in ${days}: ${d.url}`,
        `The registration of ${d.url} ends on ${on}, in ${days}. Renew it before then, or the name goes back on sale.`,
      ]
    : [
        `Certificate ends in ${days}: ${d.projectName}`,
        `The certificate of ${d.url} ends on ${on}, in ${days}. Renew it before then: visitors will see a security warning, and checks will fail.`,
      ];
}

function incidentLines(
  event: Extract<MonitorEvent, { type: 'IncidentOpened' | 'IncidentRepeated' | 'IncidentClosed' }>,
): [string, string] {
  const d = event.data;
  const started = new Date(d.startedAt).toUTCString();
  // A URL is down and up again; an expected backup or deployment (no URL) is missed and on time again.
  const checked = d.url !== '';
  if (event.type === 'IncidentOpened')
    return checked
      ? [`Down: ${d.projectName} (${d.cause})`, `${d.url} is down since ${started}: ${d.cause}.`]
      : [`Missed: ${d.projectName} (${d.cause})`, `${d.projectName}: ${d.cause}, overdue since ${started}.`];
  if (event.type === 'IncidentRepeated') {
    const since = minutes(d.startedAt, event.data.at);
    return checked
      ? [
          `Still down: ${d.projectName} (${d.cause})`,
          `${d.url} is still down, for ${since} min since ${started}: ${d.cause}.`,
        ]
      : [`Still missed: ${d.projectName} (${d.cause})`, `${d.projectName}: ${d.cause}, overdue for ${since} min.`];
  }
  const lasted = minutes(d.startedAt, event.data.endedAt);
  return checked
    ? [`Up again: ${d.projectName}`, `${d.url} is up again, after ${lasted} min down (${d.cause}).`]
    : [
        `On time again: ${d.projectName}`,
        `${d.projectName} is on time again, after ${lasted} min overdue (${d.cause}).`,
      ];
}
