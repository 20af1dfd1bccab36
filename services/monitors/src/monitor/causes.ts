/**
 * Why a check failed, in words. Most causes are the checker's own (`HTTP 503`, `timed out`, a date);
 * a keyword check's names the keyword, which is its owner's alone (it may be text only their page
 * holds), so it starts with the quoted keyword and a public page shows generic words instead.
 */
export const keywordCause = (keyword: string, present: boolean) =>
  present ? `"${keyword}" missing` : `"${keyword}" present`;

/**
 * An incident's cause as a public status page shows it: a keyword check's as what was expected
 * (`keywordPresent`: the monitor's setting), every other as it is.
 */
export function publicCause(cause: string, keywordPresent: boolean): string {
  if (!cause.startsWith('"')) return cause;
  return keywordPresent ? 'Expected content not found' : 'Unexpected content found';
}
