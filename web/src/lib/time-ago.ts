import { differenceInMonths } from 'date-fns';

/** `d`'s offset from UTC in ms, as date-fns reckons it (getTimezoneOffsetInMilliseconds). */
function offsetOf(d: Date): number {
  const utc = new Date(
    Date.UTC(
      d.getFullYear(),
      d.getMonth(),
      d.getDate(),
      d.getHours(),
      d.getMinutes(),
      d.getSeconds(),
      d.getMilliseconds(),
    ),
  );
  utc.setUTCFullYear(d.getFullYear());
  return d.getTime() - utc.getTime();
}

const plural = (count: number, one: string, many: string) => (count === 1 ? one : many.replace('#', String(count)));

/**
 * How long ago (or until) `date`, in words: "3 minutes ago", "about 2 hours ago", "in 1 day". The same
 * words and thresholds as date-fns's `formatDistanceToNow(date, { addSuffix: true })` in English, which
 * would bring its locale (about 3.5 KB gzipped) into the pages that show the timeline (decision 023).
 */
export function formatTimeAgo(date: Date | string, now: Date = new Date()): string {
  const at = typeof date === 'string' ? new Date(date) : date;
  const future = at.getTime() > now.getTime();
  const [later, earlier] = future ? [at, now] : [now, at];
  const seconds = Math.trunc((later.getTime() - earlier.getTime()) / 1000);
  const minutes = Math.round((seconds - (offsetOf(later) - offsetOf(earlier)) / 1000) / 60);
  const minutesInDay = 1440;
  const minutesInMonth = 43200;
  let words: string;
  if (minutes < 2) words = minutes === 0 ? 'less than a minute' : plural(minutes, '1 minute', '# minutes');
  else if (minutes < 45) words = `${minutes} minutes`;
  else if (minutes < 90) words = 'about 1 hour';
  else if (minutes < minutesInDay) words = `about ${Math.round(minutes / 60)} hours`;
  else if (minutes < 2520) words = '1 day';
  else if (minutes < minutesInMonth) words = plural(Math.round(minutes / minutesInDay), '1 day', '# days');
  else if (minutes < minutesInMonth * 2)
    words = plural(Math.round(minutes / minutesInMonth), 'about 1 month', 'about # months');
  else {
    const months = differenceInMonths(later, earlier);
    if (months < 12) words = plural(Math.round(minutes / minutesInMonth), '1 month', '# months');
    else {
      const years = Math.trunc(months / 12);
      const since = months % 12;
      if (since < 3) words = plural(years, 'about 1 year', 'about # years');
      else if (since < 9) words = plural(years, 'over 1 year', 'over # years');
      else words = plural(years + 1, 'almost 1 year', 'almost # years');
    }
  }
  return future ? `in ${words}` : `${words} ago`;
}
