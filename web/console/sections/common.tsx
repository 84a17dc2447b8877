import { fmtDay, fmtInstant } from '../../shared/format.js';
import { channelName, kpiLabel } from '../../shared/kpi.js';
import { href } from '../router.js';
import { useProject } from '../ui.js';

/** A link inside the current project: projectLink('skills/x') → /console/<project>/skills/x. */
export function useLinks() {
  const { project } = useProject();
  return (path: string) => href(`${project.id}/${path}`);
}

export function Day(props: { day: string }) {
  const { format } = useProject();
  return <time dateTime={props.day}>{fmtDay(props.day, format)}</time>;
}

/** An instant in the project's time zone (not the browser's). */
export function Instant(props: { at: string | null | undefined }) {
  const { format } = useProject();
  if (!props.at) return <span class="muted">–</span>;
  return <time dateTime={props.at}>{fmtInstant(props.at, format)}</time>;
}

export const metricLabel = (metric: string, channel: string) => `${kpiLabel(metric)} · ${channelName(channel)}`;

/** Today as a calendar day in the project's time zone. */
export function todayIn(timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  );
}
