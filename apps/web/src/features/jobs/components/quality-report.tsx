import { qualityVerdict, type Job, type QualityCheck, type QualityLevel } from '@hookreel/contracts';
import { AlertTriangleIcon, CheckCircle2Icon, ExternalLinkIcon, XCircleIcon } from 'lucide-react';
import { FormError } from '@/components/form-error';
import { Skeletons } from '@/components/layout/skeletons';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { staticUrl } from '@/lib/urls';
import { cn } from '@/lib/utils';
import { useQualityReport } from '../api/get-quality-report';

/** How each level reads: green passed, amber needs a look, red failed. */
export const LEVEL_TEXT: Record<QualityLevel, string> = {
  pass: 'Passed',
  warn: 'Needs a look',
  fail: 'Failed',
};

const LEVEL_TONE: Record<QualityLevel, string> = {
  pass: 'text-emerald-600 dark:text-emerald-400',
  warn: 'text-amber-500 dark:text-amber-400',
  fail: 'text-red-600 dark:text-red-400',
};

const VERDICT_TONE: Record<QualityLevel, string> = {
  pass: 'bg-emerald-100 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300',
  warn: 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300',
  fail: 'bg-red-100 text-red-700 dark:bg-red-950 dark:text-red-300',
};

function LevelIcon({ level, className }: { level: QualityLevel; className?: string }) {
  const cls = cn('size-4 shrink-0', LEVEL_TONE[level], className);
  if (level === 'pass') return <CheckCircle2Icon className={cls} aria-hidden="true" />;
  if (level === 'warn') return <AlertTriangleIcon className={cls} aria-hidden="true" />;
  return <XCircleIcon className={cls} aria-hidden="true" />;
}

/** The overall verdict as a small badge (the worst line of the report). */
export function QualityBadge({ level, className }: { level: QualityLevel; className?: string }) {
  return (
    <span
      data-testid="quality-verdict"
      data-level={level}
      className={cn(
        'inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-medium',
        VERDICT_TONE[level],
        className,
      )}
    >
      <LevelIcon level={level} className="size-3.5 text-current" />
      {level === 'pass' ? 'All checks passed' : level === 'warn' ? 'Some checks need a look' : 'A check failed'}
    </span>
  );
}

export function QualityLines({ checks }: { checks: readonly QualityCheck[] }) {
  return (
    <ul className="divide-y" aria-label="Quality checks">
      {checks.map((c) => (
        <li
          key={c.id}
          data-testid="quality-line"
          data-check={c.id}
          data-level={c.level}
          className="flex items-start gap-2.5 py-2 text-sm"
        >
          <LevelIcon level={c.level} className="mt-0.5" />
          <span className="min-w-0 flex-1">
            <span className="block font-medium">
              {c.label}
              <span className="sr-only">: {LEVEL_TEXT[c.level]}</span>
            </span>
            <span className="block text-xs break-words text-muted-foreground">{c.detail}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}

/**
 * The quality report of a finished video (docs/video-design.md#quality-report): one green, amber or red line per
 * check — text over face or product, safe zone, loudness, true peak, square pixels, duration, A/V drift, mouth
 * motion — and a link to the full measured report.
 */
export function QualityReportCard({ job, className }: { job: Pick<Job, 'report_url'>; className?: string }) {
  const report = useQualityReport(job.report_url);
  const full = staticUrl(job.report_url);
  return (
    <Card className={className} data-testid="quality-report">
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle>Quality report</CardTitle>
        {report.data ? <QualityBadge level={qualityVerdict(report.data)} /> : null}
      </CardHeader>
      <CardContent>
        {!job.report_url ? (
          <p className="text-sm text-muted-foreground">This video was made before quality reports.</p>
        ) : report.isPending ? (
          <Skeletons count={5} className="space-y-2" label="Loading the quality report" item="h-8" />
        ) : report.isError ? (
          <FormError>The quality report could not be loaded.</FormError>
        ) : (
          <>
            <QualityLines checks={report.data.checks} />
            {full ? (
              <a
                href={full}
                target="_blank"
                rel="noreferrer"
                className="mt-3 inline-flex items-center gap-1 text-sm font-medium underline-offset-4 hover:underline"
              >
                Full report (JSON) <ExternalLinkIcon className="size-3.5" aria-hidden="true" />
              </a>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
