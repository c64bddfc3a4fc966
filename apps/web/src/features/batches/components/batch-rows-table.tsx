import {
  BATCH_COLUMN_LABELS,
  BATCH_COLUMNS,
  CAPTION_STYLE_LABELS,
  capitalise,
  type BatchColumn,
  type BatchRow,
} from '@hookreel/contracts';
import { staticUrl } from '@/lib/urls';
import { cn } from '@/lib/utils';

/** What a checked cell shows: the value the video will use (defaults filled in), or what was typed when it is wrong. */
function shown(row: BatchRow, column: BatchColumn, bad: boolean): string {
  if (bad) return row.cells[column] ?? '';
  const v = row.values;
  switch (column) {
    case 'product':
      return v.product;
    case 'actor':
      return v.actor_name ?? '';
    case 'hook':
      return v.hook;
    case 'script':
      return v.script;
    case 'cta':
      return v.cta ?? '—';
    case 'language':
      return capitalise(v.language);
    case 'accent':
      return capitalise(v.accent);
    case 'aspect':
      return v.aspect;
    case 'caption_style':
      return CAPTION_STYLE_LABELS[v.caption_style];
    case 'voice':
      // The name as typed reads better than the id it was found as.
      return v.voice_id ? row.cells.voice || v.voice_id : 'Automatic';
  }
}

/**
 * The parsed sheet: one line per row with its line number in the file, every cell the server refused outlined in
 * red with its message, rows with errors marked as skipped.
 */
export function BatchRowsTable({ rows }: { rows: BatchRow[] }) {
  return (
    <div className="overflow-x-auto rounded-xl border bg-card">
      <table className="w-full min-w-[960px] border-collapse text-sm" aria-label="Parsed rows">
        <thead className="bg-muted/50 text-left text-xs text-muted-foreground uppercase">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Line
            </th>
            {BATCH_COLUMNS.map((c) => (
              <th key={c} scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
                {BATCH_COLUMN_LABELS[c]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const invalid = row.errors.length > 0;
            return (
              <tr
                key={row.id}
                data-testid="batch-row"
                data-line={row.line}
                data-valid={invalid ? 'false' : 'true'}
                className={cn('border-t align-top', invalid && 'bg-red-50/60 dark:bg-red-950/30')}
              >
                <th scope="row" className="px-3 py-2 text-left font-mono text-xs font-medium text-muted-foreground">
                  {row.line}
                  {invalid ? <span className="mt-1 block font-sans text-[11px] text-red-700">Skipped</span> : null}
                </th>
                {BATCH_COLUMNS.map((c) => {
                  const errors = row.errors.filter((e) => e.column === c);
                  const bad = errors.length > 0;
                  return (
                    <td
                      key={c}
                      data-column={c}
                      data-error={bad ? 'true' : undefined}
                      aria-invalid={bad || undefined}
                      className={cn(
                        'max-w-[16rem] px-3 py-2',
                        bad && 'bg-red-100 outline outline-2 -outline-offset-2 outline-red-500 dark:bg-red-950',
                      )}
                    >
                      {c === 'product' && row.product_url ? (
                        <span className="flex items-center gap-2">
                          <img
                            src={staticUrl(row.product_url)}
                            alt=""
                            className="size-8 shrink-0 rounded border bg-white object-contain"
                          />
                          <span className="truncate">{shown(row, c, bad)}</span>
                        </span>
                      ) : (
                        <span className={cn('line-clamp-3 break-words', c === 'script' && 'min-w-[12rem]')}>
                          {shown(row, c, bad) || <span className="text-muted-foreground">—</span>}
                        </span>
                      )}
                      {errors.map((e) => (
                        <span key={e.message} role="note" className="mt-1 block text-xs font-medium text-red-700">
                          {e.message}
                        </span>
                      ))}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Every error as a line a person can find in their spreadsheet: "Line 3, Actor: …". */
export function BatchErrorList({ rows }: { rows: BatchRow[] }) {
  const errors = rows.flatMap((r) => r.errors);
  if (errors.length === 0) return null;
  return (
    <ul
      aria-label="Errors"
      className="space-y-1 rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
    >
      {errors.map((e, i) => (
        <li key={i} data-testid="batch-error">
          <span className="font-semibold">
            Line {e.line}
            {e.column ? `, ${BATCH_COLUMN_LABELS[e.column]}` : ''}:
          </span>{' '}
          {e.message}
        </li>
      ))}
    </ul>
  );
}
